package sparkdrill.formats.json

import org.apache.spark.sql.types.StructType

import sparkdrill.reader.{
  BatchReader,
  DiscoveryContext,
  FormatPlugin,
  OptionSpec,
  ReaderOptions,
  SchemaNegotiator
}

/** JSON read by Jackson alone (`format=jackson-json`): the reader every JSON file had before the byte reader,
  * which the byte reader must match exactly (ByteReaderDifferentialSuite). Registered through the test
  * resources' `META-INF/services`; it has no suffix of its own.
  */
final class JacksonJsonFormat extends FormatPlugin {
  private val json = new JsonFormat
  val name: String = JacksonJsonFormat.Name
  val suffixes: Seq[String] = Nil
  override def options: Seq[OptionSpec[_]] = json.options
  def splittable(options: ReaderOptions): Boolean = json.splittable(options)
  def sampleRows(options: ReaderOptions): Int = json.sampleRows(options)
  override def knownSchema(options: ReaderOptions): Option[StructType] = json.knownSchema(options)
  override def discover(context: DiscoveryContext): StructType = json.discover(context) // Jackson's already
  def newReader(negotiator: SchemaNegotiator): BatchReader =
    new JsonBatchReader(negotiator, readsBytes = false)
}

object JacksonJsonFormat {
  val Name = "jackson-json"
}
