package sparkdrill.formats.text

import sparkdrill.formats.ReaderOptions

/** How one text file is tokenised: the byte that separates fields, quotes them and escapes a quote, the
  * optional comment byte, and the record separator. `AnyLineEnd` accepts `\n`, `\r\n` and `\r`.
  */
final case class CsvSettings(
    delimiter: Byte,
    quote: Int,
    escape: Int,
    comment: Int,
    lineDelimiter: Array[Byte],
    header: Boolean,
    skipFirstLine: Boolean
) {
  def autoLineEnd: Boolean = lineDelimiter.isEmpty
}

object CsvSettings {
  val None: Int = -1
  val AutoLineEnd: Array[Byte] = Array.emptyByteArray

  /** Default field delimiter of each text format. */
  def defaultDelimiter(format: String): Byte = format match {
    case "tsv" => '\t'
    case "psv" => '|'
    case _ => ','
  }

  def from(format: String, options: ReaderOptions): CsvSettings = {
    val delimiter = options
      .get("delimiter")
      .orElse(options.get("sep"))
      .orElse(options.get("fieldDelimiter"))
      .map(singleByte("delimiter", _))
      .getOrElse(defaultDelimiter(format))
    val quote = options.get("quote").map(optionalByte("quote", _)).getOrElse('"'.toInt)
    // Drill's default: a doubled quote inside quotes is one quote; a backslash means nothing.
    val escape = options.get("escape").map(optionalByte("escape", _)).getOrElse(quote)
    val comment = options.get("comment").map(optionalByte("comment", _)).getOrElse(None)
    val lineDelimiter = options
      .get("lineDelimiter")
      .orElse(options.get("lineSep"))
      .map { s =>
        val bytes = unescape(s).getBytes("UTF-8")
        require(
          bytes.length >= 1 && bytes.length <= 2,
          s"option 'lineDelimiter' must be 1 or 2 bytes, got '$s'"
        )
        bytes
      }
      .getOrElse(AutoLineEnd)
    CsvSettings(
      delimiter,
      quote,
      escape,
      comment,
      lineDelimiter,
      header = options.boolean("header", default = false),
      skipFirstLine = options.boolean("skipFirstLine", default = false)
    )
  }

  /** Option values may spell control characters as `\t`, `\n`, `\r`, `\\`, or `\u0001`. */
  def unescape(s: String): String = {
    val out = new StringBuilder
    var i = 0
    while (i < s.length) {
      val c = s.charAt(i)
      if (c == '\\' && i + 1 < s.length) {
        s.charAt(i + 1) match {
          case 't' => out.append('\t'); i += 2
          case 'n' => out.append('\n'); i += 2
          case 'r' => out.append('\r'); i += 2
          case '\\' => out.append('\\'); i += 2
          case 'u' if i + 5 < s.length =>
            out.append(Integer.parseInt(s.substring(i + 2, i + 6), 16).toChar); i += 6
          case _ => out.append(c); i += 1
        }
      } else { out.append(c); i += 1 }
    }
    out.toString
  }

  private def singleByte(name: String, raw: String): Byte = {
    val s = unescape(raw)
    val bytes = s.getBytes("UTF-8")
    require(
      bytes.length == 1,
      s"option '$name' must be a single one-byte character, got '$raw' (${bytes.length} bytes)"
    )
    bytes(0)
  }

  private def optionalByte(name: String, raw: String): Int =
    if (raw.isEmpty) None else singleByte(name, raw).toInt & 0xff
}
