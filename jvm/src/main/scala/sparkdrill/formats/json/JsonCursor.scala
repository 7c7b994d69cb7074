package sparkdrill.formats.json

import java.nio.ByteOrder
import java.nio.charset.StandardCharsets

import scala.util.control.ControlThrowable

import org.apache.spark.unsafe.Platform

import sparkdrill.reader.FastDouble

/** The byte reader met something it leaves to Jackson: anything outside the strict JSON it reads (see
  * [[JsonCursor]]), or a value that does not convert. The record is read again by Jackson, which decides.
  */
private[json] object GiveUp extends ControlThrowable

/** The byte reader reached the end of the bytes at hand inside a record: it reads the record again once the
  * tape holds more.
  */
private[json] object NeedMore extends ControlThrowable

/** A cursor over the bytes of JSON records in a [[RecordTape]]'s buffer: finds and checks strings, numbers,
  * literals and whole values in place, without tokens or objects (issue 15: Jackson's tokenizing was nearly
  * all of a JSON `count(*)`, and most of reading a few columns).
  *
  * It takes strict JSON only (RFC 8259 with well-formed UTF-8; blanks are space, tab and line ends), a subset
  * of what Jackson takes with [[JsonParsers.factory]]'s features, and throws [[GiveUp]] on anything else:
  * `NaN`, unquoted names, invalid or lax UTF-8, a surrogate escape that is not a pair (in a value it only
  * skips too: Jackson's reader finds such a record malformed, [[JsonText]]), and beyond sizes well under
  * Jackson's limits (nesting, number, name and string lengths). So whatever it reads, Jackson reads the same way, and
  * what it does not, Jackson reads and reports as it always has.
  *
  * Line ends are counted as Jackson counts them (`\n`, `\r\n` and a lone `\r` are one each); JSON allows
  * them only between tokens.
  */
private[json] final class JsonCursor {
  import JsonCursor._

  var buf: Array[Byte] = Array.emptyByteArray
  var pos = 0
  var limit = 0

  /** Line ends passed since [[reset]], and the index after the last of them (-1: none). */
  var lines = 0
  var lineStart: Int = -1
  private var depth = 0

  /** Set by [[string]]: whether the string held an escape (then [[JsonEscapes]] decodes it). */
  var escaped = false

  /** Set by [[number]]: whether it had no fraction or exponent (Jackson's VALUE_NUMBER_INT), and its value
    * when it is one of at most 18 digits.
    */
  var integral = false
  var fitsLong = false
  var longValue = 0L

  def reset(bytes: Array[Byte], from: Int, until: Int): Unit = {
    buf = bytes
    pos = from
    limit = until
    lines = 0
    lineStart = -1
    depth = 0
  }

  /** The byte at `i`, once the bytes at hand reach it. */
  @inline def at(i: Int): Int = {
    if (i >= limit) throw NeedMore
    buf(i)
  }

  /** Skips blanks; the byte after them, not consumed. */
  def blank(): Int = {
    var p = pos
    while (true) {
      if (p >= limit) { pos = p; throw NeedMore }
      val b = buf(p)
      if (b > ' ') { pos = p; return b }
      else if (b == ' ' || b == '\t') p += 1
      else if (b == '\n') { p += 1; lines += 1; lineStart = p }
      else if (b == '\r') {
        if (at(p + 1) == '\n') p += 2 else p += 1
        lines += 1
        lineStart = p
      } else { pos = p; return b } // a control character: no token starts with it
    }
    0
  }

  /** The next member or element after a value: a blank-skipping check for `,` or the closing byte. True when
    * another follows (the cursor is past the comma), false at the closing byte (past it).
    */
  def more(close: Int): Boolean = {
    val b = if (pos < limit && buf(pos) > ' ') buf(pos) else blank() // compact JSON has no blank here
    pos += 1
    if (b == ',') true
    else if (b == close) false
    else throw GiveUp
  }

  /** Past the opening byte of an object or array: one level deeper, within the nesting the reader takes. */
  def enter(): Unit = {
    depth += 1
    if (depth > MaxDepth) throw GiveUp
    pos += 1
  }

  def leave(): Unit = depth -= 1

  /** Scans the string whose opening quote is just before [[pos]], checking its escapes and UTF-8; leaves the
    * cursor past its closing quote and returns that quote's index. Sets [[escaped]].
    */
  def string(): Int = {
    escaped = false
    pos = stringEnd(pos)
    pos - 1
  }

  /** The index after the closing quote of the string whose first byte is at `p`, checking its escapes (and
    * setting [[escaped]] when it has one) and its UTF-8.
    */
  def stringEnd(p: Int): Int = {
    var i = p
    while (true) {
      i = special(i)
      val b = buf(i)
      if (b == '"') {
        if (i - p > MaxString) throw GiveUp
        return i + 1
      } else if (b == '\\') {
        escaped = true
        i = escape(i)
      } else if (b < 0) i = utf8(i)
      else throw GiveUp // a control character
    }
    0
  }

  // The index of the first byte at or after `from` that a string's scan must look at: a quote, a backslash, a
  // control character or a byte of a multi-byte character. Eight bytes at a time (SWAR, as CSV's ByteSearch).
  private def special(from: Int): Int = {
    var p = from
    while (p + 8 <= limit) {
      val marks = specials(p)
      if (marks != 0) return p + (java.lang.Long.numberOfTrailingZeros(marks) >>> 3)
      p += 8
    }
    while (true) {
      val b = at(p)
      if (b == '"' || b == '\\' || b < ' ') return p
      p += 1
    }
    0
  }

  // The special bytes among the eight at `p`, each marked by its high bit; the lowest mark is the first. A
  // byte's high bit: set in `w` for 0x80 and above; for a byte below 0x80, set in `w - 0x20` when it is below
  // 0x20 and in `(w ^ q) - 1` when it is `q`. A borrow starts only at such a byte and marks only bytes above
  // it, so no mark comes before the first special byte.
  private def specials(p: Int): Long = {
    val raw = Platform.getLong(buf, Platform.BYTE_ARRAY_OFFSET + p.toLong)
    val w = if (LittleEndian) raw else java.lang.Long.reverseBytes(raw)
    ((w - Spaces) | ((w ^ Quotes) - Ones) | ((w ^ Backslashes) - Ones) | w) & Highs
  }

  // The escape at `p` (a backslash): checked, and the index after it. A surrogate escape must be a high one
  // followed at once by a low one (Jackson would keep a lone one: the record is malformed, JsonText).
  private def escape(p: Int): Int =
    at(p + 1) match {
      case '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't' => p + 2
      case 'u' =>
        val c = hex(p + 2)
        if (c < 0xd800 || c > 0xdfff) p + 6
        else if (c >= 0xdc00 || at(p + 6) != '\\' || at(p + 7) != 'u') throw GiveUp
        else {
          val low = hex(p + 8)
          if (low < 0xdc00 || low > 0xdfff) throw GiveUp
          p + 12
        }
      case _ => throw GiveUp
    }

  // The four hex digits at `p`, once at hand, as a UTF-16 unit.
  private def hex(p: Int): Int = {
    if (p + 4 > limit) throw NeedMore
    val c = JsonEscapes.hex(buf, p)
    if (c < 0) throw GiveUp
    c
  }

  // The well-formed UTF-8 character of two to four bytes at `p` (RFC 3629: no overlong form, no surrogate,
  // nothing past U+10FFFF); the index after it.
  private def utf8(p: Int): Int = {
    val b0 = at(p) & 0xff
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      continuation(p + 1, 0x80, 0xbf)
      p + 2
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      continuation(p + 1, if (b0 == 0xe0) 0xa0 else 0x80, if (b0 == 0xed) 0x9f else 0xbf)
      continuation(p + 2, 0x80, 0xbf)
      p + 3
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      continuation(p + 1, if (b0 == 0xf0) 0x90 else 0x80, if (b0 == 0xf4) 0x8f else 0xbf)
      continuation(p + 2, 0x80, 0xbf)
      continuation(p + 3, 0x80, 0xbf)
      p + 4
    } else throw GiveUp
  }

  private def continuation(i: Int, low: Int, high: Int): Unit = {
    val b = at(i) & 0xff
    if (b < low || b > high) throw GiveUp
  }

  /** Scans the number at [[pos]] (JSON's grammar: no leading zero, no `+`, a digit on each side of the point),
    * setting [[integral]], [[fitsLong]] and [[longValue]]; leaves the cursor past it.
    */
  def number(): Unit = {
    val start = pos
    pos = numberEnd(pos)
    var i = start
    while (i < pos && buf(i) != '.' && buf(i) != 'e' && buf(i) != 'E') i += 1
    integral = i == pos
    if (integral) {
      val negative = buf(start) == '-'
      var p = if (negative) start + 1 else start
      fitsLong = pos - p <= 18
      if (fitsLong) {
        var value = 0L
        while (p < pos) {
          value = value * 10 + (buf(p) - '0')
          p += 1
        }
        longValue = if (negative) -value else value
      }
    } else fitsLong = false
  }

  /** The index after the number that starts at `start`, checked. */
  def numberEnd(start: Int): Int = {
    var p = start
    if (buf(p) == '-') p += 1
    val first = at(p)
    if (first == '0') {
      p += 1
      val b = at(p)
      if (b >= '0' && b <= '9') throw GiveUp // a leading zero
    } else if (first >= '1' && first <= '9') p = digitsEnd(p + 1, start)
    else throw GiveUp // `-` alone, `-Infinity`
    var b = at(p)
    if (b == '.') {
      p = someDigits(p + 1, start)
      b = at(p)
    }
    if (b == 'e' || b == 'E') {
      p += 1
      b = at(p)
      if (b == '+' || b == '-') p += 1
      p = someDigits(p, start)
    }
    p
  }

  // One digit or more from `p`; the index after them.
  private def someDigits(p: Int, start: Int): Int = {
    val b = at(p)
    if (b < '0' || b > '9') throw GiveUp
    digitsEnd(p + 1, start)
  }

  // The index of the first byte at or after `p` that is not a digit, eight bytes at a time: a byte is a digit
  // when its high half is 3 and it stays so plus 6. (A carry out of a byte at 0xfa or above, not a digit,
  // reaches only the bytes after it.)
  private def digitsEnd(p: Int, start: Int): Int = {
    var i = p
    while (i + 8 <= limit) {
      val raw = Platform.getLong(buf, Platform.BYTE_ARRAY_OFFSET + i.toLong)
      val w = if (LittleEndian) raw else java.lang.Long.reverseBytes(raw)
      val other = ((w & HighHalves) ^ Threes) | (((w + Sixes) & HighHalves) ^ Threes)
      if (other != 0) {
        i += java.lang.Long.numberOfTrailingZeros(other) >>> 3
        if (i - start > MaxNumber) throw GiveUp
        return i
      }
      i += 8
      if (i - start > MaxNumber) throw GiveUp
    }
    var b = at(i)
    while (b >= '0' && b <= '9') {
      i += 1
      if (i - start > MaxNumber) throw GiveUp
      b = at(i)
    }
    i
  }

  /** The number from `from` to `until` (scanned by [[number]], not integral) as the nearest double, as
    * `Double.parseDouble` and Jackson give it.
    */
  def double(from: Int, until: Int): Double =
    if (FastDouble.parse(buf, from, until - from, oneDouble)) oneDouble(0)
    else java.lang.Double.parseDouble(new String(buf, from, until - from, StandardCharsets.ISO_8859_1))

  private val oneDouble = new Array[Double](1)

  /** The literal `word` (`true`, `false`, `null`) at [[pos]]; the cursor past it. */
  def literal(word: Array[Byte]): Unit = pos = literalEnd(pos, word)

  // The index after the literal `word` at `p`: its first four bytes compared as one int.
  private def literalEnd(p: Int, word: Array[Byte]): Int = {
    val n = word.length
    if (p + n <= limit) {
      if (
        Platform.getInt(buf, Platform.BYTE_ARRAY_OFFSET + p.toLong) != Platform.getInt(
          word,
          Platform.BYTE_ARRAY_OFFSET.toLong
        )
      )
        throw GiveUp
      if (n == 5 && buf(p + 4) != word(4)) throw GiveUp
    } else {
      var i = 0
      while (i < n) {
        if (at(p + i) != word(i)) throw GiveUp
        i += 1
      }
    }
    p + n
  }

  /** Skips the value at [[pos]] (after blanks), checking it whole. */
  def skipValue(): Unit = pos = valueEnd(pos)

  /** The index after the value whose first byte (not a blank) is at `p`, checked whole. */
  def valueEnd(p: Int): Int = {
    val b = buf(p)
    if (b == '"') stringEnd(p + 1)
    else if ((b >= '0' && b <= '9') || b == '-') numberEnd(p)
    else if (b == 't') literalEnd(p, True)
    else if (b == 'f') literalEnd(p, False)
    else if (b == 'n') literalEnd(p, Null)
    else if (b == '{' || b == '[') containerEnd(p)
    else throw GiveUp
  }

  /** The index of the first byte at or after `p` that is not a blank (none: at once). */
  def nonBlank(p: Int): Int =
    if (p < limit && buf(p) > ' ') p
    else if (p + 1 < limit && buf(p) == ' ' && buf(p + 1) > ' ') p + 1 // one space, as after `, `
    else {
      pos = p
      blank()
      pos
    }

  // The index after the object or array that opens at `open`: its members (a name, a colon, a value) or
  // elements, separated by commas, checked whole.
  private def containerEnd(open: Int): Int = {
    val members = buf(open) == '{'
    val close = if (members) '}' else ']'
    depth += 1
    if (depth > MaxDepth) throw GiveUp
    var p = nonBlank(open + 1)
    if (buf(p) != close)
      while (true) {
        if (members) {
          if (buf(p) != '"') throw GiveUp
          p = nonBlank(stringEnd(p + 1))
          if (buf(p) != ':') throw GiveUp
          p = nonBlank(p + 1)
        }
        p = nonBlank(valueEnd(p))
        val b = buf(p)
        if (b == close) {
          depth -= 1
          return p + 1
        } else if (b != ',') throw GiveUp
        p = nonBlank(p + 1)
      }
    depth -= 1
    p + 1
  }

  /** The colon after a member's name, and the blanks around it; the cursor on the value. */
  def colon(): Unit = pos = colonEnd(pos)

  /** The index of the value after the colon at or after `p`. */
  def colonEnd(p: Int): Int =
    if (p + 1 < limit && buf(p) == ':' && buf(p + 1) > ' ') p + 1 // compact JSON: `:` and the value
    else if (p + 2 < limit && buf(p) == ':' && buf(p + 1) == ' ' && buf(p + 2) > ' ') p + 2 // `": "`
    else {
      val q = nonBlank(p)
      if (buf(q) != ':') throw GiveUp
      nonBlank(q + 1)
    }

}

private[json] object JsonCursor {
  private val LittleEndian = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
  private val Ones = 0x0101010101010101L
  private val Highs = 0x8080808080808080L
  private val Spaces = 0x2020202020202020L
  private val Quotes = 0x2222222222222222L
  private val Backslashes = 0x5c5c5c5c5c5c5c5cL
  private val HighHalves = 0xf0f0f0f0f0f0f0f0L
  private val Threes = 0x3030303030303030L
  private val Sixes = 0x0606060606060606L

  val True: Array[Byte] = "true".getBytes(StandardCharsets.US_ASCII)
  val False: Array[Byte] = "false".getBytes(StandardCharsets.US_ASCII)
  val Null: Array[Byte] = "null".getBytes(StandardCharsets.US_ASCII)

  // Well under Jackson's own limits (StreamReadConstraints: nesting 1000, a number 1000 characters, a string
  // 20 million, a name 50,000): past them Jackson reads the record, and reports what it reports.
  val MaxDepth = 256
  val MaxNumber = 500
  val MaxString: Int = 1 << 20
  val MaxName = 1000

}
