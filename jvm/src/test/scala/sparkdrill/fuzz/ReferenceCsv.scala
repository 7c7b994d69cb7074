package sparkdrill.fuzz

import java.io.ByteArrayOutputStream
import java.nio.charset.StandardCharsets.UTF_8

/** An independent model of how delimited text is cut into records and fields, written from the documents
  * (SPEC 2, docs/options.md "Text" and "Quoting", docs/errors.md "Text") and not from the parser, for the
  * fuzz properties to hold the scan to. It reads a whole file from memory, by index, in one pass; the options
  * it models are the ones the fuzz suites set: the default quote `"` (which is also the escape), the default
  * line ends, a one-byte delimiter and an optional comment byte. Its rules:
  *
  *   - A UTF-8 byte order mark (EF BB BF) is dropped at the very start of the file only; offsets still count
  *     it.
  *   - Line ends are `\n`, `\r\n` and `\r`, mixed freely; `\r\n` is one line end.
  *   - Before a record, a blank line (empty, or only spaces and tabs that are not the delimiter) is skipped,
  *     and so is a line whose first byte is the comment byte, up to its line end, quotes and all.
  *   - A field is quoted when its first byte is the quote, or when only spaces and tabs (other than the
  *     delimiter) come before a quote; those blanks are dropped. Any other field is unquoted and runs, quotes
  *     and blanks included, to the delimiter, a line end or the end of the file.
  *   - Inside quotes a doubled quote is one quote. A quote followed, possibly after spaces and tabs, by the
  *     delimiter, a line end or the end of the file closes the field and the blanks are dropped; any other
  *     quote is data, and so are the blanks after it. Line ends are data (and still count as lines).
  *   - A quote that is never closed makes the record malformed; its text runs to the end of the file.
  *   - With a header, the first record names the columns; a malformed header fails the read in every mode.
  *   - A record's line is 1 plus the line ends before its first byte; its offset is that byte's offset.
  *   - The record's raw text (the corrupt-record column) is its bytes from its first byte to its end, without
  *     the line ends it ends with, decoded as UTF-8 (invalid bytes become U+FFFD).
  */
object ReferenceCsv {

  /** The delimiter and the comment byte, if any. */
  final case class Dialect(delimiter: Byte, comment: Option[Byte])

  final case class Field(bytes: Array[Byte], quoted: Boolean) {
    def text: String = new String(bytes, UTF_8)
  }

  /** A record: its first byte, the first byte after it and its line end, its line, fields, and whether a
    * quote in it is never closed.
    */
  final case class Record(offset: Int, end: Int, line: Long, fields: Vector[Field], unterminated: Boolean) {
    def rawText(data: Array[Byte]): String = {
      var n = end
      while (n > offset && (data(n - 1) == '\n' || data(n - 1) == '\r')) n -= 1
      new String(data, offset, n - offset, UTF_8)
    }
  }

  private val Quote: Byte = '"'

  def records(data: Array[Byte], dialect: Dialect): Vector[Record] = {
    val n = data.length
    val delimiter = dialect.delimiter
    def lineEndAt(i: Int): Boolean = i < n && (data(i) == '\n' || data(i) == '\r')
    def lineEndLength(i: Int): Int = if (data(i) == '\r' && i + 1 < n && data(i + 1) == '\n') 2 else 1
    def blankAt(i: Int): Boolean = i < n && (data(i) == ' ' || data(i) == '\t') && data(i) != delimiter
    def closesAt(i: Int): Boolean = i >= n || data(i) == delimiter || lineEndAt(i)

    val out = Vector.newBuilder[Record]
    val bom = n >= 3 && data(0) == 0xef.toByte && data(1) == 0xbb.toByte && data(2) == 0xbf.toByte
    var i = if (bom) 3 else 0
    var line = 1L
    while (i < n)
      if (lineEndAt(i)) {
        i += lineEndLength(i)
        line += 1
      } else if (blankAt(i) && { var j = i; while (blankAt(j)) j += 1; j >= n || lineEndAt(j) }) {
        while (blankAt(i)) i += 1 // a blank line: its line end, if any, is next
      } else if (dialect.comment.contains(data(i))) {
        while (i < n && !lineEndAt(i)) i += 1
        if (i < n) {
          i += lineEndLength(i)
          line += 1
        }
      } else {
        val start = i
        val startLine = line
        val fields = Vector.newBuilder[Field]
        var unterminated = false
        var done = false
        while (!done) {
          var j = i
          while (blankAt(j)) j += 1
          if (j < n && data(j) == Quote) {
            val body = new ByteArrayOutputStream()
            var k = j + 1
            var closed = false
            while (!closed && k < n) {
              val b = data(k)
              if (b == Quote) {
                if (k + 1 < n && data(k + 1) == Quote) {
                  body.write(Quote.toInt)
                  k += 2
                } else {
                  var r = k + 1
                  while (blankAt(r)) r += 1
                  if (closesAt(r)) {
                    closed = true
                    k = r
                  } else {
                    body.write(data, k, r - k) // the quote and the blanks after it are data
                    k = r
                  }
                }
              } else {
                if (b == '\n' || (b == '\r' && !(k + 1 < n && data(k + 1) == '\n'))) line += 1
                body.write(b.toInt)
                k += 1
              }
            }
            fields += Field(body.toByteArray, quoted = true)
            if (closed) i = k
            else {
              unterminated = true
              i = n
            }
          } else {
            var k = i
            while (k < n && data(k) != delimiter && !lineEndAt(k)) k += 1
            fields += Field(java.util.Arrays.copyOfRange(data, i, k), quoted = false)
            i = k
          }
          // Here i is at the delimiter, a line end or the end of the file.
          if (i >= n) done = true
          else if (data(i) == delimiter) i += 1
          else {
            i += lineEndLength(i)
            line += 1
            done = true
          }
        }
        out += Record(start, i, startLine, fields.result(), unterminated)
      }
    out.result()
  }

  /** What a string column reads for field `column` of a record that is not malformed (docs/options.md, Empty
    * fields): an empty unquoted field and a missing one are null, a quoted one its text (`""` for `""`).
    */
  def value(record: Record, column: Int): String =
    if (column >= record.fields.size) null
    else {
      val f = record.fields(column)
      if (!f.quoted && f.bytes.isEmpty) null else f.text
    }

  /** Where each byte-range split of a file of `length` bytes into ranges of `size` starts reading (SPEC 2,
    * docs/options.md "Split rule"): right after the first line end at or after its first byte (a range that
    * starts on a line start keeps it), or the end of the file. The first range starts at 0.
    */
  def splitStarts(data: Array[Byte], size: Long): Seq[Int] = {
    val n = data.length
    (0L until n.toLong by size).map(_.toInt).map { start =>
      if (start == 0) 0
      else {
        // The line end that contains or follows byte start - 1.
        var i = start - 1
        while (i < n && data(i) != '\n' && data(i) != '\r') i += 1
        if (i >= n) n
        else if (data(i) == '\r' && i + 1 < n && data(i + 1) == '\n') i + 2
        else i + 1
      }
    }
  }
}
