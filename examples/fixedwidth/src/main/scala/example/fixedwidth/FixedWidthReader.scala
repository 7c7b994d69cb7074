package example.fixedwidth

import java.io.{BufferedReader, InputStreamReader}
import java.nio.charset.StandardCharsets

import scala.util.Try

import org.apache.spark.sql.types._

import sparkdrill.loader.{ColumnWriter, RowWriter}
import sparkdrill.reader._

/** Reads one `.fwf` file: each line cut into the columns of the option `widths`, text past the last column
  * into the late column `rest`. The whole reader is this file (the part a format's author writes).
  */
final class FixedWidthReader(negotiator: SchemaNegotiator) extends BatchReader {
  private val options = negotiator.options
  private val errors = negotiator.errorContext
  private val layout = Layout.parse(
    options
      .get(FixedWidthFormat.Widths)
      .getOrElse(throw errors.error("the fixedwidth format needs the option widths", option = "widths"))
  )
  private val lines =
    new BufferedReader(new InputStreamReader(negotiator.file.open(), StandardCharsets.UTF_8))
  private val declared = StructType(layout.columns.map { case (n, _) => StructField(n, StringType) })
  private val loader = negotiator.build(negotiator.definedSchema.getOrElse(declared))
  private val writer: RowWriter = loader.writer
  private val discovering = negotiator.definedSchema.isEmpty
  private val fields: Seq[ColumnWriter] = layout.columns.map { case (n, _) => writer.find(n).orNull }
  private val lineWriter = writer.find(RecordColumns.Line).orNull
  private val bad = new BadRecords(options, writer)
  private var lineNumber = 0L
  private var done = negotiator.headerOnly

  def next(): Boolean = {
    while (!done && !writer.isFull) {
      val line = lines.readLine()
      lineNumber += 1
      if (line == null) done = true
      else if (line.nonEmpty) record(line)
    }
    !done
  }

  private def record(line: String): Unit = {
    writer.start()
    if (lineWriter != null) lineWriter.setLong(lineNumber)
    if (line.length < layout.width)
      malformed(line, s"the line has ${line.length} of ${layout.width} characters")
    else if (write(line)) writer.save()
  }

  /** Writes the fields; false when the record was dropped. */
  private def write(line: String): Boolean = {
    var at = 0
    var ok = true
    layout.columns.zip(fields).foreach { case ((name, width), w) =>
      val text = line.substring(at, at + width).trim
      at += width
      if (ok && w != null && CommonOptions.converts(w, options) && !convert(w, text))
        ok = conversionFailed(line, name, w, text)
    }
    val rest = line.substring(at).trim
    if (ok && rest.nonEmpty) {
      val target =
        if (discovering) writer.addColumn(StructField(FixedWidthFormat.Rest, StringType))
        else writer.find(FixedWidthFormat.Rest).orNull
      if (target == null) negotiator.countDropped(1) else if (target.isProjected) target.setString(rest)
    }
    ok
  }

  private def convert(w: ColumnWriter, text: String): Boolean =
    if (text.isEmpty) { w.setNull(); true }
    else
      w.dataType match {
        case StringType => w.setString(text); true
        case IntegerType => Try(text.toInt).toOption.exists { v => w.setInt(v); true }
        case LongType => Try(text.toLong).toOption.exists { v => w.setLong(v); true }
        case DoubleType => Try(text.toDouble).toOption.exists { v => w.setDouble(v); true }
        case other =>
          throw errors.error(
            s"the fixedwidth format cannot write ${other.simpleString}",
            column = w.field.name
          )
      }

  private def conversionFailed(line: String, name: String, w: ColumnWriter, text: String): Boolean = {
    val keep = bad.badValue(
      errors.error(
        s"cannot convert the value to ${w.dataType.simpleString}",
        line = lineNumber,
        column = name,
        value = text,
        option = ParseMode.advice(bad.mode)
      )
    )
    if (keep) { w.setNull(); bad.keepRaw(line) }
    keep
  }

  private def malformed(line: String, reason: String): Unit =
    bad.brokenRecord(
      errors.error(
        s"malformed record: $reason",
        line = lineNumber,
        value = line,
        option = ParseMode.advice(bad.mode)
      ),
      line
    )(if (lineWriter != null) lineWriter.setLong(lineNumber))

  def close(): Unit = lines.close()
}
