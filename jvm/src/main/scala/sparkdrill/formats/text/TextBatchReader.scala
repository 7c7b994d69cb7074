package sparkdrill.formats.text

import org.apache.spark.sql.types.{ArrayType, StringType, StructField, StructType}

import sparkdrill.formats.{BatchReader, RecordColumns, SchemaNegotiator}
import sparkdrill.loader.{ColumnWriter, RowWriter}

/** Reads one delimited text file (or split) into the loader. With `header=true` each file is read by its own
  * header, so column order may differ between files; without one, fields go into the `columns` array.
  */
final class TextBatchReader(negotiator: SchemaNegotiator, settings: CsvSettings) extends BatchReader {
  private val file = negotiator.file
  private val errors = negotiator.errorContext
  // A split that starts inside the file begins at the first line start after its first byte; it stops
  // before the first record that starts at or after the next split's beginning, found the same way.
  private val recordStart: Long = if (file.isFirstSplit) 0L else boundary(file.start)
  private val endBoundary: Long = if (file.end == Long.MaxValue) Long.MaxValue else boundary(file.end)
  private val input = file.open(recordStart)
  private val parser = new CsvParser(input, settings, recordStart, firstLineNumber())
  private var done = false

  private val readerSchema: StructType = readSchema()
  private val loader = negotiator.build(readerSchema)
  private val writer: RowWriter = loader.writer
  private val fieldWriters: Array[ColumnWriter] = bindFields()
  private val columnsWriter: ColumnWriter =
    if (settings.header) null else writer.find(TextBatchReader.ColumnsName).filter(_.isProjected).orNull
  private val lineWriter: ColumnWriter = writer.find(RecordColumns.Line).orNull
  private val offsetWriter: ColumnWriter = writer.find(RecordColumns.Offset).orNull
  private val anyProjected = fieldWriters.exists(_ != null) || columnsWriter != null

  if (negotiator.headerOnly) done = true

  private def boundary(offset: Long): Long = {
    val in = file.openAt(offset - 1)
    try SplitBoundary.recordStart(in, offset, settings)
    finally in.close()
  }

  // Counting lines costs a read of the file up to the split, so it is done only when `_line` is asked for.
  private def firstLineNumber(): Long =
    if (recordStart == 0L || !negotiator.definedSchema.exists(_.fieldNames.contains(RecordColumns.Line))) 1L
    else {
      val in = file.openAt(0L)
      try LineCounter.lineEndsBefore(in, recordStart, settings) + 1
      finally in.close()
    }

  private def readSchema(): StructType = {
    if (settings.skipFirstLine && file.isFirstSplit) parser.skipLine()
    if (!settings.header) TextBatchReader.ColumnsSchema
    else if (!file.isFirstSplit) negotiator.fileSchema.getOrElse(new StructType())
    else if (!parser.next()) new StructType() // an empty file has no header and no rows
    else {
      if (parser.unterminatedQuote)
        throw errors.error(
          "unterminated quote in the header line",
          line = parser.recordLine,
          offset = parser.recordOffset
        )
      val names = HeaderNames.clean(parser.fields)
      StructType(names.map(StructField(_, StringType, nullable = true)))
    }
  }

  private def bindFields(): Array[ColumnWriter] =
    if (!settings.header) Array.empty
    else
      readerSchema.fields.map { f =>
        writer.find(f.name) match {
          case Some(w) if w.isProjected => w
          case _ => null
        }
      }

  def next(): Boolean = {
    if (done) return false
    while (!writer.isFull) {
      val endOfLast = parser.position
      if (!parser.next() || parser.recordOffset >= endBoundary) {
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
        option = "set the option multiLine=true to read files with quoted line ends whole"
      )

  private def writeRecord(): Unit = {
    if (parser.unterminatedQuote)
      throw errors.error(
        "unterminated quoted field",
        line = parser.recordLine,
        offset = parser.recordOffset,
        value = parser.recordText
      )
    writer.start()
    if (lineWriter != null) lineWriter.setLong(parser.recordLine)
    if (offsetWriter != null) offsetWriter.setLong(parser.recordOffset)
    if (anyProjected) {
      if (columnsWriter != null) writeColumnsArray()
      else writeFields()
    }
    writer.save()
  }

  private def writeFields(): Unit = {
    val n = parser.fieldCount
    val bound = fieldWriters.length
    val bytes = parser.bytes
    var i = 0
    while (i < n && i < bound) {
      val w = fieldWriters(i)
      if (w != null) w.setBytes(bytes, parser.start(i), parser.fieldLength(i))
      i += 1
    }
    if (n > bound && bound > 0) negotiator.countDropped(n - bound)
  }

  private def writeColumnsArray(): Unit = {
    val array = columnsWriter.array
    val element = array.element
    val bytes = parser.bytes
    val n = parser.fieldCount
    var i = 0
    while (i < n) {
      element.setBytes(bytes, parser.start(i), parser.fieldLength(i))
      array.save()
      i += 1
    }
  }

  def close(): Unit = input.close()
}

object TextBatchReader {
  val ColumnsName = "columns"
  val ColumnsSchema: StructType =
    StructType(Seq(StructField(ColumnsName, ArrayType(StringType, containsNull = false), nullable = true)))
}
