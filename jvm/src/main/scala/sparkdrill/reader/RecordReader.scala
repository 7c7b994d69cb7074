package sparkdrill.reader

import org.apache.spark.sql.types.{StringType, StructField, StructType}

import sparkdrill.loader.{ColumnWriter, RowWriter}
import sparkdrill.errors.DrillErrors

/** The record-reader template (docs/formats.md, "Writing a format"): reads a format's [[FieldRecords]] into
  * the loader and owns every per-record duty, so that a format written on it has them all:
  *  - fields bind to the table's columns by name; each is converted from text by its column's type
  *    ([[TextConverter]]: `providedSchema`, `inferTypes`, `format.<column>`, `nullValue`), and only when the
  *    query reads it or `validate=all` asks;
  *  - a malformed record or an unconvertible value is handled per `mode` ([[BadRecords]]), its text capped
  *    by `maxRecordTextBytes` in the corrupt-record column;
  *  - values with no column (extra fields, fields the table lacks, values that did not convert) go to the
  *    rescued-data column as JSON, or are dropped and counted;
  *  - an absent field is null, or a NOT NULL column's DEFAULT or zero;
  *  - `_line` and `_offset`; the pushed row filter, judged on its columns before the others are converted;
  *  - a count reads no field at all (`split` is not called) when nothing needs one.
  * Batch and byte limits (the loader's `isFull` and overflow row) and split boundaries (the format's records,
  * [[LineSplit]] for line formats) complete the loop. Discovery reads the same records: every field a string
  * column, sampled for `inferTypes`.
  */
final class RecordReader(negotiator: SchemaNegotiator, records: FieldRecords) extends BatchReader {
  private val options = negotiator.options
  private val errors = negotiator.errorContext
  private val discovering = negotiator.definedSchema.isEmpty
  private val names = records.names
  private val readerSchema = StructType(names.map(StructField(_, StringType, nullable = true)))
  private val writer: RowWriter = negotiator.build(readerSchema).writer
  private val bad = new BadRecords(options, writer)
  private val rescued = new RescuedData(options, writer, errors.path)
  private val fields = new BoundFields(negotiator, writer, names, bad, rescued)
  private val rowFilter: BoundRowFilter = fields.rowFilter
  private val converters: Array[TextConverter] = fields.converters
  // The filter's fields are converted first; `others` are the rest (null at a filter field).
  private val filterFields: Array[Int] = fields.filterFields
  private val others: Array[TextConverter] = fields.others
  private val lineWriter: ColumnWriter = writer.find(RecordColumns.Line).orNull
  private val offsetWriter: ColumnWriter = writer.find(RecordColumns.Offset).orNull
  private val sheetWriter: ColumnWriter = writer.find(RecordColumns.Sheet).orNull
  private val fieldText: Int => String = i =>
    if (i >= records.count || records.start(i) < 0) null
    else
      new String(records.bytes, records.start(i), records.length(i), java.nio.charset.StandardCharsets.UTF_8)
  // singleVariantColumn (SPEC 14): each record one VARIANT object of its fields.
  private val variantFields: FieldsAsVariant =
    options
      .get(CommonOptions.SingleVariantColumn)
      .flatMap(writer.find)
      .filter(_.isProjected)
      .map(new FieldsAsVariant(options, names, _))
      .orNull
  // A count, or a query of hidden columns only: no field is cut or converted, so a record is never malformed
  // unless a mode must judge it (PERMISSIVE keeps a malformed record as a row anyway).
  private val countOnly =
    !fields.anyConverted && variantFields == null && bad.corrupt == null && !rescued.enabled &&
      bad.mode == ParseMode.Permissive && !discovering
  private var done = false

  def next(): Boolean = {
    while (!done && !writer.isFull)
      if (!records.next()) done = true
      else writeRecord()
    !done
  }

  private def writeRecord(): Unit = {
    // A range of a bzip2 file knows neither; a format without byte offsets (a workbook) knows lines only.
    if ((records.line < 0 && lineWriter != null) || (records.offset < 0 && offsetWriter != null))
      throw DrillErrors.internal(
        if (records.line < 0) s"${errors.path}: _line and _offset cannot be read from a range of a bzip2 file"
        else s"${errors.path}: _offset cannot be read: this format's records have no byte offset"
      )
    if (countOnly) { writer.start(); writeImplicit(); writer.save(); return }
    val malformed = records.split()
    if (malformed != null)
      bad.brokenRecord(
        where(errors).error(
          s"malformed record: $malformed",
          line = records.line,
          offset = records.offset,
          value = records.text,
          option = ParseMode.advice(bad.mode)
        ),
        records.text
      )(writeImplicit())
    else {
      writer.start()
      writeImplicit()
      if (variantFields != null) { writeVariant(); writer.save() }
      else if (writeFields()) writer.save()
    }
  }

  private def where(context: ErrorContext): ErrorContext =
    if (records.line < 0) context.withoutPositions else context

  private def writeImplicit(): Unit = {
    if (lineWriter != null) lineWriter.setLong(records.line)
    if (offsetWriter != null) offsetWriter.setLong(records.offset)
    if (sheetWriter != null) records.sheet.foreach(sheetWriter.setString)
  }

  /** Writes the fields; false when the record was dropped (DROPMALFORMED, or rejected by the row filter). */
  private def writeFields(): Boolean = {
    val bytes = records.bytes
    var badValue = false
    fields.startRecord()
    if (rowFilter != null) {
      // A record that fails the filter is not converted further: a bad value in its other fields is never
      // seen (as for an unprojected column). Its row is left unsaved; the next start() discards it.
      rowFilter.reset()
      var k = 0
      while (k < filterFields.length) {
        val f = filterFields(k)
        if (!write(converters(f), f, bytes)) {
          if (!conversionFailed(f)) return false
          badValue = true
        }
        k += 1
      }
      if (!rowFilter.passes()) {
        negotiator.countFiltered(1)
        return false
      }
    }
    var i = 0
    while (i < others.length) {
      val c = others(i)
      if (c != null && !write(c, i, bytes)) {
        if (!conversionFailed(i)) return false
        badValue = true
      }
      i += 1
    }
    val extras = writeExtras(bytes)
    if (rescued.enabled) rescue()
    else if (extras > 0) negotiator.countDropped(extras.toLong)
    if (badValue) bad.keepRaw(records.text)
    true
  }

  private def write(c: TextConverter, i: Int, bytes: Array[Byte]): Boolean = {
    val at = records.start(i)
    if (at < 0 || i >= records.count) { c.writeMissing(); true }
    else c.write(bytes, at, records.length(i))
  }

  private def writeVariant(): Unit = {
    variantFields.start()
    var i = 0
    while (i < records.count) {
      if (records.start(i) >= 0)
        variantFields.field(i, records.bytes, records.start(i), records.length(i), records.typeOf(i))
      i += 1
    }
    variantFields.finish()
  }

  /** Fields past [[FieldRecords.names]]: written to their late column where the format names one, else
    * returned as the count of extras (rescued or dropped).
    */
  private def writeExtras(bytes: Array[Byte]): Int = {
    var extras = 0
    var i = names.length
    while (i < records.count) {
      if (records.start(i) >= 0) records.extraColumn(i) match {
        case Some(column) =>
          val target =
            if (discovering) writer.addColumn(StructField(column, StringType, nullable = true))
            else writer.find(column).orNull
          if (target == null) extras += 1
          else if (target.isProjected) target.setBytes(bytes, records.start(i), records.length(i))
        case None => extras += 1
      }
      i += 1
    }
    extras
  }

  /** Applies the mode to an unconvertible value; false when the record is dropped. */
  private def conversionFailed(i: Int): Boolean =
    fields.failed(i, where(errors), records.line, records.offset, fieldText(i))

  /** The rescued-data column: what [[BoundFields.rescue]] keeps, and extras (by their late column when the
    * table lacks it, else `column_N`, N 1-based).
    */
  private def rescue(): Unit =
    fields.rescue(fieldText, records.line) {
      records.keptAside(rescued.put)
      var i = names.length
      while (i < records.count) {
        if (records.start(i) >= 0 && records.extraColumn(i).forall(c => writer.find(c).isEmpty))
          rescued.put(records.extraColumn(i).getOrElse(s"column_${i + 1}"), fieldText(i))
        i += 1
      }
    }

  def close(): Unit = records.close()
}
