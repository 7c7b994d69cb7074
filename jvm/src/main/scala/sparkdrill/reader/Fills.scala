package sparkdrill.reader

import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.loader.ColumnWriter

/** Writes a NOT NULL column's fill (its DEFAULT, else its type's zero), which the scan hands over as a Spark
  * internal value (see [[SchemaNegotiator.fill]]): nothing to parse on the executor.
  */
object Fills {

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
      throw new IllegalArgumentException(
        s"column '${field.name}': a ${v.getClass.getSimpleName} cannot fill a ${t.simpleString} column"
      )
  }
}
