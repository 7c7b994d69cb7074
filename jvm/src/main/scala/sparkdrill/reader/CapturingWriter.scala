package sparkdrill.reader

import java.nio.charset.StandardCharsets

import org.apache.spark.sql.types._

import sparkdrill.loader.{ArrayWriter, ColumnWriter, MapWriter, TupleWriter}
import sparkdrill.errors.DrillErrors

/** A filter column's writer: forwards every value to the loader's writer and keeps the last one written in
  * the current record, as the loader stores it, for a [[BoundRowFilter]] to judge. Integral kinds (boolean
  * as 0/1, byte, short, int, long, date, timestamp) are kept as a long, float and double as a double (a
  * float narrowed first, as its vector holds it), strings as UTF-8 bytes.
  */
private[reader] final class CapturingWriter(val underlying: ColumnWriter) extends ColumnWriter {
  import CapturingWriter._

  /** What the current record wrote: [[Unwritten]], [[NullValue]], [[LongValue]], [[DoubleValue]],
    * [[BytesValue]], or [[Unknown]] (a value the filter does not compare).
    */
  var state: Int = Unwritten
  var long: Long = 0L
  var double: Double = 0.0

  /** A string's bytes, `length` of them from 0. Copied: the caller may reuse its array once a setter returns
    * (the writer contract says the bytes are copied), and the filter is asked later.
    */
  var bytes: Array[Byte] = new Array[Byte](64)
  var length: Int = 0

  private val nullable = underlying.field.nullable
  private val narrowing: DataType = underlying.dataType
  private val isString = underlying.dataType == StringType

  /** Starts a record: nothing written yet. */
  def reset(): Unit = state = Unwritten

  /** Whether values go on to the loader's writer too, or are only kept for the filter: a reader that reads a
    * record for the filter alone before it starts a row writes nothing into the loader then.
    */
  var forwarding = true

  /** Whether a column that was not written holds null after the row is saved: the loader fills it with null,
    * or, NOT NULL, with a value the filter does not know (its DEFAULT or zero, written by the scan).
    */
  def unwrittenIsNull: Boolean = nullable

  private def keepLong(v: Long): Unit = { long = v; state = LongValue }

  // What a byte or short vector keeps of an int.
  private def narrow(v: Int): Long = narrowing match {
    case ByteType => v.toByte.toLong
    case ShortType => v.toShort.toLong
    case _ => v.toLong
  }

  private def keepBytes(b: Array[Byte], offset: Int, n: Int): Unit = {
    if (bytes.length < n) bytes = new Array[Byte](math.max(n, 2 * bytes.length))
    System.arraycopy(b, offset, bytes, 0, n)
    length = n
    state = BytesValue
  }

  def field: StructField = underlying.field
  def isProjected: Boolean = underlying.isProjected

  // Each setter forwards first: a value the loader's writer refuses (it throws) is not kept either.
  def setNull(): Unit = { if (forwarding) underlying.setNull(); state = NullValue }
  def setBoolean(v: Boolean): Unit = { if (forwarding) underlying.setBoolean(v); keepLong(if (v) 1L else 0L) }
  def setInt(v: Int): Unit = { if (forwarding) underlying.setInt(v); keepLong(narrow(v)) }
  def setLong(v: Long): Unit = { if (forwarding) underlying.setLong(v); keepLong(v) }
  def setDouble(v: Double): Unit = {
    if (forwarding) underlying.setDouble(v)
    double = if (narrowing == FloatType) v.toFloat.toDouble else v
    state = DoubleValue
  }
  def setDecimal(v: Decimal): Unit = { if (forwarding) underlying.setDecimal(v); state = Unknown }
  def setBytes(b: Array[Byte], offset: Int, n: Int): Unit = {
    if (forwarding) underlying.setBytes(b, offset, n)
    keepBytes(b, offset, n)
  }

  // A string column's text is encoded once, here, and handed on as bytes (what a writer's setString does).
  def setString(v: String): Unit =
    if (isString) {
      val b = v.getBytes(StandardCharsets.UTF_8)
      if (forwarding) underlying.setBytes(b, 0, b.length)
      keepBytes(b, 0, b.length)
    } else {
      if (forwarding) underlying.setString(v)
      state = Unknown
    }
  def setDate(days: Int): Unit = { if (forwarding) underlying.setDate(days); keepLong(days.toLong) }
  def setTimestamp(micros: Long): Unit = { if (forwarding) underlying.setTimestamp(micros); keepLong(micros) }
  def setVariant(value: Array[Byte], metadata: Array[Byte]): Unit = {
    if (forwarding) underlying.setVariant(value, metadata)
    state = Unknown
  }

  // Filter columns are scalars; whatever goes through these is not seen, so the column is not judged. They
  // write into the loader, so only while forwarding.
  def array: ArrayWriter = { state = Unknown; forwarded.array }
  def struct: TupleWriter = { state = Unknown; forwarded.struct }
  def map: MapWriter = { state = Unknown; forwarded.map }

  private def forwarded: ColumnWriter =
    if (forwarding) underlying
    else
      throw DrillErrors.internal(s"${field.name}: a filter column's value cannot be kept without a row")
}

private[reader] object CapturingWriter {
  final val Unwritten = 0
  final val NullValue = 1
  final val LongValue = 2
  final val DoubleValue = 3
  final val BytesValue = 4
  final val Unknown = 5

  /** The column types a row filter compares. */
  def supports(t: DataType): Boolean = t match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | FloatType | DoubleType => true
    case DateType | TimestampType | TimestampNTZType => true
    case s: StringType => s == StringType // binary (UTF-8 byte order) collation only
    case _ => false
  }
}
