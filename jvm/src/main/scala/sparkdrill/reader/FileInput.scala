package sparkdrill.reader

import java.io.InputStream

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
