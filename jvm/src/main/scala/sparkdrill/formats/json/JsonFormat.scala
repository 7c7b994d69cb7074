package sparkdrill.formats.json

import sparkdrill.formats.{BatchReader, FormatPlugin, ReaderOptions, SchemaNegotiator}

/** JSON: a stream of objects (one per line, or spanning lines, or concatenated), or one root array of them.
  * Top-level values that are not objects (`1`, `"a"`, `[1, 2]`) are records of one column, `value` (SPEC 2).
  * A file is read whole: a record may span lines, so a byte range cannot tell where one starts.
  */
object JsonFormat extends FormatPlugin {

  /** The column of top-level values that are not objects. */
  val ValueColumn: String = "value"

  val name: String = "json"
  val suffixes: Seq[String] = Seq("json", "jsonl", "ndjson")
  def splittable(options: ReaderOptions): Boolean = false
  override def discoversFromData: Boolean = true
  def newReader(negotiator: SchemaNegotiator): BatchReader = new JsonBatchReader(negotiator)
}
