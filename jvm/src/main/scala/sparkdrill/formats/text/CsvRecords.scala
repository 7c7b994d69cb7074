package sparkdrill.formats.text

import org.apache.spark.sql.types.{ArrayType, StringType, StructField, StructType}

import sparkdrill.errors.DrillErrors
import sparkdrill.reader.{ErrorClasses, FieldRecords, FieldUse, RecordColumns, SchemaNegotiator}

/** One delimited text file (or split) as the record-reader template's records ([[sparkdrill.reader.RecordReader]]),
  * in one of three layouts ([[TextLayout]]): with `header=true` each file's fields are named by its own
  * header, so column order may differ between files; without one, fields bind by position to the schema the
  * scan hands over (a provided schema), or go into the `columns` array.
  *
  * Records are [[CsvParser]]'s, read in place in its buffer where they can be; a record whose quote is
  * never closed is malformed. What is a split's own: a split that starts inside the file begins at the first
  * record start after its first byte, and stops before the first record that starts at or after the next
  * split's beginning (found the same way); no split's records start before the end of the header, which the
  * first split reads wherever it ends.
  */
private[sparkdrill] final class CsvRecords(negotiator: SchemaNegotiator, settings: CsvSettings)
    extends FieldRecords {
  private val file = negotiator.file
  // A range of a bzip2 file reads its own stream: lines and offsets in it are not the file's.
  private val blocks = file.blockRange.orNull
  private val errors =
    if (blocks == null) negotiator.errorContext else negotiator.errorContext.withoutPositions
  // Declared first: where a split's records start depends on it (a header may end past the split's start).
  private val layout = TextLayout.of(settings, negotiator)
  private val recordStart: Long =
    if (file.isFirstSplit || blocks != null) 0L else math.max(boundary(file.start), headerEnd)
  private val endBoundary: Long =
    if (file.end == Long.MaxValue || blocks != null) Long.MaxValue
    else math.max(boundary(file.end), headerEnd)
  // Refused before any record: a range may hold none, and the query must fail the same either way.
  if (
    blocks != null &&
    negotiator.definedSchema
      .exists(s => s.fieldNames.exists(n => n == RecordColumns.Line || n == RecordColumns.Offset))
  ) throw DrillErrors.internal(s"${file.path}: _line and _offset cannot be read from a range of a bzip2 file")
  private val input = file.open(recordStart)
  private val parser = new CsvParser(input, settings, recordStart, firstLineNumber())

  override val schema: StructType = readSchema()
  val names: IndexedSeq[String] =
    if (layout == TextLayout.ColumnsArray) Vector() else schema.fieldNames.toIndexedSeq
  override def arrayColumn: Option[String] =
    if (layout == TextLayout.ColumnsArray) Some(CsvRecords.ColumnsName) else None

  // Counting only: a record's end is found, its fields not cut.
  private var skips = false

  override def plan(use: FieldUse): Unit = {
    skips = !use.fields
    parser.captureRaw = use.text
    use.only.foreach(keep => parser.keep = keep)
  }

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

  def line: Long =
    if (blocks != null) -1L
    else if (linesCounted) parser.recordLine
    else parser.recordLine + linesBeforeSplit
  def offset: Long = if (blocks != null) -1L else parser.recordOffset

  private def readSchema(): StructType = {
    // A bzip2 range's first line belongs to the range before (its block may start mid-record).
    if (blocks != null && !file.isFirstSplit) parser.skipLine()
    if (settings.skipFirstLine && file.isFirstSplit) parser.skipLine()
    layout match {
      case TextLayout.Positional(schema) => schema
      case TextLayout.ColumnsArray => CsvRecords.ColumnsSchema
      // A split past the first has the header discovery read.
      case TextLayout.Header if !file.isFirstSplit => negotiator.fileSchema.getOrElse(new StructType())
      case TextLayout.Header => TextHeader.read(parser, errors)
    }
  }

  def next(): Boolean = {
    val endOfLast = parser.position
    val found = if (skips) parser.skipNext() else parser.next()
    if (!found || parser.recordOffset >= endBoundary || pastBlockRange()) {
      checkBoundary(endOfLast)
      false
    } else true
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

  def split(): Option[String] = if (parser.unterminatedQuote) CsvRecords.Unclosed else None

  def count: Int = parser.fieldCount
  def bytes: Array[Byte] = parser.bytes
  def start(i: Int): Int = parser.start(i)
  def length(i: Int): Int = parser.fieldLength(i)
  override def quotes: Boolean = true
  override def quoted(i: Int): Boolean = parser.quoted(i)

  // The record as it stood in the file where the corrupt-record column reads it, else its fields.
  def text: String = if (parser.captureRaw) parser.rawRecord else parser.recordText

  def close(): Unit = input.close()
}

private[sparkdrill] object CsvRecords {
  val ColumnsName = "columns"

  val ColumnsSchema: StructType =
    StructType(Seq(StructField(ColumnsName, ArrayType(StringType, containsNull = false), nullable = true)))

  private val Unclosed = Some(TextHeader.UnclosedQuote)
}
