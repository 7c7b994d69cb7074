package example.fixedwidth

import scala.util.Try

import sparkdrill.reader._

/** A format written on the record-reader template alone, the way a third party writes one in its own jar: fixed-width
  * lines (`.fwf`, or any file with `format=fixedwidth`), columns laid out by the option `widths`
  * (`3,5` or `id:3,name:6`). Text past the last column is a late column `rest`, found by discovery while it
  * samples. Registered by this jar's `META-INF/services/sparkdrill.reader.FormatPlugin`: it is built as a
  * jar of its own and reaches a session through `spark.jars`, and nothing in spark-drill names it.
  */
final class FixedWidthFormat extends TextFieldFormat {
  def name: String = "fixedwidth"
  def suffixes: Seq[String] = Seq("fwf")
  def formatOptions: Seq[OptionSpec[_]] = Seq(FixedWidthFormat.Widths)

  override def validate(options: ReaderOptions): Unit =
    options.get(FixedWidthFormat.Widths).foreach(Layout.parse)

  // Discovery samples lines, since the late column `rest` shows only in the data.
  def sampleRows(options: ReaderOptions): Int = CommonOptions.sampleLimit(options)
  def splittable(options: ReaderOptions): Boolean = true

  def newReader(negotiator: SchemaNegotiator): BatchReader = {
    val layout = Layout.parse(
      negotiator.options
        .get(FixedWidthFormat.Widths)
        .getOrElse(
          throw negotiator.errorContext
            .error("the fixedwidth format needs the option widths", option = "widths")
        )
    )
    new RecordReader(negotiator, new FixedWidthRecords(negotiator.file, layout))
  }
}

object FixedWidthFormat {
  val Widths: OptionSpec[String] =
    OptionSpec.optional(
      "widths",
      OptionKind.Text,
      "fixedwidth: the columns' widths, width or name:width each (3,5 or id:3,name:5; a bare width is _c<i>)"
    )
  val Rest = "rest"
}

/** Column names and widths. */
final case class Layout(columns: Seq[(String, Int)]) {
  def width: Int = columns.map(_._2).sum
}

object Layout {

  /** `3,5` or `id:3,name:5`, mixed as needed: a column without a name is `_c<position>`, as Spark's CSV
    * names headerless columns.
    */
  def parse(text: String): Layout = Layout(text.split(',').toSeq.zipWithIndex.map { case (part, i) =>
    part.split(':') match {
      case Array(w) if positive(w) => s"_c$i" -> w.trim.toInt
      case Array(n, w) if n.trim.nonEmpty && positive(w) => n.trim -> w.trim.toInt
      case _ => throw new IllegalArgumentException(s"option 'widths': '$part' is not width or name:width")
    }
  })

  private def positive(w: String): Boolean = Try(w.trim.toInt).toOption.exists(_ > 0)
}
