package sparkdrill.formats.text

import org.apache.spark.sql.types.{ArrayType, StringType, StructField, StructType}

import sparkdrill.reader.{
  BadRecords,
  BatchReader,
  BoundFields,
  BoundRowFilter,
  CommonOptions,
  ErrorClasses,
  FieldsAsVariant,
  ParseMode,
  RecordColumns,
  RescuedData,
  SchemaNegotiator,
  TextConverter
}
import sparkdrill.loader.{ColumnWriter, RowWriter}
import sparkdrill.errors.DrillErrors

/** Reads one delimited text file (or split) into the loader, in one of three layouts ([[TextLayout]]): with
  * `header=true` each file by its own header, so column order may differ between files; without one, fields
  * bind by position to the schema the scan hands over (a provided schema), or go into the `columns` array.
  *
  * Only projected columns are converted; a record with an unclosed quote is malformed and an unconvertible
  * value is an error in its column, both handled per `mode` (SPEC 6). With a pushed row filter, the filter's
  * columns are converted first, and the others only for records that may pass it.
  */
private[sparkdrill] final class TextBatchReader(negotiator: SchemaNegotiator, settings: CsvSettings)
    extends BatchReader {
  private val file = negotiator.file
  // A range of a bzip2 file reads its own stream: lines and offsets in it are not the file's.
  private val blocks = file.blockRange.orNull
  private val errors =
    if (blocks == null) negotiator.errorContext else negotiator.errorContext.withoutPositions
  private val options = negotiator.options
  private def mode = bad.mode
  // Declared first: where a split's records start depends on it (a header may end past the split's start).
  private val layout = TextLayout.of(settings, negotiator)
  // Fields bind to columns (by header name or by position), rather than filling the `columns` array.
  private val bindsFields = layout != TextLayout.ColumnsArray
  // A split that starts inside the file begins at the first line start after its first byte; it stops
  // before the first record that starts at or after the next split's beginning, found the same way.
  // No split's records start before the end of the header, which the first split reads wherever it ends.
  private val recordStart: Long =
    if (file.isFirstSplit || blocks != null) 0L else math.max(boundary(file.start), headerEnd)
  private val endBoundary: Long =
    if (file.end == Long.MaxValue || blocks != null) Long.MaxValue
    else math.max(boundary(file.end), headerEnd)
  private val input = file.open(recordStart)
  private val parser = new CsvParser(input, settings, recordStart, firstLineNumber())
  private var done = false

  private val readerSchema: StructType = readSchema()
  private val writer: RowWriter = negotiator.build(readerSchema).writer
  private val bad = new BadRecords(options, writer)
  private val corruptWriter: ColumnWriter = bad.corrupt
  private val rescued = new RescuedData(options, writer, errors.path)
  // Fields bound to columns (by header name or by position), with the row filter (late materialization,
  // issue 15), conversion failures and rescued values; none in the `columns` array layout.
  private val fields =
    new BoundFields(
      negotiator,
      writer,
      if (bindsFields) readerSchema.fieldNames.toIndexedSeq else Vector(),
      bad,
      rescued
    )
  private val rowFilter: BoundRowFilter = fields.rowFilter
  private val converters: Array[TextConverter] = fields.converters
  // The fields of the filter's columns, converted first; `others` are the rest (null at a filter field).
  private val filterFields: Array[Int] = fields.filterFields
  private val others: Array[TextConverter] = fields.others
  private val columnsWriter: ColumnWriter =
    if (bindsFields) null
    else writer.find(TextBatchReader.ColumnsName).filter(_.isProjected).orNull
  private val lineWriter: ColumnWriter = writer.find(RecordColumns.Line).orNull
  private val offsetWriter: ColumnWriter = writer.find(RecordColumns.Offset).orNull
  // Field i's text, null past the record's last field (for the rescued-data column).
  private val fieldText: Int => String = i => if (i < parser.fieldCount) parser.field(i) else null
  // singleVariantColumn (SPEC 14): each record one VARIANT object of its fields, by the header's names.
  private val variantFields: FieldsAsVariant =
    options
      .get(CommonOptions.SingleVariantColumn)
      .flatMap(writer.find)
      .filter(_.isProjected)
      .map(
        new FieldsAsVariant(options, if (bindsFields) readerSchema.fieldNames.toIndexedSeq else Vector(), _)
      )
      .orNull
  private val anyConverted =
    fields.anyConverted || columnsWriter != null || rescued.enabled || variantFields != null
  // `columns[n]`: only the listed elements are kept; the others are empty strings up to the largest index.
  private val columnsIndexes: Array[Boolean] =
    negotiator.requestedElements(TextBatchReader.ColumnsName) match {
      case None => null
      case Some(ix) =>
        val keep = new Array[Boolean](ix.max + 1)
        ix.foreach(keep(_) = true)
        keep
    }
  parser.captureRaw = corruptWriter != null
  // Typed or string columns bound by position: the bytes of the other fields need not be copied, unless
  // they can appear in a message or a column (a failing record's text, rescued fields).
  if (
    converters.nonEmpty && columnsWriter == null && !rescued.enabled && corruptWriter == null &&
    mode != ParseMode.FailFast
  ) parser.keep = converters.map(_ != null)
  // Nothing to convert or keep: records are only counted (a record with an unclosed quote still counts
  // as malformed), so their bytes need not be copied.
  private val countOnly = !anyConverted && corruptWriter == null && mode != ParseMode.FailFast

  if (blocks != null && (lineWriter != null || offsetWriter != null))
    throw DrillErrors.internal(
      s"${file.path}: _line and _offset cannot be read from a range of a bzip2 file"
    )

  /** Where the header line ends, for a split of a file with a header (0 otherwise): it is the first record,
    * after any blank or comment lines, so it may end past the first split's end.
    */
  private lazy val headerEnd: Long =
    if (layout != TextLayout.Header || blocks != null) 0L
    else {
      val in = file.openAt(0L)
      try {
        val header = new CsvParser(in, settings, 0L, 1L)
        if (settings.skipFirstLine) header.skipLine()
        if (header.next()) header.position else 0L
      } finally in.close()
    }

  private def boundary(offset: Long): Long = {
    val in = file.openAt(offset - 1)
    try SplitBoundary.recordStart(in, offset, settings)
    finally in.close()
  }

  // Counting lines costs a read of the file up to the split, so the parser counts from the split's true first
  // line only when `_line` is asked for. Otherwise it counts from 1, and an error or a rescued record (rare)
  // adds the line ends before the split, counted once when first needed: a message names the file's line.
  private lazy val linesCounted: Boolean =
    recordStart == 0L || negotiator.definedSchema.exists(_.fieldNames.contains(RecordColumns.Line))
  private def firstLineNumber(): Long = if (linesCounted) linesBeforeSplit + 1 else 1L
  private lazy val linesBeforeSplit: Long =
    if (recordStart == 0L) 0L
    else {
      val in = file.openAt(0L)
      try LineCounter.lineEndsBefore(in, recordStart, settings)
      finally in.close()
    }

  /** The current record's line in the file. */
  private def recordLine: Long = if (linesCounted) parser.recordLine else parser.recordLine + linesBeforeSplit

  private def readSchema(): StructType = {
    // A bzip2 range's first line belongs to the range before (its block may start mid-record).
    if (blocks != null && !file.isFirstSplit) parser.skipLine()
    if (settings.skipFirstLine && file.isFirstSplit) parser.skipLine()
    layout match {
      case TextLayout.Positional(schema) => schema
      case TextLayout.ColumnsArray => TextBatchReader.ColumnsSchema
      // A split past the first has the header discovery read.
      case TextLayout.Header if !file.isFirstSplit => negotiator.fileSchema.getOrElse(new StructType())
      case TextLayout.Header => TextHeader.read(parser, errors)
    }
  }

  def next(): Boolean = {
    if (done) return false
    while (!writer.isFull) {
      val endOfLast = parser.position
      val found = if (countOnly) parser.skipNext() else parser.next()
      if (!found || parser.recordOffset >= endBoundary || pastBlockRange()) {
        checkBoundary(endOfLast)
        done = true
        return false
      }
      writeRecord()
    }
    true
  }

  // The next split began reading at `endBoundary`, taking it for a record start. It was one unless the last
  // record of this split runs past it: then a quoted field holds a line end there, and the next split read
  // from the middle of a field. Fail rather than return its rows.
  private def checkBoundary(endOfLast: Long): Unit =
    if (endBoundary != Long.MaxValue && endOfLast > endBoundary)
      throw errors.error(
        "a quoted field holds a line end where the file was split for parallel reading",
        offset = endBoundary,
        option = "set the option multiLine=true to read files with quoted line ends whole",
        kind = ErrorClasses.SplitBoundary
      )

  // In a bzip2 range, the records up to the one holding the next range's first byte are this range's: the
  // next range skips its first line, up to the first line end it sees. That is the end of the record
  // holding its first byte unless a quoted field puts a line end in between; then fail, as above.
  private def pastBlockRange(): Boolean =
    blocks != null && {
      val next = blocks.nextRangeStart
      if (next < 0 || parser.recordOffset > next) next >= 0
      else if (parser.quotedLineEnd >= next)
        throw errors.error(
          "a quoted field holds a line end where the bzip2 file was split for parallel reading",
          option = "set the option multiLine=true to read files with quoted line ends whole",
          kind = ErrorClasses.SplitBoundary
        )
      else false
    }

  private def writeRecord(): Unit = {
    if (parser.unterminatedQuote) { malformedRecord(); return }
    writer.start()
    writeImplicit()
    if (anyConverted) {
      if (variantFields != null) writeVariant()
      else if (columnsWriter != null) writeColumnsArray()
      else if (!writeFields()) return // dropped or rejected
    }
    writer.save()
  }

  private def writeImplicit(): Unit = {
    if (lineWriter != null) lineWriter.setLong(parser.recordLine)
    if (offsetWriter != null) offsetWriter.setLong(parser.recordOffset)
  }

  /** A record that cannot be parsed: per mode, all nulls (with its raw text), dropped, or an error. */
  private def malformedRecord(): Unit =
    bad.brokenRecord(TextHeader.unclosedQuote(parser, errors, recordLine, mode), parser.rawRecord)(
      writeImplicit()
    )

  /** Writes the fields; false when the record was dropped (DROPMALFORMED, or rejected by the row filter). */
  private def writeFields(): Boolean = {
    val n = parser.fieldCount
    val bound = converters.length
    val bytes = parser.bytes
    var badValue = false
    fields.startRecord()
    if (rowFilter != null) {
      // The filter's fields first, a short row's missing ones included. A record that fails the filter is not
      // converted further, so a bad value in its other fields is never seen (as for an unprojected column).
      // Its row is left unsaved, as DROPMALFORMED leaves one: the next start() discards it.
      rowFilter.reset()
      var k = 0
      while (k < filterFields.length) {
        val f = filterFields(k)
        val c = converters(f)
        if (f >= n) c.writeMissing()
        else if (!c.writeField(bytes, parser.start(f), parser.fieldLength(f), parser.quoted(f))) {
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
    while (i < n && i < bound) {
      val c = others(i)
      if (c != null && !c.writeField(bytes, parser.start(i), parser.fieldLength(i), parser.quoted(i))) {
        if (!conversionFailed(i)) return false
        badValue = true
      }
      i += 1
    }
    while (i < bound) { // a short row: the fields it lacks
      val c = others(i)
      if (c != null) c.writeMissing()
      i += 1
    }
    val extra = n > bound && bound > 0
    if (rescued.enabled) rescue(if (extra) bound else n, n)
    else if (extra) negotiator.countDropped((n - bound).toLong)
    if (badValue) bad.keepRaw(parser.rawRecord)
    true
  }

  /** Applies the mode to an unconvertible value; false when the record is dropped. */
  private def conversionFailed(i: Int): Boolean =
    fields.failed(i, errors, recordLine, parser.recordOffset, parser.field(i))

  /** The rescued-data column: what [[BoundFields.rescue]] keeps, and the fields past the header (`from` to
    * `until`, keyed by `column_N`, N 1-based).
    */
  private def rescue(from: Int, until: Int): Unit =
    fields.rescue(fieldText, if (blocks == null) recordLine else -1L) {
      (from until until).foreach(i => rescued.put(s"column_${i + 1}", parser.field(i)))
    }

  private def writeVariant(): Unit = {
    variantFields.start()
    var i = 0
    while (i < parser.fieldCount) {
      variantFields.field(i, parser.bytes, parser.start(i), parser.fieldLength(i), parser.quoted(i))
      i += 1
    }
    variantFields.finish()
  }

  private def writeColumnsArray(): Unit = {
    val array = columnsWriter.array
    val element = array.element
    val bytes = parser.bytes
    val n =
      if (columnsIndexes == null) parser.fieldCount else math.min(parser.fieldCount, columnsIndexes.length)
    var i = 0
    while (i < n) {
      if (columnsIndexes == null || columnsIndexes(i))
        element.setBytes(bytes, parser.start(i), parser.fieldLength(i))
      else element.setBytes(bytes, 0, 0)
      array.save()
      i += 1
    }
  }

  def close(): Unit = input.close()
}

private[sparkdrill] object TextBatchReader {
  val ColumnsName = "columns"

  val ColumnsSchema: StructType =
    StructType(Seq(StructField(ColumnsName, ArrayType(StringType, containsNull = false), nullable = true)))
}
