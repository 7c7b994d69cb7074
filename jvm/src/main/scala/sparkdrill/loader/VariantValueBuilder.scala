package sparkdrill.loader

/** Builds one VARIANT value at a time in Spark's variant encoding, as a reader walks a record: scalars,
  * objects (`startObject`, then `key` before each member's value, `endObject`) and arrays (`startArray`,
  * `element` before each element, `endArray`), then [[writeTo]] a column. Made by [[VariantTypes.builder]]
  * on Spark 4 (over Spark's own `VariantBuilder`, so the bytes are `parse_json`'s).
  */
private[sparkdrill] trait VariantValueBuilder {
  def appendNull(): Unit
  def appendBoolean(v: Boolean): Unit

  /** The smallest integer type that holds `v`, as `parse_json` picks it. */
  def appendLong(v: Long): Unit
  def appendDouble(v: Double): Unit

  /** A decimal of at most 38 digits and scale 38. */
  def appendDecimal(v: java.math.BigDecimal): Unit

  /** A JSON number that is not a long, by `parse_json`'s rule: a decimal when written without an exponent in
    * at most 38 digits (and scale), else `double`.
    */
  final def appendNumber(text: String, double: => Double): Unit = {
    val plain = text.forall(ch => ch == '-' || ch == '.' || (ch >= '0' && ch <= '9'))
    val d = if (plain) new java.math.BigDecimal(text) else null
    if (
      d != null && d.scale <= VariantValueBuilder.MaxDecimalDigits && d.precision <= VariantValueBuilder.MaxDecimalDigits
    )
      appendDecimal(d)
    else appendDouble(double)
  }
  def appendString(v: String): Unit

  /** Days since 1970-01-01. */
  def appendDate(days: Int): Unit

  /** Microseconds since the epoch, an instant (`ntz` false) or a local date-time. */
  def appendTimestamp(micros: Long, ntz: Boolean): Unit

  def startObject(): Unit
  def key(name: String): Unit

  /** Ends the innermost object; a key it holds twice throws [[VariantValueError]] unless duplicates are
    * allowed (then the last one is kept).
    */
  def endObject(): Unit
  def startArray(): Unit
  def element(): Unit
  def endArray(): Unit

  /** Writes the value built into `w` and starts the next value. */
  def writeTo(w: ColumnWriter): Unit

  /** Drops what was built of the current value (a record read again from its start). */
  def clear(): Unit
}

/** A value that cannot be a VARIANT: an object with a key twice (`duplicateKey`), or one past Spark's size
  * limit. A reader makes its record malformed.
  */
private[sparkdrill] final class VariantValueError(message: String, val duplicateKey: Option[String])
    extends RuntimeException(message)

private[sparkdrill] object VariantValueBuilder {

  /** Objects and arrays nested in one value: deeper than any reader here nests (Jackson's reader refuses
    * past 1,000).
    */
  val MaxDepth: Int = 1100

  /** The widest decimal a VARIANT holds (DECIMAL16). */
  val MaxDecimalDigits = 38
}
