package sparkdrill.loader

import java.nio.charset.StandardCharsets

import org.apache.spark.sql.execution.vectorized.WritableColumnVector
import org.apache.spark.sql.types._

/** The writer of one projected column (or struct member, or array element) over a Spark vector. The vector
  * is swapped when a batch overflows, so writers read it through `vector` on every call; readers may cache
  * the writer itself.
  */
private[loader] abstract class VectorWriter(
    val field: StructField,
    val source: ValueSource,
    val batch: BatchState
) extends ColumnWriter {
  var vector: WritableColumnVector = _
  private var writtenEpoch = -1L

  def isProjected: Boolean = true

  /** Marks the current value as written. */
  @inline protected final def written(): Unit = {
    val e = source.epoch
    if (writtenEpoch != e) {
      writtenEpoch = e
      if (topLevel) batch.writtenInRow += 1
    }
  }

  /** A row's own column (not a member or element): counted so that a row with every column written needs no
    * filling when saved.
    */
  var topLevel: Boolean = false
  final def isWritten: Boolean = writtenEpoch == source.epoch
  final def forgetWritten(): Unit = writtenEpoch = -1L

  // The highest position this writer set null in its vector since the vector was last clear of nulls; a
  // value written at or below it (a restarted row) must clear the flag, the others need not: vectors start
  // and reset with no nulls. Only a row's own columns know every null set in their vector (a struct sets
  // its members' nulls itself), so members and elements always clear the flag.
  protected var maxNull: Int = Int.MaxValue

  @inline protected final def clearNull(p: Int): Unit = if (p <= maxNull) vector.putNotNull(p)

  @inline private def notedNull(p: Int): Unit = if (p > maxNull) maxNull = p

  private def trackNulls(): Unit =
    maxNull = if (topLevel && vector != null && vector.numNulls() == 0) -1 else Int.MaxValue

  /** Makes this a row's own column. */
  def markTopLevel(): Unit = {
    topLevel = true
    trackNulls()
  }

  /** Points this writer (and its children) at a vector. */
  def bind(v: WritableColumnVector): Unit = {
    vector = v
    trackNulls()
  }

  /** Called when the value at the current position ends: fills it if it was never written, and finishes
    * values that are only complete at the end (arrays).
    */
  def endValue(): Unit = if (!isWritten) fillEmpty(source.position)

  /** A value that was never written: null, or the type's zero for a NOT NULL column. */
  def fillEmpty(position: Int): Unit = {
    vector.reserve(position + 1) // put* methods do not check bounds: off-heap, that would corrupt memory
    if (field.nullable) { vector.putNull(position); notedNull(position) }
    else putZero(position)
  }

  protected def putZero(position: Int): Unit

  /** Elements (or string bytes) this writer's vector holds in the current batch, for the byte limit. */
  def bytesUsed: Long

  /** Forgets element positions (arrays) and nulls when a batch starts over in reset vectors. */
  def resetPositions(): Unit = trackNulls()
  def prepareCopy(): Unit = ()
  def finishCopy(): Unit = ()

  /** Copies one value between vectors of this writer's type: a whole one, or (`partial`) the value being
    * written in the row an overflow moves, only as far as it was written.
    */
  def copyValue(
      from: WritableColumnVector,
      fromPos: Int,
      to: WritableColumnVector,
      toPos: Int,
      partial: Boolean
  ): Unit = {
    if (partial && !isWritten) return
    to.reserve(toPos + 1)
    if (from.isNullAt(fromPos)) to.putNull(toPos)
    else {
      to.putNotNull(toPos)
      copyScalar(from, fromPos, to, toPos)
    }
  }

  protected def copyScalar(
      from: WritableColumnVector,
      fromPos: Int,
      to: WritableColumnVector,
      toPos: Int
  ): Unit =
    field.dataType match {
      case BooleanType => to.putBoolean(toPos, from.getBoolean(fromPos))
      case ByteType => to.putByte(toPos, from.getByte(fromPos))
      case ShortType => to.putShort(toPos, from.getShort(fromPos))
      case IntegerType | DateType => to.putInt(toPos, from.getInt(fromPos))
      case LongType | TimestampType | TimestampNTZType => to.putLong(toPos, from.getLong(fromPos))
      case FloatType => to.putFloat(toPos, from.getFloat(fromPos))
      case DoubleType => to.putDouble(toPos, from.getDouble(fromPos))
      case d: DecimalType => to.putDecimal(toPos, from.getDecimal(fromPos, d.precision, d.scale), d.precision)
      case StringType | BinaryType =>
        val bytes = from.getBinary(fromPos)
        to.putByteArray(toPos, bytes, 0, bytes.length)
      case other => throw new IllegalStateException(s"cannot copy ${other.simpleString}")
    }

  private def wrong(what: String): Nothing =
    throw new IllegalStateException(
      s"column '${field.name}' is a ${field.dataType.simpleString}: it takes no $what"
    )

  def setNull(): Unit = {
    val p = source.position
    vector.reserve(p + 1)
    vector.putNull(p)
    notedNull(p)
    written()
  }
  def setBoolean(v: Boolean): Unit = wrong("boolean")
  def setInt(v: Int): Unit = wrong("int")
  def setLong(v: Long): Unit = wrong("long")
  def setDouble(v: Double): Unit = wrong("double")
  def setDecimal(v: Decimal): Unit = wrong("decimal")
  def setBytes(bytes: Array[Byte], offset: Int, length: Int): Unit = wrong("string")
  def setString(v: String): Unit = {
    val b = v.getBytes(StandardCharsets.UTF_8)
    setBytes(b, 0, b.length)
  }
  def setDate(days: Int): Unit = wrong("date")
  def setTimestamp(micros: Long): Unit = wrong("timestamp")
  def array: ArrayWriter = wrong("array")
  def struct: TupleWriter = wrong("struct")
  def map: MapWriter = wrong("map")
}

/** Fixed-width values: boolean, byte, short, int, long, float, double, date, timestamp, decimal. The type is
  * resolved to a code once, so the per-value path is a compare and a put.
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
    case other => throw new IllegalArgumentException(s"not a fixed-width type: ${other.simpleString}")
  }
  // Positions below this are known to fit the vector, so most writes skip `reserve`.
  private var capacity = 0

  override def bind(v: org.apache.spark.sql.execution.vectorized.WritableColumnVector): Unit = {
    super.bind(v)
    capacity = 0
  }

  // A fixed-width vector only outgrows the byte limit with a tiny limit or a long array.
  @inline private def room(): Int = {
    var p = source.position
    if (p >= maxPosition) {
      batch.overflow(this)
      p = source.position
    }
    if (p >= capacity) {
      vector.reserve(p + 1)
      capacity = p + 1
    }
    clearNull(p)
    p
  }

  override def setBoolean(v: Boolean): Unit =
    if (code == Bool) { val p = room(); vector.putBoolean(p, v); written() }
    else super.setBoolean(v)

  override def setInt(v: Int): Unit =
    if (code == Int32) { val p = room(); vector.putInt(p, v); written() }
    else if (code == Short16) { val p = room(); vector.putShort(p, v.toShort); written() }
    else if (code == Byte8) { val p = room(); vector.putByte(p, v.toByte); written() }
    else if (code == Long64 && field.dataType == LongType) setLong(v.toLong)
    else super.setInt(v)

  override def setLong(v: Long): Unit =
    if (code == Long64) { val p = room(); vector.putLong(p, v); written() }
    else super.setLong(v)

  override def setDouble(v: Double): Unit =
    if (code == Double64) { val p = room(); vector.putDouble(p, v); written() }
    else if (code == Float32) { val p = room(); vector.putFloat(p, v.toFloat); written() }
    else super.setDouble(v)

  override def setDecimal(v: Decimal): Unit = field.dataType match {
    case d: DecimalType =>
      val copy = v.clone()
      if (!copy.changePrecision(d.precision, d.scale))
        throw new IllegalArgumentException(s"column '${field.name}': $v does not fit ${d.simpleString}")
      val p = room()
      vector.putDecimal(p, copy, d.precision)
      written()
    case _ => super.setDecimal(v)
  }

  override def setDate(days: Int): Unit =
    if (field.dataType == DateType) { val p = room(); vector.putInt(p, days); written() }
    else super.setDate(days)

  override def setTimestamp(micros: Long): Unit =
    if (code == Long64 && field.dataType != LongType) { val p = room(); vector.putLong(p, micros); written() }
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
      case other => throw new IllegalStateException(s"no zero for ${other.simpleString}")
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

/** Strings and binary: the bytes go to the vector's child, so the byte limit watches that child. */
private[loader] final class BytesWriter(field: StructField, source: ValueSource, batch: BatchState)
    extends VectorWriter(field, source, batch) {

  // The vector's byte store, and the positions known to fit: cached per bound vector.
  private var store: org.apache.spark.sql.execution.vectorized.WritableColumnVector = _
  private var capacity = 0

  override def bind(v: org.apache.spark.sql.execution.vectorized.WritableColumnVector): Unit = {
    super.bind(v)
    store = v.arrayData()
    capacity = 0
  }

  private val batchBytes = batch.options.batchBytes

  override def setBytes(bytes: Array[Byte], offset: Int, length: Int): Unit = {
    if (store.getElementsAppended.toLong + length > batchBytes) batch.overflow(this)
    val p = source.position
    if (p >= capacity) {
      vector.reserve(p + 1)
      capacity = p + 1
    }
    clearNull(p)
    vector.putByteArray(p, bytes, offset, length)
    written()
  }

  protected def putZero(p: Int): Unit = {
    vector.reserve(p + 1)
    vector.putNotNull(p)
    vector.putByteArray(p, Array.emptyByteArray, 0, 0)
  }

  def bytesUsed: Long = store.getElementsAppended.toLong
}
