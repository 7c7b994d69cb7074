package sparkdrill.reader

import org.apache.spark.sql.types.{DataType, StringType, StructType}

/** A format: its name, file suffixes, options and reader. The scan finds formats through
  * `java.util.ServiceLoader`: a format's jar lists its class in `META-INF/services/sparkdrill.reader.FormatPlugin`
  * (a public class with a no-argument constructor), and nothing above the reader contract names it.
  */
trait FormatPlugin extends Serializable {

  /** The `format` option's value for this format (lower case). */
  def name: String

  /** File suffixes (without the dot, lower case) read in this format when no `format` option is given. */
  def suffixes: Seq[String]

  /** Whether a file with one of [[suffixes]] is read in this format under these options when no `format`
    * option names one (log files need a pattern: without one a `.log` file is left out like any unknown suffix).
    */
  def claimsSuffix(options: ReaderOptions): Boolean = true

  /** The options this format reads beyond [[CommonOptions]]; they join the scan's option table. */
  def options: Seq[OptionSpec[_]] = Nil

  /** Option families this format reads (`format.<column>`). */
  def prefixOptions: Seq[PrefixOptionSpec] = Nil

  /** Checks combinations of options at planning (each value alone is checked by its [[OptionKind]]). */
  def validate(options: ReaderOptions): Unit = ()

  /** Checks made only when the `format` option names this format: options it cannot read without. */
  def validateNamed(options: ReaderOptions): Unit = ()

  /** The columns every file of this format has under these options, known without reading one (a log
    * pattern's groups), as the format's reader declares them; None (the default) when they come from each file
    * (a header, a sample). With [[sampleRows]] 0, discovery then opens no file: it is the format's schema.
    */
  def knownSchema(options: ReaderOptions): Option[StructType] = None

  /** The reader schema of one file: its columns as the format finds them (a header, a sample's members and
    * their types), read by the format's own code (JSON samples its records) or, by default, through its
    * reader ([[DiscoveryContext.throughReader]]). Columns seen only as null are `NullType`, to be typed by
    * another file. Not called when [[knownSchema]] gives the schema and [[sampleRows]] is 0.
    */
  def discover(context: DiscoveryContext): StructType = context.throughReader()

  /** Records discovery reads per file to type the columns: 0 reads only the early schema (a text header). */
  def sampleRows(options: ReaderOptions): Int

  /** Whether files of this format name no columns, so that a provided or defined schema binds to fields by
    * position, and without one the file is read as a single array column (headerless text's `columns`).
    */
  def bindsByPosition(options: ReaderOptions): Boolean = false

  /** The type of a column a sample saw only as strings (text's `inferTypes`); strings by default. */
  def inferType(samples: Iterator[String], options: ReaderOptions): DataType = StringType

  /** Whether an uncompressed file of this format may be split by byte range. */
  def splittable(options: ReaderOptions): Boolean

  def newReader(negotiator: SchemaNegotiator): BatchReader
}
