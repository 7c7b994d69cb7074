package sparkdrill.formats.text

import sparkdrill.reader.ReaderOptions

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
    val quote = options(TextOptions.Quote)
    CsvSettings(
      delimiter = options.get(TextOptions.Delimiter).getOrElse(defaultDelimiter(format)),
      quote = quote,
      // Drill's default: a doubled quote inside quotes is one quote; a backslash means nothing.
      escape = options.get(TextOptions.Escape).getOrElse(quote),
      comment = options(TextOptions.Comment),
      lineDelimiter = options.get(TextOptions.LineDelimiter).getOrElse(AutoLineEnd),
      header = options(TextOptions.Header),
      skipFirstLine = options(TextOptions.SkipFirstLine)
    )
  }
}
