package sparkdrill.formats.text

import sparkdrill.formats.{BatchReader, FormatPlugin, ReaderOptions, SchemaNegotiator}

/** Delimited text: csv (`,`), tsv (tab), psv (`|`); `delimiter` and friends override the defaults. */
final class TextFormat(val name: String, val suffixes: Seq[String]) extends FormatPlugin {
  // Quoted fields may hold line ends, so a split could start inside one: files are split only when the
  // user says their quoted fields never hold line ends (the scan decides with this answer).
  def splittable(options: ReaderOptions): Boolean = true

  def newReader(negotiator: SchemaNegotiator): BatchReader =
    new TextBatchReader(negotiator, CsvSettings.from(name, negotiator.options))
}

object TextFormat {
  val Csv = new TextFormat("csv", Seq("csv"))
  val Tsv = new TextFormat("tsv", Seq("tsv"))
  val Psv = new TextFormat("psv", Seq("psv"))
  val all: Seq[TextFormat] = Seq(Csv, Tsv, Psv)
}
