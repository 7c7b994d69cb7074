package sparkdrill.formats.text

import java.io.InputStream

/** A byte-level CSV tokenizer with Drill's lenient quoting. It records where each field of a record starts
  * and ends in one byte array, and whether it was quoted: no `String` per field. The array is the read buffer
  * itself when the record lies whole in it and needs no unescaping (most records), else a reusable array the
  * fields are copied into, unescaped.
  *
  * Quoting (SPEC 2): a quote opens a quoted field as the field's first byte, or after spaces and tabs that
  * start the field (they are dropped then; an unquoted field keeps its leading blanks). Inside, escape+quote
  * is a quote (by default the escape is the quote, so `""` is `"`), escape+anything else keeps both bytes,
  * and a quote closes the field only when a delimiter, a line end or the end of input follows, possibly after
  * spaces and tabs (dropped); any other quote is data, and so are the blanks after it. Line ends inside
  * quotes are data. A quote that is never closed makes the record malformed. A negative `quote` (the option
  * `quote=""`) turns quoting off.
  *
  * @param startOffset byte offset of the stream's first byte in the (uncompressed) file
  * @param startLine 1-based line number of the stream's first byte
  * @param vectorScan whether count(*)'s scan may search with the Vector API ([[VectorScan]]); the tests that
  *   compare the two searches set it
  */
private[sparkdrill] final class CsvParser(
    in: InputStream,
    settings: CsvSettings,
    startOffset: Long = 0L,
    startLine: Long = 1L,
    vectorScan: Boolean = VectorScan.enabled
) {
  import CsvParser._

  private val delimiter = settings.delimiter
  private val quote = settings.quote
  private val escape = settings.escape
  private val comment = settings.comment
  private val auto = settings.autoLineEnd
  private val lineEnd0: Int = if (auto) '\n' else settings.lineDelimiter(0) & 0xff
  private val lineEnd1: Int =
    if (auto || settings.lineDelimiter.length < 2) -1 else settings.lineDelimiter(1) & 0xff

  // Starts small and grows to BufferSize once a read fills it: most of a tree of small files (and a header
  // read for discovery) never needs more, and 64 KiB zeroed per file was a tenth of discovering 100,000.
  private var buf = new Array[Byte](FirstBufferSize)
  private var pos = 0
  private var limit = 0
  private var bufferOffset = startOffset // file offset of buf(0)
  private var atEof = false

  // Field bytes copied out of the read buffer, unescaped, for a record that cannot be read in place.
  private var copied = new Array[Byte](1024)
  private var current = copied
  private var length = 0
  private var fieldStarts = new Array[Int](64)
  private var fieldEnds = new Array[Int](64)
  private var fieldQuoted = new Array[Boolean](64)
  private var count = 0

  /** Line where the current record starts (1-based). */
  var recordLine: Long = 0L

  /** Byte offset where the current record starts. */
  var recordOffset: Long = 0L

  /** When set, the record's raw bytes (quotes and all, without its line end) are kept for `rawRecord`. */
  var captureRaw: Boolean = false
  private val raw = new RawRecord(settings.lineDelimiter)

  /** The current record as it stood in the file (only with `captureRaw`). */
  def rawRecord: String = raw.text

  /** Offset of the current record's last line end inside quotes, -1 if none. */
  var quotedLineEnd: Long = -1L

  /** Whether the current record ended inside an unclosed quote. */
  var unterminatedQuote: Boolean = false
  private var line = startLine

  /** The current record's field bytes, unescaped: the read buffer itself when the record was read in place,
    * so they stay valid only until the next read.
    */
  def bytes: Array[Byte] = current
  def fieldCount: Int = count
  def start(i: Int): Int = fieldStarts(i)
  def fieldLength(i: Int): Int = fieldEnds(i) - fieldStarts(i)
  def field(i: Int): String = new String(current, fieldStarts(i), fieldEnds(i) - fieldStarts(i), "UTF-8")
  def fields: IndexedSeq[String] = (0 until count).map(field)

  /** Whether field `i` stood in quotes: `""` is an empty quoted field, an empty unquoted one is null in a
    * string column (SPEC 9.1).
    */
  def quoted(i: Int): Boolean = fieldQuoted(i)

  /** Byte offset of the next unread byte. */
  def position: Long = bufferOffset + pos

  /** The raw text of the current record, for error messages and the corrupt-record column. */
  def recordText: String = {
    val sb = new StringBuilder
    var i = 0
    while (i < count) {
      if (i > 0) sb.append(delimiter.toChar)
      sb.append(field(i))
      i += 1
    }
    sb.toString
  }

  /** Skips one whole line (header skipping, `skipFirstLine`, or the partial first line of a split) without
    * interpreting quotes; returns false at end of input.
    */
  def skipLine(): Boolean = {
    if (!ensure()) return false
    while (ensure()) {
      val b = buf(pos) & 0xff
      pos += 1
      if (isLineEndStart(b)) { consumeLineEnd(b); line += 1; return true }
    }
    true
  }

  /** Reads the next record, skipping blank lines and comment lines. Returns false at end of input. */
  def next(): Boolean = {
    if (!startRecord()) return false
    if (captureRaw) {
      raw.begin(pos)
      current = copied
      readRecord()
      raw.save(buf, pos, -1)
    } else if (inPlace) readInPlace()
    else { current = copied; readRecord() }
    true
  }

  // A record is read in place, its fields left where they lie in the read buffer, as long as it is in the
  // buffer and none of its bytes need rewriting: no escaped or stray quote, no line end in quotes. Most
  // records are read in place whole; from a field that cannot be (or that the buffer's end cuts), the fields
  // so far are copied out and readRecord, which copies and unescapes, reads the rest. Not with a raw-record
  // capture, whose bookkeeping lives in readRecord's buffer fills, nor with a two-byte line delimiter.
  private val inPlace = lineEnd1 < 0

  private def readInPlace(): Unit = {
    val lim = limit
    val delim = delimiter & 0xff
    var p = pos
    current = buf
    while (true) {
      if (count == fieldStarts.length) growFields()
      val fieldStart = p
      var start = p
      var end = -1
      if (quote >= 0) {
        // Spaces and tabs before a quote are dropped with it; before anything else they are the field's text.
        var q = p
        while (q < lim && { val b = buf(q) & 0xff; (b == ' ' || b == '\t') && b != delim }) q += 1
        if (q < lim && (buf(q) & 0xff) == quote) {
          // The closing quote, past doubled ones, found before anything is rewritten.
          var close = words.quotedEnd(buf, q + 1, lim)
          var doubled = false
          var closed = false
          while (!closed) {
            if (close + 1 >= lim || (buf(close) & 0xff) != quote) return copyFrom(fieldStart)
            val after = buf(close + 1) & 0xff
            if (after == quote && escape == quote) {
              doubled = true
              close = words.quotedEnd(buf, close + 2, lim)
            } else if (after == delim || isLineEndStart(after)) closed = true
            else return copyFrom(fieldStart)
          }
          start = q + 1
          end = if (doubled) undouble(start, close) else close
          p = close + 1
        }
      }
      fieldQuoted(count) = end >= 0
      if (end < 0) { // unquoted: a quote, or a line-end byte that is not the line end, is text
        p = words.plainEnd(buf, p, lim)
        while (p < lim && { val b = buf(p) & 0xff; b != delim && !isLineEndStart(b) })
          p = words.plainEnd(buf, p + 1, lim)
        if (p >= lim) return copyFrom(fieldStart)
        end = p
      }
      fieldStarts(count) = start
      fieldEnds(count) = end
      count += 1
      val b = buf(p) & 0xff
      p += 1
      if (b != delim) { // the line end
        if (b == '\r' && auto && p >= lim) { // its `\n` may follow in the next fill
          copyOut()
          pos = p
          consumeLineEnd(b)
        } else {
          if (b == '\r' && auto && buf(p) == '\n') p += 1
          pos = p
        }
        line += 1
        return
      }
    }
  }

  /** Rewrites a quoted field's bytes `[from, until)` in place with each doubled quote made one; returns the
    * new end. The buffer's raw bytes are not read again: a record read in place is never read a second time.
    */
  private def undouble(from: Int, until: Int): Int = {
    var r = from
    var w = from
    while (r < until) {
      val b = buf(r)
      buf(w) = b
      w += 1
      r += (if ((b & 0xff) == quote) 2 else 1)
    }
    w
  }

  /** From the field at `fieldStart` on, the record is read by readRecord, the fields before copied out. */
  private def copyFrom(fieldStart: Int): Unit = {
    copyOut()
    pos = fieldStart
    readRecord()
  }

  /** Copies the fields read in place so far (those the caller keeps) out of the buffer, which the next fill
    * overwrites.
    */
  private def copyOut(): Unit = {
    discard = false
    length = 0
    var i = 0
    while (i < count) {
      val from = fieldStarts(i)
      val n = fieldEnds(i) - from
      fieldStarts(i) = length
      if (keep == null || (i < keep.length && keep(i))) appendRange(from, n)
      fieldEnds(i) = length
      i += 1
    }
    current = copied
  }

  private def skipBlankAndCommentLines(): Boolean = {
    while (true) {
      if (!ensure()) return false
      val b = buf(pos) & 0xff
      if (isLineEndStart(b)) {
        // What a two-byte delimiter's first byte is depends on the next; a fill would drop it, so it is kept.
        if (lineEnd1 >= 0 && pos + 1 >= limit && !fillAfterLast()) return true // alone at the end: data
        pos += 1
        if (!consumeLineEnd(b)) return restoreAsData()
        line += 1
      } else if (b == comment) {
        skipLine()
      } else if (!isBlank(b) || !skipBlanksOfBlankLine()) return true
    }
    false
  }

  // Spaces and tabs, except the one that is the delimiter (a TSV line of one tab is a record of two fields).
  @inline private def isBlank(b: Int): Boolean = (b == ' ' || b == '\t') && b != (delimiter & 0xff)

  /** At a space or tab that starts a line: when only spaces and tabs come before the line end or the end of
    * input, the line is blank (as a person, Spark's CSV reader and pandas read it), and this moves past the
    * blanks to the line end (true). Otherwise the line is a record, its blanks its first field's text, and
    * nothing is consumed (false). A run of blanks that the buffer's end cuts is kept while more is read.
    */
  private def skipBlanksOfBlankLine(): Boolean = {
    var more = true // whether a fill may still bring bytes
    while (true) {
      var q = pos
      while (q < limit && isBlank(buf(q) & 0xff)) q += 1
      // A two-byte line delimiter's first byte needs the second after it to end the line.
      val need = if (lineEnd1 >= 0) 2 else 1
      if (q + need <= limit) {
        val b = buf(q) & 0xff
        val lineEnd = isLineEndStart(b) && (lineEnd1 < 0 || (buf(q + 1) & 0xff) == lineEnd1)
        if (lineEnd) pos = q
        return lineEnd
      }
      if (!more) { // the input ends in this run, or after a line delimiter's lone first byte, which is data
        if (q < limit) return false
        pos = limit
        return true
      }
      // The fill moves the kept bytes to the buffer's start: the next pass looks again from `pos`.
      more = !atEof && fillKeeping(pos)
    }
    false
  }

  // A two-byte line delimiter whose first byte was not followed by its second: the byte is data.
  private def restoreAsData(): Boolean = {
    pos -= 1
    true
  }

  // Reads on between records with the buffer's last byte (at `pos`) kept as the new buffer's first: whether
  // a byte follows it. Outside a record, so no raw record is being kept.
  private def fillAfterLast(): Boolean = fillKeeping(pos)

  /** Reads on between records with the buffer's bytes from `from` (at or before `pos`) kept at the new
    * buffer's start, the buffer grown when they fill it; false when nothing more was read.
    */
  private def fillKeeping(from: Int): Boolean = {
    val kept = limit - from
    if (kept == buf.length) buf = java.util.Arrays.copyOf(buf, buf.length * 2)
    System.arraycopy(buf, from, buf, 0, kept)
    bufferOffset += from
    pos -= from
    limit = kept
    if (!atEof) {
      val n = readInto(kept)
      if (n < 0) atEof = true else limit += n
    }
    limit > kept
  }

  private def readRecord(): Unit = {
    var fieldStart = true
    beginField()
    while (true) {
      if (pos >= limit && !fill()) { endField(); return }
      if (fieldStart && quote >= 0) {
        val b = buf(pos) & 0xff
        if (b == quote || ((b == ' ' || b == '\t') && quoteAfterBlanks())) {
          pos += 1
          fieldQuoted(count) = true
          if (readQuoted()) { endField(); return }
          if (pos >= limit && !fill()) { endField(); return }
          // readQuoted stops after the closing quote and its blanks; a delimiter or a line end follows
        }
      }
      fieldStart = false
      // Fast path: copy a run of plain bytes in one go.
      val runStart = pos
      val lim = limit
      val p = words.plainEnd(buf, pos, lim)
      if (p > runStart) appendRange(runStart, p - runStart)
      pos = p
      if (p < lim) {
        val b = buf(p) & 0xff
        pos += 1
        if (b == (delimiter & 0xff)) {
          endField(); beginField(); fieldStart = true
        } else if (isLineEndStart(b)) {
          if (consumeLineEnd(b)) { line += 1; endField(); return }
          appendByte(b.toByte)
        } else appendByte(b.toByte)
      }
    }
  }

  /** At a field's start, on a space or a tab: reads the run of spaces and tabs (other than the delimiter
    * and a line end) into the field. True when a quote follows the run: the quote opens a quoted field and
    * the run is dropped; otherwise the run begins an unquoted field's text. Leaves `pos` after the run.
    */
  private def quoteAfterBlanks(): Boolean = {
    while (ensure()) {
      val b = buf(pos) & 0xff
      if (b == quote) { length = fieldStarts(count); return true }
      if ((b != ' ' && b != '\t') || b == (delimiter & 0xff) || isLineEndStart(b)) return false
      appendByte(b.toByte)
      pos += 1
    }
    false
  }

  /** Inside a quoted field, after a quote that a space or a tab follows: reads the run of spaces and tabs.
    * True when a delimiter, a line end or the end of input follows the run: the quote closed the field and
    * the run is dropped. Otherwise the quote and the run are data and the field goes on.
    */
  private def closesAfterBlanks(): Boolean = {
    val mark = length
    appendByte(quote.toByte)
    while (ensure()) {
      val b = buf(pos) & 0xff
      if (b == (delimiter & 0xff) || isLineEndStart(b)) { length = mark; return true }
      if (b != ' ' && b != '\t') return false
      appendByte(b.toByte)
      pos += 1
    }
    length = mark
    true
  }

  /** Reads a quoted field's body after its opening quote. Returns true when the input ended inside it. */
  private def readQuoted(): Boolean = {
    // The byte before was a `\r` line end (so a `\n` now completes it): known even when the `\n` comes in
    // the next fill of the buffer.
    var afterCr = false
    while (true) {
      if (pos >= limit && !fill()) { unterminatedQuote = true; return true }
      // Fast path: copy a run of plain quoted bytes in one go.
      val runStart = pos
      val p = words.quotedEnd(buf, pos, limit)
      if (p > runStart) { appendRange(runStart, p - runStart); pos = p; afterCr = false }
      if (pos >= limit && !fill()) { unterminatedQuote = true; return true }
      val b = buf(pos) & 0xff
      if (b == escape && escape != quote) {
        afterCr = false
        pos += 1
        if (pos >= limit && !fill()) { appendByte(b.toByte); unterminatedQuote = true; return true }
        val n = buf(pos) & 0xff
        if (n == quote) { appendByte(n.toByte); pos += 1 }
        else appendByte(b.toByte)
      } else if (b == quote) {
        afterCr = false
        pos += 1
        if (pos >= limit && !fill()) return false // closing quote at end of input
        val n = buf(pos) & 0xff
        if (n == quote && escape == quote) { appendByte(n.toByte); pos += 1 }
        else if (n == (delimiter & 0xff) || isLineEndStart(n)) return false
        else if (n == ' ' || n == '\t') { if (closesAfterBlanks()) return false }
        else appendByte(b.toByte) // a stray quote inside a quoted field is data
      } else {
        // A line end inside quotes is data, but it still counts as a line (`\r\n` as one).
        if ((b == '\n' && !afterCr) || (b == '\r' && auto)) line += 1
        afterCr = b == '\r' && auto
        if (isLineEndStart(b)) quotedLineEnd = bufferOffset + pos
        appendByte(b.toByte)
        pos += 1
      }
    }
    false
  }

  @inline private def isLineEndStart(b: Int): Boolean =
    if (auto) b == '\n' || b == '\r' else b == lineEnd0

  /** Consumes the rest of a line end whose first byte `b` was just read. False when `b` begins a two-byte
    * delimiter that does not continue.
    */
  private def consumeLineEnd(b: Int): Boolean =
    if (auto) {
      if (b == '\r' && ensure() && buf(pos) == '\n') pos += 1
      true
    } else if (lineEnd1 < 0) true
    else if (ensure() && (buf(pos) & 0xff) == lineEnd1) { pos += 1; true }
    else false

  private def beginField(): Unit = {
    if (count == fieldStarts.length) growFields()
    fieldStarts(count) = length
    fieldQuoted(count) = false
    if (keep != null) discard = skipAll || count >= keep.length || !keep(count)
  }

  private def endField(): Unit = {
    fieldEnds(count) = length
    count += 1
  }

  private def growFields(): Unit = {
    val n = fieldStarts.length * 2
    fieldStarts = java.util.Arrays.copyOf(fieldStarts, n)
    fieldEnds = java.util.Arrays.copyOf(fieldEnds, n)
    fieldQuoted = java.util.Arrays.copyOf(fieldQuoted, n)
  }

  /** Reads the next record's boundaries only (quotes respected, field bytes not kept): for `count(*)`. */
  def skipNext(): Boolean =
    if (captureRaw) skipping(next())
    else if (!startRecord()) false
    else {
      if (!skipPlainRecord()) skipping(readRecord())
      true
    }

  /** Forgets the last record and moves to the next one's start, past blank and comment lines; false at the
    * end of input.
    */
  private def startRecord(): Boolean = {
    count = 0
    length = 0
    unterminatedQuote = false
    quotedLineEnd = -1L
    if (!skipBlankAndCommentLines()) return false
    recordLine = line
    recordOffset = position
    true
  }

  private def skipping[T](read: => T): T = {
    discard = true
    skipAll = true
    try read
    finally { discard = false; skipAll = false }
  }

  // count(*)'s fast path, a record's end found a vector or a word at a time; a record it cannot judge is left
  // to readRecord from the record's start (false, nothing consumed).
  private val words =
    new WordScan(delimiter, quote, escape, if (auto) -1 else lineEnd0, VectorScan.finder(vectorScan))
  private val fastSkip = lineEnd1 < 0 && (quote < 0 || escape == quote)

  private def skipPlainRecord(): Boolean = {
    if (!fastSkip) return false
    val end = words.recordEnd(buf, pos, limit)
    if (end < 0) return false
    pos = end + 1
    consumeLineEnd(buf(end) & 0xff)
    line += 1
    true
  }

  private var discard = false
  private var skipAll = false

  /** Which fields (by position) a caller reads; the others are parsed (quotes, delimiters), but a record
    * that is copied out of the buffer does not copy their bytes, so they may read as empty. Null keeps every
    * field.
    */
  var keep: Array[Boolean] = null

  @inline private def appendByte(b: Byte): Unit = if (!discard) {
    if (length == copied.length) grow(length + 1)
    copied(length) = b
    length += 1
  }

  private def appendRange(from: Int, n: Int): Unit = if (!discard) {
    if (length + n > copied.length) grow(length + n)
    System.arraycopy(buf, from, copied, length, n)
    length += n
  }

  private def grow(atLeast: Int): Unit = {
    copied = java.util.Arrays.copyOf(copied, math.max(copied.length * 2, atLeast))
    current = copied
  }

  // A UTF-8 byte order mark at the start of the file is not data (offsets still count its bytes).
  private def skipByteOrderMark(): Unit = {
    while (limit < 3 && !atEof) {
      val n = in.read(buf, limit, buf.length - limit)
      if (n < 0) atEof = true else limit += n
    }
    if (limit >= 3 && buf(0) == 0xef.toByte && buf(1) == 0xbb.toByte && buf(2) == 0xbf.toByte) pos = 3
  }

  @inline private def ensure(): Boolean = pos < limit || fill()

  private def fill(): Boolean = {
    if (atEof) return false
    raw.save(buf, limit, 0)
    bufferOffset += limit
    pos = 0
    // What the buffer held is consumed (a record read in place has been used by now; one that crosses the
    // buffer's end is copied out as it is read): it may be replaced.
    if (limit == buf.length && buf.length < BufferSize)
      buf = new Array[Byte](math.min(BufferSize, buf.length * 4))
    limit = 0
    val n = readInto(0)
    if (n < 0) { atEof = true; false }
    else {
      limit = n
      if (bufferOffset == 0L) skipByteOrderMark()
      // A file that is only a byte order mark has nothing after it: ensure() must not see a byte.
      pos < limit || fill()
    }
  }

  // Reads into the buffer from `at` to its end: how many bytes came, -1 at the end of input (never 0).
  private def readInto(at: Int): Int = {
    var n = in.read(buf, at, buf.length - at)
    while (n == 0) n = in.read(buf, at, buf.length - at)
    n
  }
}

private[sparkdrill] object CsvParser {
  val BufferSize: Int = 1 << 16
  val FirstBufferSize: Int = 1 << 12
}
