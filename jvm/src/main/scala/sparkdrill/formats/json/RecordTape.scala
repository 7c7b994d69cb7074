package sparkdrill.formats.json

import java.io.InputStream

/** The input of a JSON file's readers, keeping the bytes since the current record began, so that after a
  * syntax error the reader can quote the broken record and start again at the next line. Offsets count bytes
  * of the underlying stream from its start.
  *
  * It is read two ways: as an InputStream by Jackson's parsers, and directly ([[buffer]], [[fill]]) by the
  * byte reader ([[JsonCursor]]), which reads the kept bytes in place.
  *
  * @param maxKept the most bytes of one record kept (beyond them, one more read-ahead); past it `tooLarge`
  *   is called with the offset of the first kept byte, and must throw
  */
private[sparkdrill] final class RecordTape(in: InputStream, maxKept: Long, tooLarge: Long => Nothing)
    extends InputStream {
  private var kept = new Array[Byte](1 << 16)
  private var keptFrom = 0L // stream offset of kept(0)
  private var keptLength = 0
  // Bytes before this offset are released: they stay in `kept` until room is needed (moving what follows
  // to the front at each record's start cost a copy of the read-ahead per record).
  private var releasedTo = 0L
  private var pending: Array[Byte] = Array.emptyByteArray // bytes to hand out again after a restart
  private var pendingPos = 0

  /** Stream offset of the next byte handed out. */
  def position: Long = keptFrom + keptLength - (pending.length - pendingPos)

  /** The kept bytes, read in place: `buffer(i)` is the byte at stream offset `bufferOffset + i`, for `i` below
    * `bufferLength`. A [[fill]] may move them, or give a new array.
    */
  def buffer: Array[Byte] = kept
  def bufferOffset: Long = keptFrom
  def bufferLength: Int = keptLength

  /** Reads at least `atLeast` more bytes of the stream after the kept ones (fewer at its end), for the byte
    * reader; false at the end, when there were none to read.
    */
  def fill(atLeast: Int = RecordTape.FillBytes): Boolean = {
    roomFor(atLeast)
    val until = keptLength + atLeast
    var n = 0
    while (keptLength < until && n >= 0) {
      n = in.read(kept, keptLength, kept.length - keptLength)
      if (n > 0) keptLength += n
    }
    n >= 0 || keptLength > until - atLeast
  }

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
    roomFor(n)
    System.arraycopy(b, off, kept, keptLength, n)
    keptLength += n
  }

  /** Room for `n` more bytes after the kept ones: released bytes are dropped first, then the array grows. */
  private def roomFor(n: Int): Unit = {
    // Readers ask for more only once they have used all they have: what is kept is the current record so far.
    if (keptFrom + keptLength - releasedTo > maxKept) tooLarge(releasedTo)
    if (keptLength + n > kept.length) {
      val drop = (releasedTo - keptFrom).toInt
      if (drop > 0) {
        System.arraycopy(kept, drop, kept, 0, keptLength - drop)
        keptLength -= drop
        keptFrom += drop
      }
      if (keptLength + n > kept.length)
        kept = java.util.Arrays.copyOf(kept, math.max(kept.length * 2, keptLength + n))
    }
  }

  /** Forgets the bytes before stream offset `offset` (a record ended there). */
  def release(offset: Long): Unit =
    releasedTo = math.max(releasedTo, math.min(offset, keptFrom + keptLength))

  /** The kept bytes from stream offset `from` to `until` (clipped to what is kept). */
  def slice(from: Long, until: Long): Array[Byte] = {
    val s = (math.max(from, releasedTo) - keptFrom).toInt
    val e = math.min(keptLength.toLong, until - keptFrom).toInt
    if (e <= s) Array.emptyByteArray else java.util.Arrays.copyOfRange(kept, s, e)
  }

  /** The stream offset of the first line after `offset` whose first non-blank byte is `{` (where a record
    * plausibly starts), or with `values` the first byte of any JSON value (a file of top-level values that
    * are not objects), reading on as needed; -1 when there is none.
    */
  def nextRecordLine(offset: Long, values: Boolean = false): Long = {
    var at = math.max(offset, releasedTo)
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
    * how many line ends come before it (`\n`, `\r\n` and a lone `\r` are one each, as Jackson counts them);
    * the end of the stream when there is none. Like `nextRecordLine`, it may read bytes the parser has not
    * seen: a new parser must start with `restartAt` after it.
    */
  def firstNonBlank(offset: Long): (Long, Int) = {
    var at = math.max(offset, releasedTo)
    var lines = 0
    var afterReturn = false
    while (at < keptFrom + keptLength || readMore()) {
      val b = kept((at - keptFrom).toInt)
      if (b == '\n') { if (!afterReturn) lines += 1 }
      else if (b == '\r') lines += 1
      else if (b != ' ' && b != '\t') return (at, lines)
      afterReturn = b == '\r'
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
    // Still kept, so not kept twice.
    pending = java.util.Arrays.copyOfRange(kept, (releasedTo - keptFrom).toInt, keptLength)
    pendingPos = 0
  }

  override def close(): Unit = in.close()
}

private[sparkdrill] object RecordTape {

  /** How much the byte reader asks the stream for at a time. */
  val FillBytes: Int = 1 << 16

  /** The line ends in `bytes` as Jackson counts them: `\n`, `\r\n` and a lone `\r` are one each. */
  def lineEnds(bytes: Array[Byte]): Int = {
    var n = 0
    var i = 0
    while (i < bytes.length) {
      if (bytes(i) == '\n' || (bytes(i) == '\r' && (i + 1 == bytes.length || bytes(i + 1) != '\n'))) n += 1
      i += 1
    }
    n
  }

  /** Whether a JSON value (other than an object) can start with this byte: `[`, a string, a number, `true`,
    * `false`, `null`, `NaN`, `Infinity`.
    */
  def startsValue(b: Byte): Boolean =
    b == '[' || b == '"' || b == '-' || (b >= '0' && b <= '9') || b == 't' || b == 'f' || b == 'n' ||
      b == 'N' || b == 'I'
}
