package sparkdrill.formats.json

import java.io.InputStream

/** The input of a JSON parser, keeping the bytes since the current record began, so that after a syntax
  * error the reader can quote the broken record and start again at the next line. Offsets count bytes of
  * the underlying stream from its start.
  *
  * @param maxKept the most bytes of one record kept (beyond them, one more read-ahead); past it `tooLarge`
  *   is called with the offset of the first kept byte, and must throw
  */
private[sparkdrill] final class RecordTape(in: InputStream, maxKept: Long, tooLarge: Long => Nothing)
    extends InputStream {
  private var kept = new Array[Byte](1 << 16)
  private var keptFrom = 0L // stream offset of kept(0)
  private var keptLength = 0
  private var pending: Array[Byte] = Array.emptyByteArray // bytes to hand out again after a restart
  private var pendingPos = 0

  /** Stream offset of the next byte handed out. */
  def position: Long = keptFrom + keptLength - (pending.length - pendingPos)

  def read(): Int = {
    val one = new Array[Byte](1)
    if (read(one, 0, 1) < 0) -1 else one(0) & 0xff
  }

  override def read(b: Array[Byte], off: Int, len: Int): Int =
    if (pendingPos < pending.length) {
      val n = math.min(len, pending.length - pendingPos)
      System.arraycopy(pending, pendingPos, b, off, n)
      pendingPos += n
      n
    } else {
      val n = in.read(b, off, len)
      if (n > 0) keep(b, off, n)
      n
    }

  private def keep(b: Array[Byte], off: Int, n: Int): Unit = {
    // Jackson asks for more only once it has used all it has: what is kept is the current record so far.
    if (keptLength.toLong > maxKept) tooLarge(keptFrom)
    if (keptLength + n > kept.length)
      kept = java.util.Arrays.copyOf(kept, math.max(kept.length * 2, keptLength + n))
    System.arraycopy(b, off, kept, keptLength, n)
    keptLength += n
  }

  /** Forgets the bytes before stream offset `offset` (a record ended there). */
  def release(offset: Long): Unit = {
    val drop = math.min(keptLength.toLong, offset - keptFrom).toInt
    if (drop > 0) {
      System.arraycopy(kept, drop, kept, 0, keptLength - drop)
      keptLength -= drop
      keptFrom += drop
    }
  }

  /** The kept bytes from stream offset `from` to `until` (clipped to what is kept). */
  def slice(from: Long, until: Long): Array[Byte] = {
    val s = math.max(0L, from - keptFrom).toInt
    val e = math.min(keptLength.toLong, until - keptFrom).toInt
    if (e <= s) Array.emptyByteArray else java.util.Arrays.copyOfRange(kept, s, e)
  }

  /** The stream offset of the first line after `offset` whose first non-blank byte is `{` (where a record
    * plausibly starts), or with `values` the first byte of any JSON value (a file of top-level values that
    * are not objects), reading on as needed; -1 when there is none.
    */
  def nextRecordLine(offset: Long, values: Boolean = false): Long = {
    var at = offset
    var lineStart = -1L // the start of the line being looked at, once past the first line end
    while (true) {
      if (at >= keptFrom + keptLength && !readMore()) return -1L
      val b = kept((at - keptFrom).toInt)
      if (b == '\n') lineStart = at + 1
      else if (lineStart >= 0 && b != ' ' && b != '\t' && b != '\r') {
        if (b == '{' || (values && RecordTape.startsValue(b))) return lineStart
        lineStart = -1L
      }
      at += 1
    }
    -1L
  }

  /** The stream offset of the first byte at or after `offset` that is not a space, a tab or a line end, and
    * how many `\n` come before it; the end of the stream when there is none. Like `nextRecordLine`, it may
    * read bytes the parser has not seen: a new parser must start with `restartAt` after it.
    */
  def firstNonBlank(offset: Long): (Long, Int) = {
    var at = math.max(offset, keptFrom)
    var lines = 0
    while (at < keptFrom + keptLength || readMore()) {
      val b = kept((at - keptFrom).toInt)
      if (b == '\n') lines += 1
      else if (b != ' ' && b != '\t' && b != '\r') return (at, lines)
      at += 1
    }
    (at, lines)
  }

  private def readMore(): Boolean = {
    val buf = new Array[Byte](8192)
    val n = in.read(buf, 0, buf.length)
    if (n > 0) keep(buf, 0, n)
    n >= 0
  }

  /** Hands out the kept bytes from `offset` again, then the rest of the stream: a new parser starts there. */
  def restartAt(offset: Long): Unit = {
    release(offset)
    pending = java.util.Arrays.copyOfRange(kept, 0, keptLength) // still kept, so not kept twice
    pendingPos = 0
  }

  override def close(): Unit = in.close()
}

private[sparkdrill] object RecordTape {

  /** Whether a JSON value (other than an object) can start with this byte: `[`, a string, a number, `true`,
    * `false`, `null`, `NaN`, `Infinity`.
    */
  def startsValue(b: Byte): Boolean =
    b == '[' || b == '"' || b == '-' || (b >= '0' && b <= '9') || b == 't' || b == 'f' || b == 'n' ||
      b == 'N' || b == 'I'
}
