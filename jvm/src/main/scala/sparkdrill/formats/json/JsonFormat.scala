package sparkdrill.formats.json

import org.apache.spark.sql.types.StructType

import sparkdrill.reader.{
  BatchReader,
  CommonOptions,
  DiscoveryContext,
  FormatPlugin,
  OptionSpec,
  ReaderOptions,
  SchemaNegotiator
}
import sparkdrill.reader.OptionKind.{Bool, Int64}

/** JSON: a stream of objects (one per line, or spanning lines, or concatenated), or one root array of them.
  * Top-level values that are not objects (`1`, `"a"`, `[1, 2]`) are records of one column, `value` (SPEC 2).
  * A file is read whole: a record may span lines, so a byte range cannot tell where one starts.
  */
private[sparkdrill] final class JsonFormat extends FormatPlugin {
  val name: String = "json"
  val suffixes: Seq[String] = Seq("json", "jsonl", "ndjson")
  override def options: Seq[OptionSpec[_]] = JsonOptions.all
  def splittable(options: ReaderOptions): Boolean = false
  def sampleRows(options: ReaderOptions): Int = CommonOptions.sampleLimit(options)
  // singleVariantColumn: a record's members are its VARIANT's, so a JSON file names no column and is not
  // opened to find any.
  override def knownSchema(options: ReaderOptions): Option[StructType] =
    options.get(CommonOptions.SingleVariantColumn).map(_ => new StructType())
  override def discover(context: DiscoveryContext): StructType = new JsonDiscovery(context).schema
  def newReader(negotiator: SchemaNegotiator): BatchReader = new JsonBatchReader(negotiator)
}

private[sparkdrill] object JsonFormat {

  /** The column of top-level values that are not objects. */
  val ValueColumn: String = "value"
}

/** The options of JSON (docs/options.md, JSON). */
private[sparkdrill] object JsonOptions {
  val AllTextMode: OptionSpec[Boolean] = OptionSpec(
    "allTextMode",
    Bool,
    false,
    "every scalar is a string holding the token's text",
    Seq("primitivesAsString")
  )
  val ReadNumbersAsDouble: OptionSpec[Boolean] =
    OptionSpec("readNumbersAsDouble", Bool, false, "every number is a double")
  // A record is held whole while it is read (to quote it, or to start again after it when it is broken):
  // the bound keeps one huge record from exhausting the heap.
  val MaxRecordBytes: OptionSpec[Long] = OptionSpec(
    "maxRecordBytes",
    Int64,
    128L << 20,
    "a larger record fails the read in every mode, naming its file, line and offset"
  )

  val all: Seq[OptionSpec[_]] = Seq(AllTextMode, ReadNumbersAsDouble, MaxRecordBytes)
}
