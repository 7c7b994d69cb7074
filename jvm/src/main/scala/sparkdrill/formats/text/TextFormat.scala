package sparkdrill.formats.text

import sparkdrill.formats.{BatchReader, FormatPlugin, ReaderOptions, SchemaNegotiator}

/** Delimited text: csv (`,`), tsv (tab), psv (`|`); `delimiter` and friends override the defaults. */
final class TextFormat(val name: String, val suffixes: Seq[String]) extends FormatPlugin {
  // A split guesses that its first record starts after the first line end it sees; the reader of the split
  // before checks the guess and fails the query when a quoted line end made it wrong. multiLine=true reads
  // such files whole instead.
  def splittable(options: ReaderOptions): Boolean = !options.boolean("multiLine", default = false)

  def newReader(negotiator: SchemaNegotiator): BatchReader =
    new TextBatchReader(negotiator, CsvSettings.from(name, negotiator.options))
}

object TextFormat {
  val Csv = new TextFormat("csv", Seq("csv"))
  val Tsv = new TextFormat("tsv", Seq("tsv"))
  val Psv = new TextFormat("psv", Seq("psv"))
  val all: Seq[TextFormat] = Seq(Csv, Tsv, Psv)
}
