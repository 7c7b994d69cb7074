package sparkdrill.formats.json

import java.nio.ByteOrder

import com.fasterxml.jackson.core.{JsonParseException, JsonParser}
import org.apache.spark.unsafe.Platform

/** What Jackson's reader lets through inside a string and JSON does not (RFC 8259: UTF-8 text, RFC 3629): an
  * overlong form (`C0 AF` read as `/`), a surrogate or a code point past U+10FFFF in UTF-8, and a surrogate
  * escape that is not a high one followed at once by a low one (`\ud800`), which Jackson keeps in a String the
  * JDK then writes as `?`. Jackson itself rejects the rest (a stray continuation byte, F8 to FF, a sequence
  * cut short). docs/errors.md: such a record is malformed, so the reader checks the bytes of every record
  * Jackson reads ([[JsonRecords.checkText]]); the byte reader's [[JsonCursor]] checks them as it scans.
  */
private[json] object JsonText {
  private val LittleEndian = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
  private val Ones = 0x0101010101010101L
  private val Highs = 0x8080808080808080L
  private val Backslashes = 0x5c5c5c5c5c5c5c5cL

  /** The index of the first byte of `buf(from until until)` where the text is not well-formed (a UTF-8
    * sequence RFC 3629 forbids, or a surrogate escape not paired); -1 when there is none. The bytes are a
    * value Jackson read whole, so a backslash is in a string and starts an escape. Only backslashes and bytes
    * from 0x80 on are looked at, found eight bytes at a time: ASCII text without escapes costs a pass of word
    * compares.
    */
  def firstInvalid(buf: Array[Byte], from: Int, until: Int): Int = {
    var i = from
    while (true) {
      i = special(buf, i, until)
      if (i >= until) return -1
      val n = if (buf(i) == '\\') escapeLength(buf, i, until) else utf8Length(buf, i, until)
      if (n < 0) return i
      i += n
    }
    -1
  }

  /** Why the text at `i` (found by [[firstInvalid]]) is not well-formed, for the error. */
  def problem(buf: Array[Byte], i: Int, until: Int): String =
    if (buf(i) == '\\') {
      val escape = new String(buf, i, math.min(6, until - i), java.nio.charset.StandardCharsets.US_ASCII)
      if (JsonEscapes.hex(buf, i + 2) >= 0xdc00)
        s"Invalid escape $escape: a low surrogate that follows no high one"
      else s"Invalid escape $escape: a high surrogate not followed by a low surrogate escape"
    } else {
      val b0 = buf(i) & 0xff
      val b1 = if (i + 1 < until) buf(i + 1) & 0xff else -1
      val length =
        if (b0 < 0xc0) 1
        else if (b0 < 0xe0) 2
        else if (b0 < 0xf0) 3
        else if (b0 < 0xf8) 4
        else if (b0 < 0xfc) 5
        else 6
      val bytes = (i until math.min(i + length, until)).map(k => f"0x${buf(k) & 0xff}%02X").mkString(" ")
      val continued = b1 >= 0x80 && b1 <= 0xbf
      val what =
        if (b0 < 0xc0) "a continuation byte where a character starts"
        else if (b0 >= 0xfe) "a byte that UTF-8 never uses"
        else if (b0 >= 0xf8) s"a $length-byte form"
        else if (b0 >= 0xf5) "a code point past U+10FFFF"
        else if (!continued) "a sequence cut short"
        else if (b0 < 0xc2 || (b0 == 0xe0 && b1 < 0xa0) || (b0 == 0xf0 && b1 < 0x90)) "an overlong form"
        else if (b0 == 0xed && b1 >= 0xa0) "a surrogate encoded in UTF-8"
        else if (b0 == 0xf4 && b1 >= 0x90) "a code point past U+10FFFF"
        else "a sequence cut short"
      s"Invalid UTF-8 ($bytes): $what"
    }

  // The index of the first backslash or byte from 0x80 on at or after `from`; `until` when there is none.
  // Eight bytes at a time, as JsonCursor's scan: a byte's high bit is set in `w` from 0x80 on, and in
  // `(w ^ q) - 1` for a byte below 0x80 that is `q`; a borrow starts only at such a byte, so no mark comes
  // before the first one.
  private def special(buf: Array[Byte], from: Int, until: Int): Int = {
    var p = from
    while (p + 8 <= until) {
      val raw = Platform.getLong(buf, Platform.BYTE_ARRAY_OFFSET + p.toLong)
      val w = if (LittleEndian) raw else java.lang.Long.reverseBytes(raw)
      val marks = (((w ^ Backslashes) - Ones) | w) & Highs
      if (marks != 0) return p + (java.lang.Long.numberOfTrailingZeros(marks) >>> 3)
      p += 8
    }
    while (p < until && buf(p) != '\\' && buf(p) >= 0) p += 1
    p
  }

  // The length of the escape at `i` (a backslash); -1 for a surrogate escape that is not a pair.
  private def escapeLength(buf: Array[Byte], i: Int, until: Int): Int =
    if (i + 6 > until || buf(i + 1) != 'u') 2 // `\"`, `\\`...: the byte after is not an escape's start
    else {
      val c = JsonEscapes.hex(buf, i + 2)
      if (c < 0xd800 || c > 0xdfff) 6
      else if (c >= 0xdc00) -1 // a low surrogate first
      else if (
        i + 12 <= until && buf(i + 6) == '\\' && buf(i + 7) == 'u' && isLow(JsonEscapes.hex(buf, i + 8))
      )
        12
      else -1
    }

  private def isLow(c: Int): Boolean = c >= 0xdc00 && c <= 0xdfff

  /** The length of the well-formed UTF-8 character of two to four bytes at `i` (RFC 3629: no overlong form,
    * no surrogate, nothing past U+10FFFF, all of it before `until`); -1 when it is not one.
    */
  def utf8Length(buf: Array[Byte], i: Int, until: Int): Int = {
    val b0 = buf(i) & 0xff
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      if (in(buf, i + 1, until, 0x80, 0xbf)) 2 else -1
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      val low = if (b0 == 0xe0) 0xa0 else 0x80
      val high = if (b0 == 0xed) 0x9f else 0xbf
      if (in(buf, i + 1, until, low, high) && in(buf, i + 2, until, 0x80, 0xbf)) 3 else -1
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      val low = if (b0 == 0xf0) 0x90 else 0x80
      val high = if (b0 == 0xf4) 0x8f else 0xbf
      if (
        in(buf, i + 1, until, low, high) && in(buf, i + 2, until, 0x80, 0xbf) && in(
          buf,
          i + 3,
          until,
          0x80,
          0xbf
        )
      )
        4
      else -1
    } else -1
  }

  private def in(buf: Array[Byte], i: Int, until: Int, low: Int, high: Int): Boolean =
    i < until && (buf(i) & 0xff) >= low && (buf(i) & 0xff) <= high
}

/** Text Jackson read that is not well-formed ([[JsonRecords.checkText]]): a parse error of the record, at
  * `line` and `column` (from 1, in bytes, as Jackson counts them) of the file.
  */
private[json] final class InvalidText(message: String, val line: Long, val column: Long)
    extends JsonParseException(null: JsonParser, message)
