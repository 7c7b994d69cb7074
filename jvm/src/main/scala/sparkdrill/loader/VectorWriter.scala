package sparkdrill.loader

import java.nio.charset.StandardCharsets

import org.apache.spark.sql.execution.vectorized.{OffHeapColumnVector, WritableColumnVector}
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

  /** Marks the current value as written (members, elements, arrays and structs). */
  @inline protected final def written(): Unit = writtenEpoch = source.epoch

  // A row's own scalar column (`lazyFill`) is not visited when a row is saved: a row that gave it no value
  // leaves a gap, which its next write (or `fillTo`, before a harvest or an overflow move) fills with empty
  // values. Its fast path is then one test, `rows.row == fastNext`: the value goes right after the last one, in
  // a vector known to have room for it (the loader refuses a row past `batchRows`, and `settle` reserves
  // that many). Vectors start and reset with no nulls, and such a column only leaves a null flag where it
  // also moves `filled` past it, so the fast path needs no `putNotNull` either. Anything else (a gap, a
  // rewrite in the same row, a discarded row, the first write after a bind, a tiny byte limit) takes the
  // slow path, `settle`. Members and elements end with their parent and know what the value holds by its
  // epoch; their `fastNext` stays -1, so they always take the slow path.
  protected var lazyFill = false

  /** Lazy columns: positions below this hold a value, written or filled. The fast path only moves
    * `fastNext`, which then equals it, so `filledAt` holds it only while there is no fast path.
    */
  protected final def filled: Int = if (fastNext >= 0) fastNext else filledAt
  protected final def filled_=(p: Int): Unit = { filledAt = p; fastNext = -1 }
  private var filledAt = 0

  /** The position of the next value on the fast path (then equal to `filled`), or -1. Between `at` and `done`
    * it is the position being written, or -2.
    */
  protected var fastNext = -1

  /** The row source of a lazy column, typed so the fast path reads the row with no type check. */
  protected var rows: RowSource = VectorWriter.NoRow

  final def isWritten: Boolean = if (lazyFill) filled > source.position else writtenEpoch == source.epoch

  /** Makes this a row's own column, whose `rows` earlier rows hold values already. */
  final def markTopLevel(rowCount: Int): Unit = (scalar, source) match {
    case (true, r: RowSource) =>
      lazyFill = true
      rows = r
      filled = rowCount
      fastNext = -1
    case _ => ()
  }

  /** Scalars (one value per position) fill lazily when they are a row's own column. */
  protected def scalar: Boolean = false
  final def fillsLazily: Boolean = lazyFill

  /** Positions a scalar writer may write with no check against the byte limit. */
  protected def positionLimit: Long = Long.MaxValue

  /** Makes room for a value at the current position, overflowing first if it does not fit; returns it. */
  protected def place(): Int = settle(source.position)

  /** After a scalar value was written at `p` (found by `at`). */
  @inline protected final def done(p: Int): Unit =
    fastNext += 1 // `p + 1`, or -1 when the slow path said the next value cannot take the fast one

  /** The slow path of a scalar value about to be written at `p`: room in the vector, the null flag cleared (a
    * member's parent, or a discarded row, may have left one), a lazy column's gap filled. Returns `p`.
    */
  protected final def settle(p: Int): Int = {
    // Vectors are made with `batchRows` positions: reserving that many costs nothing and covers later rows.
    val batchRows = batch.options.batchRows
    val room = math.max(p + 1, batchRows)
    vector.reserve(room)
    vector.putNotNull(p)
    if (lazyFill) {
      fillTo(p)
      filledAt = p + 1
    } else written()
    fastNext = if (lazyFill && positionLimit >= batchRows && p < batchRows && offHeap != null) p else -2
    p
  }

  /** Lazy columns: fills the gap before `end` with empty values. */
  final def fillTo(end: Int): Unit = if (lazyFill && filled < end) {
    while (filled < end) { fillEmpty(filled); filled += 1 }
  }

  /** The next value takes the slow path. */
  final def slowPathOnly(): Unit = filled = filled // the setter keeps the position and ends the fast path

  /** Lazy columns: the row at `row` was started again, so what this column wrote there is no value. */
  final def discard(row: Int): Unit = if (lazyFill) {
    filled = math.min(filled, row) // and a null flag may be left at `row`: the slow path clears it
  }

  /** Points this writer (and its children) at a vector. */
  def bind(v: WritableColumnVector): Unit = {
    vector = v
    offHeap = v match {
      case o: OffHeapColumnVector => o
      case _ => null
    }
    slowPathOnly()
  }

  /** The vector, when it is off-heap: the fast path's, a final class (no type check per value). */
  protected var offHeap: OffHeapColumnVector = _

  /** Called when the value at the current position ends: fills it if it was never written, and finishes
    * values that are only complete at the end (arrays).
    */
  def endValue(): Unit = if (!isWritten) fillEmpty(source.position)

  /** A value that was never written: null, or the type's zero for a NOT NULL column. */
  def fillEmpty(position: Int): Unit = {
    vector.reserve(position + 1) // put* methods do not check bounds: off-heap, that would corrupt memory
    if (field.nullable) vector.putNull(position) else putZero(position)
  }

  protected def putZero(position: Int): Unit

  /** Elements (or string bytes) this writer's vector holds in the current batch, for the byte limit. */
  def bytesUsed: Long

  /** Forgets positions when a batch starts over in reset vectors. */
  def resetPositions(): Unit = {
    filled = 0 // and the fast path ends: reset() may have shrunk a vector that grew large
  }
  def prepareCopy(): Unit = ()

  /** Bound to the vector the moved row went to, where it is row 0 (called before the row position moves). */
  def finishCopy(): Unit = if (lazyFill) {
    filled = if (isWritten) 1 else 0
  }

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
    if (lazyFill && field.nullable) {
      // Left unwritten (also over a value set before in this row): the fill writes the null.
      if (filled > p) filled = p
    } else {
      if (lazyFill) fillTo(p)
      vector.reserve(p + 1)
      vector.putNull(p)
      if (lazyFill) {
        filled = p + 1 // and the fast path ends: a rewrite at `p` must clear the flag, the slow path does
      } else written()
    }
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
  override protected def scalar: Boolean = true

  // A fixed-width vector only outgrows the byte limit with a tiny limit or a long array.
  override protected def positionLimit: Long = maxPosition

  override protected def place(): Int = {
    if (source.position >= maxPosition) batch.overflow(this)
    settle(source.position)
  }

  // Each setter: the fast path (`rows.row == fastNext`, off-heap, see VectorWriter), else `place` and the
  // vector's own put.

  override def setBoolean(v: Boolean): Unit =
    if (code == Bool) {
      val p = rows.row
      if (p == fastNext) { offHeap.putBoolean(p, v); fastNext = p + 1 }
      else { val q = place(); vector.putBoolean(q, v); done(q) }
    } else super.setBoolean(v)

  override def setInt(v: Int): Unit =
    if (code == Int32) {
      val p = rows.row
      if (p == fastNext) { offHeap.putInt(p, v); fastNext = p + 1 }
      else { val q = place(); vector.putInt(q, v); done(q) }
    } else if (code == Short16) {
      val p = rows.row
      if (p == fastNext) { offHeap.putShort(p, v.toShort); fastNext = p + 1 }
      else { val q = place(); vector.putShort(q, v.toShort); done(q) }
    } else if (code == Byte8) {
      val p = rows.row
      if (p == fastNext) { offHeap.putByte(p, v.toByte); fastNext = p + 1 }
      else { val q = place(); vector.putByte(q, v.toByte); done(q) }
    }
    else if (code == Long64 && field.dataType == LongType) setLong(v.toLong)
    else super.setInt(v)

  override def setLong(v: Long): Unit =
    if (code == Long64) {
      val p = rows.row
      if (p == fastNext) { offHeap.putLong(p, v); fastNext = p + 1 }
      else { val q = place(); vector.putLong(q, v); done(q) }
    } else super.setLong(v)

  override def setDouble(v: Double): Unit =
    if (code == Double64) {
      val p = rows.row
      if (p == fastNext) { offHeap.putDouble(p, v); fastNext = p + 1 }
      else { val q = place(); vector.putDouble(q, v); done(q) }
    } else if (code == Float32) {
      val p = rows.row
      if (p == fastNext) { offHeap.putFloat(p, v.toFloat); fastNext = p + 1 }
      else { val q = place(); vector.putFloat(q, v.toFloat); done(q) }
    }
    else super.setDouble(v)

  override def setDecimal(v: Decimal): Unit = field.dataType match {
    case d: DecimalType =>
      val copy = v.clone()
      if (!copy.changePrecision(d.precision, d.scale))
        throw new IllegalArgumentException(s"column '${field.name}': $v does not fit ${d.simpleString}")
      val q = place()
      vector.putDecimal(q, copy, d.precision)
      done(q)
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
      case other => throw new IllegalStateException(s"no zero for ${other.simpleString}")
    }
  }

  def bytesUsed: Long = (source.position + 1L) * width
}

private[loader] object VectorWriter {

  /** The rows of a writer that is not a row's own column: its `fastNext` is never a row, so no fast path. */
  private val NoRow = new RowSource
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

  // The vector's byte store, cached per bound vector (typed too when off-heap, for the fast path).
  private var store: WritableColumnVector = _
  private var offHeapStore: OffHeapColumnVector = _
  private val batchBytes = batch.options.batchBytes

  override protected def scalar: Boolean = true

  override def bind(v: WritableColumnVector): Unit = {
    super.bind(v)
    store = v.arrayData()
    offHeapStore = store match {
      case o: OffHeapColumnVector => o
      case _ => null
    }
  }

  override def setBytes(bytes: Array[Byte], offset: Int, length: Int): Unit = {
    val p = rows.row
    if (p == fastNext && offHeapStore.getElementsAppended.toLong + length <= batchBytes) {
      // What `putByteArray` does, without finding the store again.
      offHeap.putArray(p, offHeapStore.appendBytes(length, bytes, offset), length)
      fastNext = p + 1
    } else {
      pending = length
      val q = place()
      vector.putByteArray(q, bytes, offset, length)
      done(q)
    }
  }

  private var pending = 0 // the length of the value `place` makes room for

  override protected def place(): Int = {
    if (store.getElementsAppended.toLong + pending > batchBytes) batch.overflow(this)
    settle(source.position)
  }

  protected def putZero(p: Int): Unit = {
    vector.reserve(p + 1)
    vector.putNotNull(p)
    vector.putByteArray(p, Array.emptyByteArray, 0, 0)
  }

  def bytesUsed: Long = store.getElementsAppended.toLong
}
