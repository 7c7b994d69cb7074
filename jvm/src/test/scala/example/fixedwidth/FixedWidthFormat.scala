package example.fixedwidth

import java.io.{BufferedReader, InputStreamReader}
import java.nio.charset.StandardCharsets

import scala.util.Try

import org.apache.spark.sql.types._

import sparkdrill.loader.{ColumnWriter, RowWriter}
import sparkdrill.reader._

/** A format written on the reader SPI alone, the way a third party would write one in its own jar: fixed-width
  * lines (`.fwf`), columns laid out by the option `fixedWidths` (`id:3,name:6`). Text past the last column is
  * a late column `rest`, found by discovery while it samples. Registered through
  * `META-INF/services/sparkdrill.reader.FormatPlugin` in the test resources; nothing in the scan or the Spark
  * adapter names it.
  */
final class FixedWidthFormat extends FormatPlugin {
  def name: String = "fixed"
  def suffixes: Seq[String] = Seq("fwf")
  override def options: Seq[OptionSpec[_]] = Seq(FixedWidthFormat.Widths)

  override def validate(options: ReaderOptions): Unit =
    options.get(FixedWidthFormat.Widths).foreach(Layout.parse)

  // Discovery samples lines, since the late column `rest` shows only in the data.
  def sampleRows(options: ReaderOptions): Int = CommonOptions.sampleLimit(options)
  def splittable(options: ReaderOptions): Boolean = false
  def newReader(negotiator: SchemaNegotiator): BatchReader = new FixedWidthReader(negotiator)
}

object FixedWidthFormat {
  val Widths: OptionSpec[String] =
    OptionSpec.optional("fixedWidths", OptionKind.Text, "fixed-width layout: name:width, ... (test format)")
  val Rest = "rest"
}

/** Column names and widths. */
final case class Layout(columns: Seq[(String, Int)]) {
  def width: Int = columns.map(_._2).sum
}

object Layout {
  def parse(text: String): Layout = Layout(text.split(',').toSeq.map { part =>
    part.split(':') match {
      case Array(n, w) if Try(w.trim.toInt).toOption.exists(_ > 0) => n.trim -> w.trim.toInt
      case _ => throw new IllegalArgumentException(s"option 'fixedWidths': '$part' is not name:width")
    }
  })
}

final class FixedWidthReader(negotiator: SchemaNegotiator) extends BatchReader {
  private val options = negotiator.options
  private val errors = negotiator.errorContext
  private val layout = Layout.parse(
    options
      .get(FixedWidthFormat.Widths)
      .getOrElse(throw errors.error("the fixed format needs the option fixedWidths", option = "fixedWidths"))
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
          throw errors.error(s"the fixed format cannot write ${other.simpleString}", column = w.field.name)
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
