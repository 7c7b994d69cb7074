package sparkdrill.scan

import org.apache.spark.sql.execution.vectorized.ConstantColumnVector
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import sparkdrill.errors.DrillErrors

/** Per-file constants into Spark's constant vectors. */
private[sparkdrill] object ConstantValues {

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
          throw DrillErrors.internalArgument(
            s"a ${other.getClass.getSimpleName} cannot be a constant of type ${t.simpleString}"
          )
      }
}
