package sparkdrill.reader

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.ObjectNode

import sparkdrill.loader.{ColumnWriter, RowWriter, VariantTypes, VariantValueBuilder}

/** The rescued-data column (`rescuedDataColumn`) of one reader: a record's values that have no column (fields
  * past a header, columns the table lacks, values that did not convert, JSON keys after discovery), kept as a
  * JSON object with the record's `_file` and `_line` and capped by `maxRecordTextBytes`. One place for every
  * format, so the column reads alike whatever wrote it. With `rescuedDataType=variant` the column is a
  * VARIANT holding the same object.
  */
final class RescuedData(options: ReaderOptions, writer: RowWriter, path: String) {

  /** The column's writer when the query reads it, else null (nothing is rescued). */
  val column: ColumnWriter =
    if (writer == null) null
    else options.get(CommonOptions.RescuedDataColumn).flatMap(writer.find).filter(_.isProjected).orNull

  def enabled: Boolean = column != null
  private var json: ObjectNode = _

  /** Starts a record: nothing rescued yet. */
  def reset(): Unit = json = null

  def put(key: String, text: String): Unit = obj().put(key, text)
  def put(key: String, value: JsonNode): Unit = obj().set[JsonNode](key, value)
  def isEmpty: Boolean = json == null

  /** Writes the record's rescued values, if any, with its file and line (-1: unknown, left out). */
  def write(line: Long): Unit = if (json != null) {
    json.put("_file", path)
    if (line >= 0) json.put("_line", line)
    if (asVariant) RescuedData.toVariant(json, variants, column)
    else column.setString(CommonOptions.capText(json.toString, options))
  }

  // rescuedDataType=variant: the same object as a VARIANT (not cut: a VARIANT has no text to cut).
  private val asVariant = enabled && VariantTypes.isVariant(column.dataType)
  private lazy val variants = VariantTypes.builder(allowDuplicateKeys = false) // a Jackson object has none

  private def obj(): ObjectNode = {
    if (json == null) json = RescuedData.mapper.createObjectNode()
    json
  }
}

private object RescuedData {
  private val mapper = new ObjectMapper()

  /** A Jackson tree into a VARIANT column, numbers by `parse_json`'s rules. */
  private def toVariant(node: JsonNode, b: VariantValueBuilder, w: ColumnWriter): Unit = {
    b.clear()
    tree(node, b)
    b.writeTo(w)
  }

  private def tree(node: JsonNode, b: VariantValueBuilder): Unit =
    if (node.isObject) {
      b.startObject()
      val fields = node.fields()
      while (fields.hasNext) {
        val e = fields.next()
        b.key(e.getKey)
        tree(e.getValue, b)
      }
      b.endObject()
    } else if (node.isArray) {
      b.startArray()
      val elements = node.elements()
      while (elements.hasNext) { b.element(); tree(elements.next(), b) }
      b.endArray()
    } else if (node.isTextual) b.appendString(node.textValue)
    else if (node.isIntegralNumber && node.canConvertToLong) b.appendLong(node.longValue)
    else if (node.isNumber) b.appendNumber(node.asText, node.doubleValue)
    else if (node.isBoolean) b.appendBoolean(node.booleanValue)
    else b.appendNull()
}
