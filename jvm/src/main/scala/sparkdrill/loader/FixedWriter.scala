package sparkdrill.loader

import org.apache.spark.sql.types._
import org.apache.spark.unsafe.Platform
import sparkdrill.errors.DrillErrors

/** Fixed-width values: boolean, byte, short, int, long, float, double, date, timestamp, decimal. The type is
  * resolved to a code once; it is also the kind in `fastKey`, so a setter's fast path is one compare and a
  * store into the off-heap vector (see [[VectorWriter]]).
  */
private[loader] final class FixedWriter(
    field: StructField,
    source: ValueSource,
    batch: BatchState,
    width: Int
) extends VectorWriter(field, source, batch) {
  import FixedWriter._

  private val maxPosition: Long = batch.options.batchBytes / width
  private val code: Int = field.dataType match {
    case BooleanType => Bool
    case ByteType => Byte8
    case ShortType => Short16
    case IntegerType | DateType => Int32
    case LongType | TimestampType | TimestampNTZType => Long64
    case FloatType => Float32
    case DoubleType => Double64
    case _: DecimalType => Dec
    case other => throw DrillErrors.internalArgument(s"not a fixed-width type: ${other.simpleString}")
  }
  override protected def scalar: Boolean = true
  override protected def fastKind: Int = code

  // A fixed-width vector only outgrows the byte limit with a tiny limit or a long array.
  override protected def positionLimit: Long = maxPosition

  override protected def place(): Int = {
    if (source.position >= maxPosition) batch.overflow(this)
    settle(source.position)
  }

  // Each setter: the fast path when the key matches (the same store OffHeapColumnVector's put does), else
  // the slow path with the vector's own put, in a method of its own: a setter stays small enough for the JIT
  // to inline it into the reader's loop whether or not it compiled the setter on its own first.

  override def setBoolean(v: Boolean): Unit = {
    val p = rows.row
    val key = (p << 3) | Bool
    if (key == fastKey) {
      Platform.putByte(null, address + p, if (v) 1.toByte else 0.toByte); fastKey = key + 8
    } else setBooleanSlow(v)
  }

  private def setBooleanSlow(v: Boolean): Unit =
    if (code == Bool) { val q = place(); vector.putBoolean(q, v); done() }
    else super.setBoolean(v)

  override def setInt(v: Int): Unit = {
    val p = rows.row
    val key = (p << 3) | Int32
    if (key == fastKey) { Platform.putInt(null, address + 4L * p, v); fastKey = key + 8 }
    else setIntSlow(v)
  }

  private def setIntSlow(v: Int): Unit =
    if (code == Int32) { val q = place(); vector.putInt(q, v); done() }
    else if (code == Short16) setShort(v.toShort)
    else if (code == Byte8) setByte(v.toByte)
    else if (code == Long64 && field.dataType == LongType) setLong(v.toLong)
    else super.setInt(v)

  private def setShort(v: Short): Unit = {
    val p = rows.row
    val key = (p << 3) | Short16
    if (key == fastKey) { Platform.putShort(null, address + 2L * p, v); fastKey = key + 8 }
    else { val q = place(); vector.putShort(q, v); done() }
  }

  private def setByte(v: Byte): Unit = {
    val p = rows.row
    val key = (p << 3) | Byte8
    if (key == fastKey) { Platform.putByte(null, address + p, v); fastKey = key + 8 }
    else { val q = place(); vector.putByte(q, v); done() }
  }

  override def setLong(v: Long): Unit = {
    val p = rows.row
    val key = (p << 3) | Long64
    if (key == fastKey) { Platform.putLong(null, address + 8L * p, v); fastKey = key + 8 }
    else setLongSlow(v)
  }

  private def setLongSlow(v: Long): Unit =
    if (code == Long64) { val q = place(); vector.putLong(q, v); done() }
    else super.setLong(v)

  override def setDouble(v: Double): Unit = {
    val p = rows.row
    val key = (p << 3) | Double64
    if (key == fastKey) { Platform.putDouble(null, address + 8L * p, v); fastKey = key + 8 }
    else setDoubleSlow(v)
  }

  private def setDoubleSlow(v: Double): Unit =
    if (code == Double64) { val q = place(); vector.putDouble(q, v); done() }
    else if (code == Float32) setFloat(v.toFloat)
    else super.setDouble(v)

  private def setFloat(v: Float): Unit = {
    val p = rows.row
    val key = (p << 3) | Float32
    if (key == fastKey) { Platform.putFloat(null, address + 4L * p, v); fastKey = key + 8 }
    else { val q = place(); vector.putFloat(q, v); done() }
  }

  override def setDecimal(v: Decimal): Unit = field.dataType match {
    case d: DecimalType =>
      val copy = v.clone()
      if (!copy.changePrecision(d.precision, d.scale))
        throw DrillErrors.internalArgument(s"column '${field.name}': $v does not fit ${d.simpleString}")
      val q = place()
      vector.putDecimal(q, copy, d.precision)
      done()
    case _ => super.setDecimal(v)
  }

  override def setDate(days: Int): Unit =
    if (field.dataType == DateType) setInt(days)
    else super.setDate(days)

  override def setTimestamp(micros: Long): Unit =
    if (code == Long64 && field.dataType != LongType) setLong(micros)
    else super.setTimestamp(micros)

  protected def putZero(p: Int): Unit = {
    vector.reserve(p + 1)
    vector.putNotNull(p)
    field.dataType match {
      case BooleanType => vector.putBoolean(p, false)
      case ByteType => vector.putByte(p, 0)
      case ShortType => vector.putShort(p, 0)
      case IntegerType | DateType => vector.putInt(p, 0)
      case LongType | TimestampType | TimestampNTZType => vector.putLong(p, 0L)
      case FloatType => vector.putFloat(p, 0f)
      case DoubleType => vector.putDouble(p, 0.0)
      case d: DecimalType => vector.putDecimal(p, Decimal(0L, d.precision, d.scale), d.precision)
      case other => throw DrillErrors.internal(s"no zero for ${other.simpleString}")
    }
  }

  def bytesUsed: Long = (source.position + 1L) * width
}

private[loader] object FixedWriter {
  final val Bool = 0
  final val Byte8 = 1
  final val Short16 = 2
  final val Int32 = 3
  final val Long64 = 4
  final val Float32 = 5
  final val Double64 = 6
  final val Dec = 7
}
