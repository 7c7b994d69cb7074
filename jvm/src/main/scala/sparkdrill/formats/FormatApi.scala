package sparkdrill.formats

import java.io.InputStream

import org.apache.spark.sql.types.StructType

import sparkdrill.loader.{ProjectionFilter, ResultSetLoader}

/** One file (or a byte range of one) as a format reader sees it. The stream is opened by the scan through
  * Hadoop's FileSystem (decompressed when the file has a codec suffix) and closed by the scan.
  */
trait FileInput {

  /** The file's full path as the user sees it (`/data/a.csv`, `s3a://b/a.csv`). */
  def path: String

  /** The readable bytes from `offset` (by default `start`); closed by the scan. */
  def open(offset: Long = start): InputStream

  /** A second, independent stream of the raw bytes from `offset`, for readers that look just outside their
    * split (uncompressed files only); the caller closes it.
    */
  def openAt(offset: Long): InputStream

  /** First byte of this split in the (uncompressed) file. */
  def start: Long

  /** First byte after this split; `Long.MaxValue` when the reader reads to the end of the file. */
  def end: Long
  def isFirstSplit: Boolean = start == 0L

  /** Set for a byte range of a block-compressed file (bzip2) read in parallel; see [[BlockRange]]. */
  def blockRange: Option[BlockRange] = None
}

/** A byte range of a block-compressed file: its stream starts at the first compression block that begins in
  * the range and runs to the end of the file. Offsets the reader sees count bytes of that stream, so line
  * numbers and file offsets are unknown. A record belongs to the range in which its first byte's block
  * begins, with the rule of the reader's format at block edges (text: a range skips its first line).
  */
trait BlockRange {

  /** The stream offset of the first byte of the next range's first block, or -1 while the stream has not
    * reached it (or there is no next range).
    */
  def nextRangeStart: Long
}

/** Names where an error happened: the scan adds the file; a reader adds line, offset, column and value. */
final case class ErrorContext(path: String, positionsKnown: Boolean = true) {
  def error(
      message: String,
      line: Long = -1,
      offset: Long = -1,
      column: String = null,
      value: String = null,
      option: String = null
  ): ScanException =
    if (positionsKnown)
      new ScanException(message, path, line, offset, Option(column), Option(value), Option(option))
    else new ScanException(message, path, -1, -1, Option(column), Option(value), Option(option))

  /** The same context for a reader that cannot tell lines and offsets (a range of a bzip2 file). */
  def withoutPositions: ErrorContext = copy(positionsKnown = false)
}

/** A bad-input error a user can act on: it names the file, line, byte offset, column, a shortened value and
  * the option that changes the outcome.
  */
final class ScanException(
    val reason: String,
    val path: String,
    val line: Long,
    val offset: Long,
    val column: Option[String],
    val value: Option[String],
    val option: Option[String]
) extends RuntimeException(ScanException.format(reason, path, line, offset, column, value, option))

object ScanException {
  val MaxValueChars = 80

  /** A value as an error quotes it: line ends and tabs escaped (the message stays one line), and cut short. */
  def shorten(value: String): String = {
    val oneLine = value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    if (oneLine.length <= MaxValueChars) oneLine
    else oneLine.take(MaxValueChars) + s"... (${value.length} chars)"
  }

  def format(
      reason: String,
      path: String,
      line: Long,
      offset: Long,
      column: Option[String],
      value: Option[String],
      option: Option[String]
  ): String = {
    val where = new StringBuilder(s"file $path")
    if (line >= 0) where.append(s", line $line")
    if (offset >= 0) where.append(s", byte offset $offset")
    column.foreach(c => where.append(s", column '$c'"))
    value.foreach(v => where.append(s", value '${shorten(v)}'"))
    val hint = option.map(o => s" ($o)").getOrElse("")
    s"spark-drill: $reason: $where$hint"
  }
}

/** What a format reader is told about the scan, and how it gets its loader. */
trait SchemaNegotiator {
  def file: FileInput

  /** Reader options (SPEC names, case-insensitive keys). */
  def options: ReaderOptions

  /** The columns the scan needs from every file, with their types; `None` while discovering a schema. */
  def definedSchema: Option[StructType]

  /** This file's own schema as discovery found it (a text header), for splits that start past it. */
  def fileSchema: Option[StructType]

  /** Every column of the table (all files), when reading; a value for a column outside it has nowhere to go
    * (dropped or rescued), while one for a column only not read by this query is simply skipped.
    */
  def tableSchema: Option[StructType] = None

  /** Which columns the query reads: the reader skips parsing the others. */
  def projection: ProjectionFilter
  def errorContext: ErrorContext

  /** Discovery only: stop after the early schema (header) when true, else read up to `sampleRows` rows. */
  def headerOnly: Boolean

  /** Creates the loader (once). `readerSchema` declares the columns known up front (early schema). */
  def build(readerSchema: StructType): ResultSetLoader

  /** Counts a value the reader had to drop (an extra field with nowhere to go). */
  def countDropped(n: Long): Unit
}

/** A reader that finds its file's schema in the data (JSON): discovery asks it for what it sampled. */
trait SchemaSampler {
  def sampledSchema: StructType
}

/** Reads one file (or split) into the loader's writers. */
trait BatchReader extends AutoCloseable {

  /** Writes rows until the loader is full or the input ends; returns false when no rows remain. */
  def next(): Boolean
}

/** A format: its name, suffixes and reader. Registered in [[Formats]]. */
trait FormatPlugin extends Serializable {
  def name: String
  def suffixes: Seq[String]

  /** Whether discovery samples the data (JSON) rather than reading only an early schema (a text header). */
  def discoversFromData: Boolean = false

  /** Whether an uncompressed file of this format may be split by byte range. */
  def splittable(options: ReaderOptions): Boolean
  def newReader(negotiator: SchemaNegotiator): BatchReader
}
