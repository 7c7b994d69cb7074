package sparkdrill.reader

/** Allocation-free parsing of the common spellings of ISO dates and ISO timestamps straight from bytes (doubles:
  * [[sparkdrill.reader.FastDouble]]). Each parser answers exactly what the JDK would, or declines (returns a
  * sentinel) so the caller can ask the JDK: they only make the frequent case fast, never change an answer.
  */
private[sparkdrill] object FastText {

  private def digits(b: Array[Byte], from: Int, count: Int): Int = {
    var v = 0
    var i = from
    while (i < from + count) {
      val d = b(i) - '0'
      if (d < 0 || d > 9) return -1
      v = v * 10 + d
      i += 1
    }
    v
  }

  /** `yyyy-MM-dd` (a real date) as days since 1970-01-01; Int.MinValue for any other text. */
  def isoDate(b: Array[Byte], s: Int, n: Int): Int = {
    if (n != 10 || b(s + 4) != '-' || b(s + 7) != '-') return Int.MinValue
    val y = digits(b, s, 4)
    val m = digits(b, s + 5, 2)
    val d = digits(b, s + 8, 2)
    if (y < 0 || m < 1 || m > 12 || d < 1 || d > lengthOfMonth(y, m)) Int.MinValue
    else epochDay(y, m, d).toInt
  }

  private def isLeap(y: Int): Boolean = (y % 4 == 0) && (y % 100 != 0 || y % 400 == 0)

  private def lengthOfMonth(y: Int, m: Int): Int = m match {
    case 2 => if (isLeap(y)) 29 else 28
    case 4 | 6 | 9 | 11 => 30
    case _ => 31
  }

  // Days from 1970-01-01 to a valid proleptic Gregorian date (the civil-from-days inverse).
  private def epochDay(y0: Int, m: Int, d: Int): Long = {
    val y = if (m <= 2) y0 - 1 else y0
    val era = (if (y >= 0) y else y - 399) / 400
    val yoe = y - era * 400
    val doy = (153 * (if (m > 2) m - 3 else m + 9) + 2) / 5 + d - 1
    val doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    era.toLong * 146097 + doe - 719468
  }

  /** `out(3)` after [[isoDateTime]] when the text has no offset. */
  final val NoOffset = Long.MinValue

  /** Fields of an ISO date-time: `yyyy-MM-dd[T ]HH:mm[:ss[.fraction]]` (1 to 9 fraction digits) with an
    * optional offset `Z` or `+hh:mm`/`-hh:mm` (at most 18:00, as java.time takes), or a bare `yyyy-MM-dd`
    * (midnight). Fills `out` (4 longs) with epoch day, second of day and nano of second of the local part, and
    * the offset in seconds ([[NoOffset]]: none); false for any other text (impossible dates, times and offsets
    * included; `+hhmm`, seconds in the offset and lower-case letters are left to java.time).
    */
  def isoDateTime(b: Array[Byte], s: Int, n: Int, out: Array[Long]): Boolean = {
    out(3) = NoOffset
    if (n == 10) {
      val day = isoDate(b, s, n)
      if (day == Int.MinValue) return false
      out(0) = day; out(1) = 0; out(2) = 0
      return true
    }
    if (n < 16) return false
    val sep = b(s + 10)
    if ((sep != 'T' && sep != ' ') || b(s + 13) != ':') return false
    val day = isoDate(b, s, 10)
    val h = digits(b, s + 11, 2)
    val mi = digits(b, s + 14, 2)
    if (day == Int.MinValue || h < 0 || h > 23 || mi < 0 || mi > 59) return false
    val end = s + n
    var i = s + 16
    var sec = 0
    var nanos = 0
    if (i < end && b(i) == ':') {
      if (i + 3 > end) return false
      sec = digits(b, i + 1, 2)
      if (sec < 0 || sec > 59) return false
      i += 3
      if (i < end && b(i) == '.') {
        val from = i + 1
        var j = from
        while (j < end && j - from < 10 && b(j) >= '0' && b(j) <= '9') j += 1
        val fraction = j - from
        if (fraction < 1 || fraction > 9) return false
        nanos = digits(b, from, fraction) * pow10(9 - fraction)
        i = j
      }
    }
    if (i < end) {
      val offset = isoOffset(b, i, end - i)
      if (offset == NoOffset) return false
      out(3) = offset
    }
    out(0) = day
    out(1) = h * 3600L + mi * 60L + sec
    out(2) = nanos
    true
  }

  // `Z` or `+hh:mm`/`-hh:mm` within java.time's ±18:00, in seconds; NoOffset for anything else.
  private def isoOffset(b: Array[Byte], s: Int, n: Int): Long =
    if (n == 1 && b(s) == 'Z') 0L
    else if (n == 6 && (b(s) == '+' || b(s) == '-') && b(s + 3) == ':') {
      val h = digits(b, s + 1, 2)
      val m = digits(b, s + 4, 2)
      val seconds = h * 3600L + m * 60L
      if (h < 0 || m < 0 || m > 59 || seconds > 18 * 3600L) NoOffset
      else if (b(s) == '-') -seconds
      else seconds
    } else NoOffset

  private def pow10(k: Int): Int = {
    var v = 1
    var i = 0
    while (i < k) { v *= 10; i += 1 }
    v
  }
}
