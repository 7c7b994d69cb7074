package sparkdrill.reader

import org.apache.spark.sql.types.StructType

/** What discovery of one file gives its format ([[FormatPlugin.discover]], SPEC 5). */
trait DiscoveryContext {

  /** The file, from its start. */
  def file: FileInput

  def options: ReaderOptions

  /** Names the file in an error. */
  def errorContext: ErrorContext

  /** How many records to sample ([[FormatPlugin.sampleRows]]; 0: none, only the early schema). */
  def sampleRows: Int

  /** Discovery through the format's own reader, for a format whose reader declares its columns (a text
    * header): the declared columns, each string column typed by [[FormatPlugin.inferType]] from up to
    * [[sampleRows]] records the reader reads into a loader of them.
    */
  def throughReader(): StructType
}
