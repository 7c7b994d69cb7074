package sparkdrill.formats.json

/** The escapes of a string the cursor has scanned and checked ([[JsonCursor.string]]), decoded: its text as
  * UTF-8 in [[decoded]]. A surrogate escape that is not a pair (`\\ud800`) throws [[GiveUp]], as the cursor's
  * check already did: Jackson's reader then finds the record malformed ([[JsonText]]).
  */
private[json] final class JsonEscapes {

  /** The buffer [[decode]] writes into; it grows, so read it after [[decode]] returns. */
  var decoded: Array[Byte] = new Array[Byte](256)

  /** The string `buf(from until until)` (without its quotes) decoded into [[decoded]]; its length. */
  def decode(buf: Array[Byte], from: Int, until: Int): Int = {
    if (decoded.length < until - from) decoded = new Array[Byte](math.max(until - from, decoded.length * 2))
    var n = 0
    var p = from
    while (p < until) {
      val b = buf(p)
      if (b != '\\') {
        decoded(n) = b
        n += 1
        p += 1
      } else {
        buf(p + 1) match {
          case 'u' =>
            var c = JsonEscapes.hex(buf, p + 2)
            p += 6
            if (c >= 0xd800 && c <= 0xdbff) { // a surrogate pair, as two escapes
              if (p + 6 > until || buf(p) != '\\' || buf(p + 1) != 'u') throw GiveUp
              val low = JsonEscapes.hex(buf, p + 2)
              if (low < 0xdc00 || low > 0xdfff) throw GiveUp
              c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00)
              p += 6
            } else if (c >= 0xdc00 && c <= 0xdfff) throw GiveUp
            n = encode(c, n)
          case e =>
            decoded(n) = (e: @annotation.switch) match {
              case 'b' => '\b'
              case 'f' => '\f'
              case 'n' => '\n'
              case 'r' => '\r'
              case 't' => '\t'
              case other => other.toByte // '"', '\\', '/'
            }
            n += 1
            p += 2
        }
      }
    }
    n
  }

  // Code point `c` as UTF-8 into `decoded` at `n` (an escape of 6 or 12 bytes never decodes longer); the
  // index after it.
  private def encode(c: Int, n: Int): Int =
    if (c < 0x80) { decoded(n) = c.toByte; n + 1 }
    else if (c < 0x800) {
      decoded(n) = (0xc0 | c >> 6).toByte
      decoded(n + 1) = (0x80 | c & 0x3f).toByte
      n + 2
    } else if (c < 0x10000) {
      decoded(n) = (0xe0 | c >> 12).toByte
      decoded(n + 1) = (0x80 | c >> 6 & 0x3f).toByte
      decoded(n + 2) = (0x80 | c & 0x3f).toByte
      n + 3
    } else {
      decoded(n) = (0xf0 | c >> 18).toByte
      decoded(n + 1) = (0x80 | c >> 12 & 0x3f).toByte
      decoded(n + 2) = (0x80 | c >> 6 & 0x3f).toByte
      decoded(n + 3) = (0x80 | c & 0x3f).toByte
      n + 4
    }
}

private[json] object JsonEscapes {

  /** The four hex digits at `p` (all at hand) as a UTF-16 unit; -1 when one is not a hex digit. */
  def hex(buf: Array[Byte], p: Int): Int = {
    var v = 0
    var i = p
    while (i < p + 4) {
      val b = buf(i)
      val d =
        if (b >= '0' && b <= '9') b - '0'
        else if (b >= 'a' && b <= 'f') b - 'a' + 10
        else if (b >= 'A' && b <= 'F') b - 'A' + 10
        else return -1
      v = v << 4 | d
      i += 1
    }
    v
  }
}
