package sparkdrill.reader

import java.io.InputStream

/** The lines of one split, for formats whose record is one line (log files, fixed-width text): the framework
  * owns where a split's lines start and stop, their numbers and byte offsets. A line ends at `\n`, `\r\n` or
  * `\r`; its text excludes the end.
  *
  * Byte-range splits: a split that starts inside the file begins at the first line that starts at or after
  * its first byte, and reads every line that starts before its end, so each line is read by exactly one
  * split. A range of a bzip2 file cannot tell offsets: it skips its first line (the range before reads it)
  * and stops after the line holding the next range's first byte, as delimited text does.
  */
final class LineSplit(file: FileInput, skipBlank: Boolean) extends AutoCloseable {
  private val blocks = file.blockRange.orNull
  // A bzip2 range's stream starts at its first block (offsets count from there); a split inside an
  // uncompressed file reads from the byte before its first, to see whether a line starts exactly there.
  private val opened: Long = if (blocks != null) 0L else if (file.isFirstSplit) file.start else file.start - 1
  private val in: InputStream = file.open(opened)
  private var buf = new Array[Byte](1 << 16)
  private var filled = 0 // bytes of `buf` read from the stream
  private var at = 0 // next unread byte of `buf`
  private var bufOffset = opened
  private var eof = false
  private val end = if (blocks != null) Long.MaxValue else file.end

  /** The current line: its bytes are `bytes(start until start + length)`. */
  var bytes: Array[Byte] = buf
  var start = 0
  var length = 0

  /** The current line's 1-based number in the file, or -1 where lines cannot be told (a bzip2 range). In a
    * split inside the file, the line ends before it are counted once, when a line is first asked for (by
    * `_line`, an error or a rescued record): a query that needs none reads nothing before its split.
    */
  def line: Long = if (blocks != null) -1L else linesBefore + lineInSplit

  private var lineInSplit = 0L // the current line's number counted from the split's first line (1)

  /** The current line's byte offset in the (uncompressed) file, or -1 in a bzip2 range. */
  var offset: Long = 0L

  // Where the next line starts: a split inside the file drops the partial line it starts in.
  private var nextOffset: Long =
    if (file.isFirstSplit) opened
    else { skipLine(); bufOffset + at }
  private val firstLine = nextOffset
  private lazy val linesBefore: Long = if (firstLine == 0L) 0L else LineSplit.lineEndsBefore(file, firstLine)

  /** Moves to the next line of this split (past blank ones when asked); false when none remain. */
  def next(): Boolean = {
    while (true) {
      if (!readLine()) return false
      if (!skipBlank || length > 0) return true
    }
    false
  }

  private def readLine(): Boolean = {
    if (nextOffset >= end || pastBlockRange()) return false
    if (at >= filled && !fill()) return false
    val lineStart = nextOffset
    var i = at
    var found = -1
    while (found < 0)
      if (i >= filled) {
        val shift = at
        if (!fill()) found = filled // the last line has no end
        else i -= shift
      } else {
        val b = buf(i)
        if (b == '\n' || b == '\r') found = i else i += 1
      }
    bytes = buf
    start = at
    length = found - at
    var after = found
    if (found < filled) {
      after += 1
      if (buf(found) == '\r') {
        if (after >= filled) { val shift = at; if (fill()) { after -= shift; start -= shift } }
        if (after < filled && buf(after) == '\n') after += 1
      }
    }
    bytes = buf
    offset = if (blocks != null) -1L else lineStart
    lineInSplit += 1
    nextOffset = lineStart + (after - at)
    at = after
    true
  }

  // In a bzip2 range, lines up to the one holding the next range's first byte are this range's.
  private def pastBlockRange(): Boolean = blocks != null && {
    val next = blocks.nextRangeStart
    next >= 0 && nextOffset > next
  }

  /** Reads more of the stream, keeping the unread bytes from `at` (moved to the front); false at the end. */
  private def fill(): Boolean = {
    if (eof) return false
    if (at > 0) {
      System.arraycopy(buf, at, buf, 0, filled - at)
      bufOffset += at
      filled -= at
      at = 0
    }
    if (filled == buf.length)
      buf = java.util.Arrays.copyOf(buf, buf.length * 2) // a line longer than the buffer
    val n = in.read(buf, filled, buf.length - filled)
    if (n < 0) { eof = true; false }
    else { filled += n; true }
  }

  /** Skips to the start of the next line (the rest of a partial one). */
  private def skipLine(): Unit =
    while (true) {
      if (at >= filled && !fill()) return
      val b = buf(at)
      at += 1
      if (b == '\n') return
      if (b == '\r') {
        if (at < filled || fill()) { if (buf(at) == '\n') at += 1 }
        return
      }
    }

  /** The current line as text (UTF-8). */
  def text: String = new String(bytes, start, length, java.nio.charset.StandardCharsets.UTF_8)

  def close(): Unit = in.close()
}

private object LineSplit {

  /** Line ends before `upTo` (a line start): what a split inside the file adds to its line numbers. Read only
    * when the query asks for `_line`.
    */
  def lineEndsBefore(file: FileInput, upTo: Long): Long = {
    val in = file.openAt(0L)
    try {
      val buf = new Array[Byte](1 << 16)
      var position = 0L
      var count = 0L
      var lastCr = false
      while (position < upTo) {
        val n = in.read(buf, 0, math.min(buf.length.toLong, upTo - position).toInt)
        if (n < 0) return count
        var i = 0
        while (i < n) {
          val b = buf(i)
          if (b == '\n') { if (!lastCr) count += 1 }
          else if (b == '\r') count += 1
          lastCr = b == '\r'
          i += 1
        }
        position += n
      }
      count
    } finally in.close()
  }
}
