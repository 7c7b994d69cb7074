package sparkdrill.reader

import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.loader.ColumnWriter
import sparkdrill.errors.DrillErrors

/** Writes a NOT NULL column's fill (its DEFAULT, else its type's zero), which the scan hands over as a Spark
  * internal value (see [[SchemaNegotiator.fill]]): nothing to parse on the executor.
  */
object Fills {

  /** The zero of a type: what a NOT NULL column without a DEFAULT holds where there is no value, as Drill
    * does (0, false, "", empty binary, 0 at the decimal's scale, 1970-01-01, the epoch), as a Spark internal
    * value; null for a nested type (no single value writes one: the scan's constant is Spark's own empty
    * array, map or struct). The one definition: the scan's fills, the readers' NOT NULL values and a JSON
    * array's null elements where the array holds no nulls all use it.
    */
  def zero(dataType: DataType): Any = dataType match {
    case IntegerType | DateType => 0
    case ShortType => 0.toShort
    case ByteType => 0.toByte
    case LongType | TimestampType | TimestampNTZType => 0L
    case DoubleType => 0.0
    case FloatType => 0.0f
    case BooleanType => false
    case d: DecimalType => Decimal(BigDecimal(0), d.precision, d.scale)
    case StringType => UTF8String.EMPTY_UTF8
    case BinaryType => Array.emptyByteArray
    case _ => null
  }

  /** A writer of `field`'s zero (null for a nested type). */
  def zeroWriter(field: StructField): ColumnWriter => Unit = writer(field, zero(field.dataType))

  /** Writes the zero of `w`'s type into `w`. */
  def writeZero(w: ColumnWriter): Unit = zeroWriter(w.field)(w)

  /** A writer of `value` (an internal value of `field`'s type, or null) into `field`'s column. */
  def writer(field: StructField, value: Any): ColumnWriter => Unit = (field.dataType, value) match {
    case (_, null) => _.setNull()
    case (IntegerType | DateType, v: Int) => _.setInt(v)
    case (ShortType, v: Short) => _.setInt(v.toInt)
    case (ByteType, v: Byte) => _.setInt(v.toInt)
    case (LongType | TimestampType | TimestampNTZType, v: Long) => _.setLong(v)
    case (DoubleType, v: Double) => _.setDouble(v)
    case (FloatType, v: Float) => _.setDouble(v.toDouble)
    case (BooleanType, v: Boolean) => _.setBoolean(v)
    case (_: DecimalType, v: Decimal) => _.setDecimal(v)
    case (StringType, v: UTF8String) =>
      val bytes = v.getBytes
      _.setBytes(bytes, 0, bytes.length)
    case (BinaryType, v: Array[Byte]) => _.setBytes(v, 0, v.length)
    case (t, v) =>
      throw DrillErrors.internalArgument(
        s"column '${field.name}': a ${v.getClass.getSimpleName} cannot fill a ${t.simpleString} column"
      )
  }
}
