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

  /** Fields of an ISO local date-time: `yyyy-MM-dd[T ]HH:mm[:ss[.fraction]]` (1 to 9 fraction digits), or a
    * bare `yyyy-MM-dd` (midnight). Fills `out` with epoch day, second of day and nano of second; false for any
    * other text (including impossible dates and times).
    */
  def isoDateTime(b: Array[Byte], s: Int, n: Int, out: Array[Long]): Boolean = {
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
    var sec = 0
    var nanos = 0
    if (n > 16) {
      if (n < 19 || b(s + 16) != ':') return false
      sec = digits(b, s + 17, 2)
      if (sec < 0 || sec > 59) return false
      if (n > 19) {
        val fraction = n - 20
        if (b(s + 19) != '.' || fraction < 1 || fraction > 9) return false
        val f = digits(b, s + 20, fraction)
        if (f < 0) return false
        nanos = f * pow10(9 - fraction)
      }
    }
    out(0) = day
    out(1) = h * 3600L + mi * 60L + sec
    out(2) = nanos
    true
  }

  private def pow10(k: Int): Int = {
    var v = 1
    var i = 0
    while (i < k) { v *= 10; i += 1 }
    v
  }
}
