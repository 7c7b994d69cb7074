package sparkdrill.reader

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.ObjectNode

import sparkdrill.loader.{ColumnWriter, RowWriter}

/** The rescued-data column (`rescuedDataColumn`) of one reader: a record's values that have no column (fields
  * past a header, columns the table lacks, values that did not convert, JSON keys after discovery), kept as a
  * JSON object with the record's `_file` and `_line` and capped by `maxRecordTextBytes`. One place for every
  * format, so the column reads alike whatever wrote it.
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
    column.setString(CommonOptions.capText(json.toString, options))
  }

  private def obj(): ObjectNode = {
    if (json == null) json = RescuedData.mapper.createObjectNode()
    json
  }
}

private object RescuedData {
  private val mapper = new ObjectMapper()
}
