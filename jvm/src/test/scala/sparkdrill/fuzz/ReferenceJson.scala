package sparkdrill.fuzz

/** An independent model of which records a JSON file holds, written from the documents (SPEC 2,
  * docs/options.md "JSON", docs/errors.md "JSON") and not from the reader: a strict JSON validator (RFC 8259
  * values; the reader's extensions, unquoted keys and NaN/Infinity, are not modelled, so the fuzz generators
  * never write them) and the documented rules around it:
  *
  *   - The file is a stream of top-level values separated by blanks (space, tab, `\r`, `\n`) or simply
  *     concatenated (`{...}{...}`); a top-level number or literal must be followed by a blank or the end of
  *     the file (`1\n2x\n3` holds the records `1`, the broken `2x`, and `3`).
  *   - Each top-level value is a record, except a root array, whose elements are the records. Whether
  *     top-level arrays are root arrays, the file's first top-level value decides: an array that starts with
  *     an object, is empty, or is all the file holds makes every top-level array a root array; anything else
  *     makes each top-level array one record.
  *   - A broken value is one malformed record: it starts at its first byte (a broken value between two
  *     records is a record of its own) and reading goes on at the next line that starts with `{`, or with any
  *     JSON value once the file has shown a top-level value that is not an object; blanks may come before it
  *     on its line.
  *   - A broken element inside a root array cannot be skipped: the read fails in every mode.
  *   - A record's line is 1 plus the line ends (`\n`, `\r\n`, `\r`) before its first byte; its offset is that
  *     byte's offset.
  */
object ReferenceJson {

  final case class Record(offset: Int, line: Long, broken: Boolean)

  /** The records in file order, and the broken root-array element that fails the read, if any (the records
    * after it are not listed).
    */
  final case class Result(records: Vector[Record], failure: Option[Record]) {
    def broken: Vector[Record] = records.filter(_.broken)
  }

  def records(data: Array[Byte]): Result = new Reader(data).run()

  private final class Reader(data: Array[Byte]) {
    private val n = data.length
    private val out = Vector.newBuilder[Record]
    private var failure: Option[Record] = None
    private var arraysKnown = false
    private var arraysAreRoots = false
    private var valuesSeen = false

    def run(): Result = {
      var i = 0
      while (i < n && failure.isEmpty) {
        i = blanks(i)
        if (i < n) {
          val start = i
          if (data(i) == '[' && rootArrays(i)) i = rootArray(i + 1)
          else {
            if (tokenStarts(i)) {
              arraysKnown = true
              if (data(i) != '{') valuesSeen = true
            }
            val end = topLevelValue(i)
            if (end >= 0) {
              out += record(start, broken = false)
              i = end
            } else {
              out += record(start, broken = true)
              i = nextRecordLine(start)
            }
          }
        }
      }
      Result(out.result(), failure)
    }

    private def record(offset: Int, broken: Boolean): Record = Record(offset, lineOf(offset), broken)

    private def lineOf(offset: Int): Long = {
      var line = 1L
      var i = 0
      while (i < offset) {
        if (data(i) == '\n' || (data(i) == '\r' && !(i + 1 < n && data(i + 1) == '\n'))) line += 1
        i += 1
      }
      line
    }

    private def blank(i: Int): Boolean =
      i < n && (data(i) == ' ' || data(i) == '\t' || data(i) == '\r' || data(i) == '\n')

    private def blanks(from: Int): Int = {
      var i = from
      while (blank(i)) i += 1
      i
    }

    // Whether the first token of the value at i is one (a record has begun, so the file has a first value).
    private def tokenStarts(i: Int): Boolean = {
      val c = data(i)
      c == '{' || c == '[' || c == '"' || literal(i, "true") > 0 || literal(i, "false") > 0 ||
      literal(i, "null") > 0 || ((c == '-' || digit(c)) && number(i) > 0)
    }

    private def rootArrays(i: Int): Boolean = {
      if (!arraysKnown) {
        val first = blanks(i + 1)
        arraysAreRoots = (first < n && (data(first) == '{' || data(first) == ']')) || {
          val end = value(i, 0)
          end < 0 || blanks(end) >= n
        }
        arraysKnown = true
      }
      arraysAreRoots
    }

    // The elements of a root array whose `[` is just before `from`; returns where the array ends.
    private def rootArray(from: Int): Int = {
      var i = blanks(from)
      if (i < n && data(i) == ']') return i + 1
      while (true) {
        if (i < n && data(i) != '{') valuesSeen = true
        val end = value(i, 1)
        if (end < 0) {
          failure = Some(record(i, broken = true))
          return n
        }
        out += record(i, broken = false)
        i = blanks(end)
        if (i < n && data(i) == ']') return i + 1
        if (i >= n || data(i) != ',') {
          failure = Some(record(i, broken = true))
          return n
        }
        i = blanks(i + 1)
      }
      n
    }

    // A top-level value: a number or a literal must be followed by a blank or the end of the file.
    private def topLevelValue(i: Int): Int = {
      val end = value(i, 0)
      if (end < 0) -1
      else {
        val scalar = data(i) != '{' && data(i) != '[' && data(i) != '"'
        if (scalar && end < n && !blank(end)) -1 else end
      }
    }

    // The first line after the one holding `from` whose first byte that is not a blank starts a record.
    private def nextRecordLine(from: Int): Int = {
      var i = from
      var lineStart = -1
      while (i < n) {
        val c = data(i)
        if (c == '\n') lineStart = i + 1
        else if (lineStart >= 0 && c != ' ' && c != '\t' && c != '\r') {
          if (c == '{' || (valuesSeen && startsValue(c))) return lineStart
          lineStart = -1
        }
        i += 1
      }
      n
    }

    private def startsValue(c: Byte): Boolean =
      c == '[' || c == '"' || c == '-' || digit(c) || c == 't' || c == 'f' || c == 'n' || c == 'N' || c == 'I'

    private def digit(c: Byte): Boolean = c >= '0' && c <= '9'

    /** The end of the JSON value that starts at `i`, or -1 when there is none. */
    private def value(i: Int, depth: Int): Int =
      if (i >= n || depth > 500) -1
      else
        (data(i) & 0xff).toChar match {
          case '{' => obj(i + 1, depth + 1)
          case '[' => arr(i + 1, depth + 1)
          case '"' => string(i + 1)
          case 't' => literal(i, "true")
          case 'f' => literal(i, "false")
          case 'n' => literal(i, "null")
          case c if c == '-' || (c >= '0' && c <= '9') => number(i)
          case _ => -1
        }

    private def obj(from: Int, depth: Int): Int = {
      var i = blanks(from)
      if (i < n && data(i) == '}') return i + 1
      while (true) {
        if (i >= n || data(i) != '"') return -1
        i = string(i + 1)
        if (i < 0) return -1
        i = blanks(i)
        if (i >= n || data(i) != ':') return -1
        i = value(blanks(i + 1), depth)
        if (i < 0) return -1
        i = blanks(i)
        if (i >= n) return -1
        if (data(i) == '}') return i + 1
        if (data(i) != ',') return -1
        i = blanks(i + 1)
      }
      -1
    }

    private def arr(from: Int, depth: Int): Int = {
      var i = blanks(from)
      if (i < n && data(i) == ']') return i + 1
      while (true) {
        i = value(i, depth)
        if (i < 0) return -1
        i = blanks(i)
        if (i >= n) return -1
        if (data(i) == ']') return i + 1
        if (data(i) != ',') return -1
        i = blanks(i + 1)
      }
      -1
    }

    // A string's body after its opening quote: escapes (a surrogate escape only as a high one followed at
    // once by a low one), no control characters, well-formed UTF-8 (docs/errors.md: "invalid UTF-8 inside a
    // string" is broken JSON).
    private def string(from: Int): Int = {
      var i = from
      while (i < n) {
        val b = data(i) & 0xff
        if (b == '"') return i + 1
        if (b == '\\') {
          if (i + 1 >= n) return -1
          (data(i + 1) & 0xff).toChar match {
            case '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't' => i += 2
            case 'u' =>
              val c = unit(i)
              if (c < 0 || (c >= 0xdc00 && c <= 0xdfff)) return -1
              if (c >= 0xd800 && c <= 0xdbff) {
                val low = unit(i + 6)
                if (low < 0xdc00 || low > 0xdfff) return -1
                i += 12
              } else i += 6
            case _ => return -1
          }
        } else if (b < 0x20) return -1
        else if (b < 0x80) i += 1
        else {
          val length = utf8Length(i)
          if (length < 0) return -1
          i += length
        }
      }
      -1
    }

    private def hex(c: Byte): Boolean = digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')

    // The UTF-16 unit of the escape at `i` (a backslash, `u` and four hex digits); -1 when there is none.
    private def unit(i: Int): Int =
      if (
        i + 6 <= n && data(i) == '\\' && data(i + 1) == 'u' && (i + 2 until i + 6).forall(k => hex(data(k)))
      )
        Integer.parseInt(new String(data, i + 2, 4, java.nio.charset.StandardCharsets.US_ASCII), 16)
      else -1

    // RFC 3629's table: after the lead byte, the range of the second byte (no overlong form, no surrogate,
    // nothing past U+10FFFF), and any continuation byte after that.
    private def utf8Length(i: Int): Int = {
      val b = data(i) & 0xff
      val (more, low, high) =
        if (b >= 0xc2 && b <= 0xdf) (1, 0x80, 0xbf)
        else if (b == 0xe0) (2, 0xa0, 0xbf)
        else if (b == 0xed) (2, 0x80, 0x9f)
        else if (b >= 0xe1 && b <= 0xef) (2, 0x80, 0xbf)
        else if (b == 0xf0) (3, 0x90, 0xbf)
        else if (b == 0xf4) (3, 0x80, 0x8f)
        else if (b >= 0xf1 && b <= 0xf3) (3, 0x80, 0xbf)
        else (-1, 0, 0)
      if (more < 0 || i + more >= n) -1
      else if ((data(i + 1) & 0xff) < low || (data(i + 1) & 0xff) > high) -1
      else if ((2 to more).forall(k => (data(i + k) & 0xc0) == 0x80)) more + 1
      else -1
    }

    private def literal(i: Int, word: String): Int =
      if (i + word.length <= n && word.indices.forall(k => data(i + k) == word.charAt(k))) i + word.length
      else -1

    private def number(from: Int): Int = {
      var i = from
      if (data(i) == '-') i += 1
      if (i >= n || !digit(data(i))) return -1
      if (data(i) == '0') i += 1
      else while (i < n && digit(data(i))) i += 1
      if (i < n && data(i) == '.') {
        i += 1
        val digits = i
        while (i < n && digit(data(i))) i += 1
        if (i == digits) return -1
      }
      if (i < n && (data(i) == 'e' || data(i) == 'E')) {
        i += 1
        if (i < n && (data(i) == '+' || data(i) == '-')) i += 1
        val digits = i
        while (i < n && digit(data(i))) i += 1
        if (i == digits) return -1
      }
      i
    }
  }
}
