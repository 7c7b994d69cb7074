package sparkdrill.formats.text

/** The CSV parser's scans for where a run of field bytes, or a whole record for count(*), ends. With the usual
  * line ends (`\n`, `\r\n`, `\r`) or a one-byte line delimiter, and the quote doubled to escape it (the default)
  * or quoting off, they go a word at a time ([[ByteSearch]]); a custom line end or escape takes a table load
  * per byte.
  *
  * @param lineEnd the first byte of the line delimiter; negative for the usual line ends
  * @param vector the Vector API search ([[VectorScan]]) for count(*)'s scan, a vector at a time: records run
  *   to a hundred bytes and more between the bytes that scan stops at, fields (the other scans) a few
  */
private[text] final class WordScan(
    delimiter: Byte,
    quote: Int,
    escape: Int,
    lineEnd: Int,
    vector: Option[ByteFinder] = None
) {
  private val auto = lineEnd < 0
  private val delim = delimiter & 0xff
  private val delimiterWord = ByteSearch.broadcast(delimiter)
  private val lineFeedWord = ByteSearch.broadcast('\n')
  private val carriageReturnWord = ByteSearch.broadcast('\r')
  private val quoteWord = ByteSearch.broadcast(quote)
  // Outside quotes the scan stops at the quote and the line ends (a line end twice when there is one).
  private val (endA, endB) = if (auto) ('\n'.toInt, '\r'.toInt) else (lineEnd, lineEnd)
  private val plainA = ByteSearch.broadcast(if (quote >= 0) quote else endA)
  private val plainB = ByteSearch.broadcast(endA)
  private val plainC = ByteSearch.broadcast(endB)
  // Bytes that end a run of field bytes, outside and inside quotes, for the scans by table.
  private val plainStops = table(Seq(delim, '\n', '\r', endA))
  private val quotedStops = table(Seq(quote, escape, '\n', '\r', endA))
  private val quotedByWords = auto && quote >= 0 && escape == quote

  private def table(bytes: Seq[Int]): Array[Boolean] = {
    val t = new Array[Boolean](256)
    bytes.filter(b => b >= 0 && b < 256).foreach(t(_) = true)
    t
  }

  private def isLineEnd(b: Int): Boolean = b == endA || b == endB

  /** Where a run of plain field bytes from `from` ends: at the delimiter or a line end (`lim` if neither comes
    * first). Most fields are a few bytes, found in one word.
    */
  def plainEnd(buf: Array[Byte], from: Int, lim: Int): Int =
    if (auto) ByteSearch.indexOfAny(buf, from, lim, delimiterWord, lineFeedWord, carriageReturnWord)
    else byTable(buf, from, lim, plainStops)

  /** Where a run of bytes inside quotes from `from` ends: at the quote, an escape or a line end (`lim` if none
    * comes first).
    */
  def quotedEnd(buf: Array[Byte], from: Int, lim: Int): Int =
    if (quotedByWords) ByteSearch.indexOfAny(buf, from, lim, quoteWord, lineFeedWord, carriageReturnWord)
    else byTable(buf, from, lim, quotedStops)

  private def byTable(buf: Array[Byte], from: Int, lim: Int, stops: Array[Boolean]): Int = {
    var p = from
    while (p < lim && !stops(buf(p) & 0xff)) p += 1
    p
  }

  /** For count(*): the index of the line end that ends the record starting at `from`, when the record is
    * unquoted text and quoted fields that close right before a delimiter or a line end, with no line end or
    * blank to judge inside or around them. -1 for anything else (a quote after blanks, a line end in quotes,
    * a quote followed by other text, the end of `lim`): the byte reader reads that record.
    */
  def recordEnd(buf: Array[Byte], from: Int, lim: Int): Int = {
    var p = from
    while (true) {
      p = search(buf, p, lim, plainA, plainB, plainC)
      if (p >= lim) return -1
      if ((buf(p) & 0xff) != quote) return p // a line end
      val before = if (p == from) delim else buf(p - 1) & 0xff
      if (before == ' ' || before == '\t') return -1
      p += 1
      if (before == delim) { // a quote that opens a field: find the quote that closes it
        var open = true
        while (open) {
          p = search(buf, p, lim, quoteWord, lineFeedWord, carriageReturnWord)
          if (p + 1 >= lim || (buf(p) & 0xff) != quote) return -1
          val after = buf(p + 1) & 0xff
          if (after == quote) p += 2 // an escaped quote
          else if (after == delim || isLineEnd(after)) { p += 1; open = false }
          else return -1
        }
      } // else a quote inside an unquoted field is data
    }
    -1
  }

  @inline private def search(buf: Array[Byte], from: Int, lim: Int, a: Long, b: Long, c: Long): Int =
    vector match {
      case Some(finder) => finder.indexOfAny(buf, from, lim, a.toByte, b.toByte, c.toByte)
      case None => ByteSearch.indexOfAny(buf, from, lim, a, b, c)
    }
}
