package sparkdrill.formats.json

import java.time.{LocalDate, LocalDateTime, ZoneId}

import org.apache.spark.sql.catalyst.util.DateTimeUtils
import org.apache.spark.sql.types._
import sparkdrill.errors.DrillErrors

/** The conversions both JSON readers share ([[JsonValueWriter]] over Jackson's tokens, [[ByteRecordWriter]]
  * over bytes), so that they convert alike. A value that does not convert throws an
  * IllegalArgumentException, an ArithmeticException or a DateTimeException.
  */
private[json] object JsonScalars {

  /** A decimal at the column's scale (rounded half up), when it fits the column's precision. */
  def decimal(v: java.math.BigDecimal, t: DecimalType): Decimal = {
    val scaled = v.setScale(t.scale, java.math.RoundingMode.HALF_UP)
    if (scaled.precision > t.precision)
      throw new ArithmeticException(s"$v does not fit ${t.simpleString}")
    Decimal(scaled, t.precision, t.scale)
  }

  /** A timestamp's text (trimmed) as microseconds: with a zone (`Z`, `+hh:mm`) an instant, else a local time
    * in `zone`; `local` (timestamp_ntz) takes no zone.
    */
  def timestamp(text: String, zone: ZoneId, local: Boolean): Long =
    if (text.endsWith("Z") || endsWithOffset(text)) {
      if (local) throw DrillErrors.internalArgument("a zone in a timestamp_ntz")
      DateTimeUtils.instantToMicros(java.time.OffsetDateTime.parse(text.replace(' ', 'T')).toInstant)
    } else {
      val ldt =
        if (text.length == 10) LocalDate.parse(text).atStartOfDay()
        else LocalDateTime.parse(text.replace(' ', 'T'))
      if (local) DateTimeUtils.localDateTimeToMicros(ldt)
      else DateTimeUtils.instantToMicros(ldt.atZone(zone).toInstant)
    }

  // Whether the text ends with a zone offset, `+hh:mm` or `+hhmm` (or `-`). Tested by hand: `String.matches`
  // compiled its pattern for every timestamp value.
  private def endsWithOffset(t: String): Boolean = {
    val n = t.length
    def digit(i: Int) = i >= 0 && t.charAt(i) >= '0' && t.charAt(i) <= '9'
    def sign(i: Int) = i >= 0 && (t.charAt(i) == '+' || t.charAt(i) == '-')
    digit(n - 1) && digit(n - 2) && (
      (n >= 3 && t.charAt(n - 3) == ':' && digit(n - 4) && digit(n - 5) && sign(n - 6)) ||
        (digit(n - 3) && digit(n - 4) && sign(n - 5))
    )
  }
}
