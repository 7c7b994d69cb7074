package sparkdrill.formats.text

import sparkdrill.reader.ByteRanges

/** The bytes of the record a [[CsvParser]] reads as they stood in the file (quotes and all), kept across the
  * parser's buffer fills: for the corrupt-record column.
  *
  * @param lineDelimiter the file's record separator; empty for any of `\n`, `\r\n` and `\r`
  */
private[text] final class RawRecord(lineDelimiter: Array[Byte]) {
  private var raw = new Array[Byte](256)
  private var length = 0
  private var mark = -1 // where the unsaved bytes start in the read buffer; -1 outside a record

  /** A record starts at `at` in the read buffer. */
  def begin(at: Int): Unit = {
    length = 0
    mark = at
  }

  /** Keeps the record's bytes in `buf` up to `until`; the next unsaved byte is then at `next` (0 after a
    * fill, -1 when the record has ended). Outside a record, nothing.
    */
  def save(buf: Array[Byte], until: Int, next: Int): Unit = if (mark >= 0) {
    if (until > mark) {
      val n = until - mark
      if (length + n > raw.length) raw = java.util.Arrays.copyOf(raw, math.max(raw.length * 2, length + n))
      System.arraycopy(buf, mark, raw, length, n)
      length += n
    }
    mark = next
  }

  /** The record's text, without its line end. */
  def text: String = {
    var n = length
    if (lineDelimiter.isEmpty) while (n > 0 && (raw(n - 1) == '\n' || raw(n - 1) == '\r')) n -= 1
    else if (endsWithDelimiter(n)) n -= lineDelimiter.length
    new String(raw, 0, n, "UTF-8")
  }

  private def endsWithDelimiter(n: Int): Boolean = {
    val d = lineDelimiter.length
    n >= d && ByteRanges.equal(raw, n - d, n, lineDelimiter, 0, d)
  }
}
