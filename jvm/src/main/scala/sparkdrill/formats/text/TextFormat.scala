package sparkdrill.formats.text

import org.apache.spark.sql.types.{DataType, StructType}

import sparkdrill.reader.{
  BatchReader,
  DiscoveryContext,
  FormatPlugin,
  OptionSpec,
  PrefixOptionSpec,
  ReaderOptions,
  RecordReader,
  SchemaNegotiator,
  TextTypeInference,
  TextValueOptions
}

/** Delimited text: csv (`,`), tsv (tab), psv (`|`); `delimiter` and friends override the defaults. */
private[sparkdrill] abstract class TextFormat(val name: String, val suffixes: Seq[String])
    extends FormatPlugin {
  override def options: Seq[OptionSpec[_]] = TextOptions.all
  override def prefixOptions: Seq[PrefixOptionSpec] = Seq(TextOptions.ColumnFormat)

  // A split guesses that its first record starts after the first line end it sees; the reader of the split
  // before checks the guess and fails the query when a quoted line end made it wrong. multiLine=true reads
  // such files whole instead.
  def splittable(options: ReaderOptions): Boolean = !options(TextOptions.MultiLine)

  def sampleRows(options: ReaderOptions): Int =
    TextValueOptions.sampleRows(options)

  override def bindsByPosition(options: ReaderOptions): Boolean = !options(TextOptions.Header)

  override def inferType(samples: Iterator[String], options: ReaderOptions): DataType =
    TextTypeInference.infer(samples)

  // A header (and a sample for inferTypes) is read by discovery's own code, not by a mode of the reader.
  override def discover(context: DiscoveryContext): StructType =
    TextDiscovery.schemaOf(context, CsvSettings.from(name, context.options), this)

  def newReader(negotiator: SchemaNegotiator): BatchReader =
    new RecordReader(negotiator, new CsvRecords(negotiator, CsvSettings.from(name, negotiator.options)))
}

private[sparkdrill] final class CsvFormat extends TextFormat("csv", Seq("csv"))
private[sparkdrill] final class TsvFormat extends TextFormat("tsv", Seq("tsv"))
private[sparkdrill] final class PsvFormat extends TextFormat("psv", Seq("psv"))
