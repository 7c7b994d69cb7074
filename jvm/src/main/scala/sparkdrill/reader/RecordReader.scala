package sparkdrill.reader

import org.apache.spark.sql.types.{ArrayType, StringType, StructField, StructType}

import sparkdrill.loader.{ColumnWriter, RowWriter}

/** The record-reader template (docs/formats.md, "Writing a format"): reads a format's [[FieldRecords]] into
  * the loader, every record through the one [[RowSink]], and owns every per-record duty, so that a format
  * written on it has them all:
  *  - fields bind to the table's columns by name (or by position, or as one array column: the format's
  *    [[FieldRecords.schema]] and [[FieldRecords.arrayColumn]]); each is converted from text by its column's
  *    type ([[TextConverter]]: `providedSchema`, `inferTypes`, `format.<column>`, `nullValue`), and only when
  *    the query reads it or `validate=all` asks;
  *  - a malformed record or an unconvertible value is handled per `mode` ([[BadRecords]]), its text capped
  *    by `maxRecordTextBytes` in the corrupt-record column;
  *  - values with no column (extra fields, fields the table lacks, values that did not convert) go to the
  *    rescued-data column as JSON, or are dropped and counted; a stream whose schema evolves stops at a
  *    field whose late column the table lacks;
  *  - an absent field is null, or a NOT NULL column's DEFAULT or zero;
  *  - `_line`, `_offset` and `sheet`; the pushed row filter, judged on its columns before the others are
  *    converted;
  *  - a count cuts no record into fields (`split` is not called) when nothing needs one.
  * Batch and byte limits (the loader's `isFull` and overflow row) and split boundaries (the format's records,
  * [[LineSplit]] for line formats) complete the loop. Discovery reads the same records: every field a string
  * column, sampled for `inferTypes`.
  */
final class RecordReader(negotiator: SchemaNegotiator, records: FieldRecords) extends BatchReader {
  private val options = negotiator.options
  private val discovering = negotiator.definedSchema.isEmpty
  private val names = records.names
  private val readerSchema: StructType = records.arrayColumn match {
    case Some(column) => StructType(Seq(StructField(column, ArrayType(StringType, containsNull = false))))
    case None => records.schema
  }
  private val writer: RowWriter = negotiator.build(readerSchema).writer
  private val sink = new RowSink(negotiator, writer, records)
  private val bad = sink.bad
  private val rescued = sink.rescued
  private val fields = new BoundFields(negotiator, writer, names, bad, rescued)
  private val rowFilter: BoundRowFilter = fields.rowFilter
  // The filter's fields are converted first, then the others read.
  private val filterFields: Array[Int] = fields.filterFields
  private val filterConverters: Array[TextConverter] = fields.filterConverters
  private val readFields: Array[Int] = fields.readFields
  private val readConverters: Array[TextConverter] = fields.readConverters
  private val fieldText: Int => String = i =>
    if (i >= records.count || records.start(i) < 0) null
    else
      new String(records.bytes, records.start(i), records.length(i), java.nio.charset.StandardCharsets.UTF_8)
  // singleVariantColumn (SPEC 14): each record one VARIANT object of its fields.
  private val variantFields: Option[FieldsAsVariant] =
    options
      .get(CommonOptions.SingleVariantColumn)
      .flatMap(writer.find)
      .filter(_.isProjected)
      .map(new FieldsAsVariant(options, names, _))
  // A format without names: every field into one array column, of which the query may read some elements.
  private val fieldArray: Option[FieldArray] =
    records.arrayColumn.flatMap(c =>
      writer.find(c).filter(_.isProjected).map(new FieldArray(_, negotiator, c))
    )
  private val cutsFields =
    fields.anyConverted || variantFields.isDefined || fieldArray.isDefined || rescued.enabled || discovering
  // A count, or a query of hidden columns only: no record is cut into fields unless a mode must judge it or
  // its text is read (PERMISSIVE keeps a malformed record as a row anyway).
  private val countOnly = !cutsFields && bad.corrupt == null && bad.mode == ParseMode.Permissive
  records.plan(
    FieldUse(
      // A record is judged whole (malformed or not) without its fields, unless something reads them: a
      // column, or a message or the corrupt-record column naming the record's text.
      fields = cutsFields || bad.corrupt != null || bad.mode == ParseMode.FailFast,
      // Only the converted fields' bytes, unless any other may be read: by a message about the record, a
      // column of all of them, or the rescued-data column.
      only =
        if (
          fields.anyConverted && variantFields.isEmpty && fieldArray.isEmpty && !rescued.enabled &&
          bad.corrupt == null && bad.mode != ParseMode.FailFast && !discovering
        ) Some(fields.converted)
        else None,
      text = bad.corrupt != null
    )
  )
  private val quotes = records.quotes
  private var done = false

  def next(): Boolean = {
    while (!done && !writer.isFull)
      if (!records.next()) done = true
      else writeRecord()
    !done
  }

  private def writeRecord(): Unit = {
    if (countOnly) { sink.start(); sink.save(0); return }
    records.split() match {
      case Some(why) =>
        sink.broken(
          sink.errorsHere.error(
            s"malformed record: $why",
            line = records.line,
            offset = records.offset,
            value = records.text,
            option = ParseMode.advice(bad.mode)
          ),
          records.text
        )
      case None =>
        sink.start()
        if (variantFields.isDefined) { writeVariant(variantFields.get); sink.save(0) }
        else if (fieldArray.isDefined) { fieldArray.get.write(records); sink.save(0) }
        else if (!cutsFields) sink.save(0)
        else writeFields()
    }
  }

  /** Writes the fields and saves the row, unless the record is dropped (DROPMALFORMED) or rejected by the
    * row filter.
    */
  private def writeFields(): Unit = {
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
        if (!write(filterConverters(k), f, bytes)) {
          if (!conversionFailed(f)) return
          badValue = true
        }
        k += 1
      }
      if (!rowFilter.passes()) { sink.rejected(); return }
    }
    var k = 0
    while (k < readFields.length) {
      val i = readFields(k)
      if (!write(readConverters(k), i, bytes)) {
        if (!conversionFailed(i)) return
        badValue = true
      }
      k += 1
    }
    val extras = if (records.count > names.length) writeExtras(bytes) else 0
    if (rescued.enabled) rescue()
    if (badValue) bad.keepRaw(records.text)
    sink.save(if (rescued.enabled) 0 else extras)
  }

  private def write(c: TextConverter, i: Int, bytes: Array[Byte]): Boolean =
    if (i >= records.count || records.start(i) < 0) { c.writeMissing(); true }
    else if (quotes) c.writeField(bytes, records.start(i), records.length(i), records.quoted(i))
    else c.write(bytes, records.start(i), records.length(i))

  private def writeVariant(variant: FieldsAsVariant): Unit = {
    variant.start()
    var i = 0
    while (i < records.count) {
      if (records.start(i) < 0) {} // absent: no member
      else if (quotes)
        variant.field(i, records.bytes, records.start(i), records.length(i), records.quoted(i))
      else variant.field(i, records.bytes, records.start(i), records.length(i), records.typeOf(i))
      i += 1
    }
    variant.finish()
  }

  /** Fields past [[FieldRecords.names]]: written to their late column where the format names one, else
    * returned as the count of extras (rescued or dropped). A late column the table lacks stops a stream
    * whose schema evolves.
    */
  private def writeExtras(bytes: Array[Byte]): Int = {
    var extras = 0
    var i = names.length
    while (i < records.count) {
      if (records.start(i) >= 0) records.extraColumn(i) match {
        case Some(column) =>
          val target =
            if (discovering) Some(writer.addColumn(StructField(column, StringType, nullable = true)))
            else writer.find(column)
          target match {
            case Some(w) => if (w.isProjected) w.setBytes(bytes, records.start(i), records.length(i))
            case None if negotiator.stopsOnLateColumns && !negotiator.isTableColumn(column) =>
              sink.late(StructType(Seq(StructField(column, StringType, nullable = true))))
            case None => extras += 1
          }
        case None => extras += 1
      }
      i += 1
    }
    extras
  }

  /** Applies the mode to an unconvertible value; false when the record is dropped. */
  private def conversionFailed(i: Int): Boolean =
    fields.failed(i, sink.errorsHere, records.line, records.offset, fieldText(i))

  /** The rescued-data column: what [[BoundFields.rescue]] keeps, and extras (by their late column when the
    * table lacks it, else `column_N`, N 1-based).
    */
  private def rescue(): Unit =
    fields.rescue(fieldText) {
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

/** A format's fields without names, each record's into one array of strings ([[FieldRecords.arrayColumn]]):
  * where the query reads only some elements (`columns[2]`), the others are empty strings up to the largest.
  */
private final class FieldArray(column: ColumnWriter, negotiator: SchemaNegotiator, name: String) {
  private val kept: Option[Array[Boolean]] = negotiator.requestedElements(name).map { ix =>
    val keep = new Array[Boolean](ix.max + 1)
    ix.foreach(keep(_) = true)
    keep
  }

  def write(records: FieldRecords): Unit = {
    // Asked of the column per row: asking begins the row's array (and its first element).
    val array = column.array
    val element = array.element
    val bytes = records.bytes
    val n = kept.fold(records.count)(k => math.min(records.count, k.length))
    var i = 0
    while (i < n) {
      if (kept.forall(_(i))) element.setBytes(bytes, records.start(i), records.length(i))
      else element.setBytes(bytes, 0, 0)
      array.save()
      i += 1
    }
  }
}
