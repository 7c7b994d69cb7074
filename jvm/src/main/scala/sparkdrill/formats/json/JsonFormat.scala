package sparkdrill.formats.json

import sparkdrill.reader.{
  BatchReader,
  CommonOptions,
  FormatPlugin,
  OptionSpec,
  ReaderOptions,
  SchemaNegotiator
}
import sparkdrill.reader.OptionKind.Bool

/** JSON: a stream of objects (one per line, or spanning lines, or concatenated), or one root array of them.
  * Top-level values that are not objects (`1`, `"a"`, `[1, 2]`) are records of one column, `value` (SPEC 2).
  * A file is read whole: a record may span lines, so a byte range cannot tell where one starts.
  */
final class JsonFormat extends FormatPlugin {
  val name: String = "json"
  val suffixes: Seq[String] = Seq("json", "jsonl", "ndjson")
  override def options: Seq[OptionSpec[_]] = JsonOptions.all
  def splittable(options: ReaderOptions): Boolean = false
  def sampleRows(options: ReaderOptions): Int = CommonOptions.sampleLimit(options)
  def newReader(negotiator: SchemaNegotiator): BatchReader = new JsonBatchReader(negotiator)
}

object JsonFormat {

  /** The column of top-level values that are not objects. */
  val ValueColumn: String = "value"
}

/** The options of JSON (docs/options.md, JSON). */
object JsonOptions {
  val AllTextMode: OptionSpec[Boolean] = OptionSpec(
    "allTextMode",
    Bool,
    false,
    "every scalar is a string holding the token's text",
    Seq("primitivesAsString")
  )
  val ReadNumbersAsDouble: OptionSpec[Boolean] =
    OptionSpec("readNumbersAsDouble", Bool, false, "every number is a double")

  val all: Seq[OptionSpec[_]] = Seq(AllTextMode, ReadNumbersAsDouble)
}
