package sparkdrill.reader

/** The common spellings of a double straight from bytes, without allocating: the answer `Double.parseDouble`
  * gives, or a decline (false) so that the caller asks the JDK. Shared by the readers (CSV fields, JSON
  * numbers), which only make the frequent case fast this way, never change an answer.
  */
private[sparkdrill] object FastDouble {

  // Powers of ten that are exact doubles.
  private val exactPowers: Array[Double] = Array.tabulate(23)(i => math.pow(10, i))
  private val MaxExactMantissa = 1L << 53

  /** Parses `[+-]digits[.digits][(e|E)[+-]digits]` into `out(0)` when the result is certainly the correctly
    * rounded double (Clinger's fast path: a mantissa below 2^53 and a power of ten up to 10^22); false when
    * the text has another shape or needs the JDK's full algorithm.
    */
  def parse(b: Array[Byte], s: Int, n: Int, out: Array[Double]): Boolean = {
    val end = s + n
    var i = s
    val negative = b(i) == '-'
    if (negative || b(i) == '+') i += 1
    // The integer digits, then the fraction's: at most 15 digits in all keep the mantissa below 2^53 (checked
    // once, not per digit), and no test for the point inside either loop.
    val intStart = i
    var mantissa = 0L
    var d = 0
    while (i < end && { d = b(i) - '0'; d >= 0 && d <= 9 }) {
      mantissa = mantissa * 10 + d
      i += 1
    }
    var digits = i - intStart
    var fractionDigits = 0
    if (i < end && b(i) == '.') {
      i += 1
      val fractionStart = i
      while (i < end && { d = b(i) - '0'; d >= 0 && d <= 9 }) {
        mantissa = mantissa * 10 + d
        i += 1
      }
      fractionDigits = i - fractionStart
      digits += fractionDigits
    }
    if (digits == 0 || digits > 15) return false
    var exponent = 0
    if (i < end) {
      if (b(i) != 'e' && b(i) != 'E') return false
      i += 1
      val negativeExponent = i < end && b(i) == '-'
      if (i < end && (b(i) == '-' || b(i) == '+')) i += 1
      if (i == end || end - i > 3) return false
      while (i < end) {
        if (!isDigit(b(i))) return false
        exponent = exponent * 10 + (b(i) - '0')
        i += 1
      }
      if (negativeExponent) exponent = -exponent
    }
    val power = exponent - fractionDigits
    val magnitude =
      if (mantissa == 0) 0.0
      else if (power >= 0 && power <= 22) mantissa.toDouble * exactPowers(power)
      else if (power < 0 && power >= -22) mantissa.toDouble / exactPowers(-power)
      else return false
    if (mantissa >= MaxExactMantissa) return false
    out(0) = if (negative) -magnitude else magnitude
    true
  }

  @inline private def isDigit(c: Byte): Boolean = c >= '0' && c <= '9'
}
