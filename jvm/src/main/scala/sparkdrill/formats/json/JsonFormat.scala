package sparkdrill.formats.json

import sparkdrill.formats.{BatchReader, FormatPlugin, ReaderOptions, SchemaNegotiator}

/** JSON: a stream of objects (one per line, or spanning lines, or concatenated), or one root array of them.
  * A file is read whole: a record may span lines, so a byte range cannot tell where one starts.
  */
object JsonFormat extends FormatPlugin {
  val name: String = "json"
  val suffixes: Seq[String] = Seq("json", "jsonl", "ndjson")
  def splittable(options: ReaderOptions): Boolean = false
  override def discoversFromData: Boolean = true
  def newReader(negotiator: SchemaNegotiator): BatchReader = new JsonBatchReader(negotiator)
}
