package sparkdrill.scan

import java.time.{LocalDate, LocalDateTime, ZoneId}
import java.util.Locale

import org.apache.spark.sql.catalyst.util.DateTimeUtils
import org.apache.spark.sql.execution.vectorized.ConstantColumnVector
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.formats.ColumnMetadata

/** The value a NOT NULL column takes in a file that lacks it: its default, else its type's zero (Drill's
  * 0, "", false, 1970-01-01).
  */
object ConstantValues {

  def setMissing(v: ConstantColumnVector, field: StructField, zone: ZoneId): Unit = {
    val default =
      if (field.metadata.contains(ColumnMetadata.DefaultKey))
        Some(field.metadata.getString(ColumnMetadata.DefaultKey))
      else None
    try set(v, field.dataType, default, zone)
    catch {
      case e: RuntimeException =>
        throw new IllegalArgumentException(
          s"the default '${default.getOrElse("")}' of column '${field.name}' is not a ${field.dataType.simpleString}",
          e
        )
    }
  }

  private def set(v: ConstantColumnVector, t: DataType, text: Option[String], zone: ZoneId): Unit = t match {
    case IntegerType => v.setInt(text.map(_.trim.toInt).getOrElse(0))
    case ShortType => v.setShort(text.map(_.trim.toShort).getOrElse(0.toShort))
    case ByteType => v.setByte(text.map(_.trim.toByte).getOrElse(0.toByte))
    case LongType => v.setLong(text.map(_.trim.toLong).getOrElse(0L))
    case DoubleType => v.setDouble(text.map(_.trim.toDouble).getOrElse(0.0))
    case FloatType => v.setFloat(text.map(_.trim.toFloat).getOrElse(0.0f))
    case BooleanType =>
      v.setBoolean(text.map(_.trim.toLowerCase(Locale.ROOT)).exists(Set("true", "t", "yes", "y", "1")))
    case StringType => v.setUtf8String(UTF8String.fromString(text.getOrElse("")))
    case DateType => v.setInt(text.map(s => LocalDate.parse(s.trim).toEpochDay.toInt).getOrElse(0))
    case TimestampType =>
      v.setLong(
        text.map(s => DateTimeUtils.instantToMicros(parseTimestamp(s).atZone(zone).toInstant)).getOrElse(0L)
      )
    case TimestampNTZType =>
      v.setLong(text.map(s => DateTimeUtils.localDateTimeToMicros(parseTimestamp(s))).getOrElse(0L))
    case d: DecimalType =>
      v.setDecimal(Decimal(BigDecimal(text.map(_.trim).getOrElse("0")), d.precision, d.scale), d.precision)
    case _ => v.setNull()
  }

  /** Sets a Spark internal value (`UTF8String`, boxed Int for dates, boxed Long micros for timestamps,
    * `Decimal`, ...) of the vector's type; null sets null.
    */
  def setInternal(v: ConstantColumnVector, value: Any): Unit =
    if (value == null) v.setNull()
    else
      (v.dataType(), value) match {
        case (StringType, s: UTF8String) => v.setUtf8String(s)
        case (BinaryType, b: Array[Byte]) => v.setBinary(b)
        case (BooleanType, b: java.lang.Boolean) => v.setBoolean(b)
        case (ByteType, n: java.lang.Byte) => v.setByte(n)
        case (ShortType, n: java.lang.Short) => v.setShort(n)
        case (IntegerType | DateType, n: java.lang.Integer) => v.setInt(n)
        case (LongType | TimestampType | TimestampNTZType, n: java.lang.Long) => v.setLong(n)
        case (FloatType, n: java.lang.Float) => v.setFloat(n)
        case (DoubleType, n: java.lang.Double) => v.setDouble(n)
        case (d: DecimalType, n: Decimal) => v.setDecimal(n, d.precision)
        case (t, other) =>
          throw new IllegalArgumentException(
            s"a ${other.getClass.getSimpleName} cannot be a constant of type ${t.simpleString}"
          )
      }

  private def parseTimestamp(s: String): LocalDateTime = {
    val t = s.trim
    if (t.length == 10) LocalDate.parse(t).atStartOfDay() else LocalDateTime.parse(t.replace(' ', 'T'))
  }
}
