package sparkdrill.loader

import java.nio.charset.StandardCharsets

import org.apache.spark.sql.execution.vectorized.{OffHeapColumnVector, WritableColumnVector}
import org.apache.spark.sql.types._
import sparkdrill.errors.DrillErrors

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
  // values. Its fast path is then one test: `fastKey` holds the next position and the kind of value that
  // may take it, and a setter compares it with the current row and its own kind (a setter of another type
  // finds no match, so there is no type test either). The value goes right after the last one, in an
  // off-heap vector known to have room for it: `settle` reserves `batchRows` positions, and the loader sends
  // rows past `batchRows` to the slow path. Vectors start and reset with no nulls, and such a column only
  // leaves a null flag where it also moves `filled` past it, so the fast path needs no `putNotNull` either.
  // Anything else (a gap, a rewrite in the same row, a discarded row, the first write after a bind, a tiny
  // byte limit, an on-heap vector) takes the slow path, `settle`. Members and elements end with their
  // parent and know what the value holds by its epoch; their `fastKey` stays -1: always the slow path.
  protected var lazyFill = false

  /** `(position << 3) | kind` of the next value that may take the fast path, or -1. Between `settle` and
    * `done`, the key of the value being written, or -2. The fast path only moves the key, so positions
    * below its position are filled; `filledAt` holds that only while there is no fast path.
    */
  protected var fastKey = -1
  private var filledAt = 0

  /** Lazy columns: positions below this hold a value, written or filled. */
  protected final def filled: Int = if (fastKey >= 0) fastKey >>> 3 else filledAt
  protected final def filled_=(p: Int): Unit = { filledAt = p; fastKey = -1 }

  /** The kind of value of this writer's fast path, 0 to 7 (see `fastKey`). */
  protected def fastKind: Int = 0

  /** The row source of a lazy column, typed so the fast path reads the row with no type check. */
  protected var rows: RowSource = VectorWriter.NoRow

  /** The vector when it is off-heap (a final class), and where its values start: the fast path's. Only
    * `reserve` moves the values, and only the slow path reserves (or ends the fast path before it does).
    */
  protected var offHeap: OffHeapColumnVector = _
  protected var address = 0L

  final def isWritten: Boolean = if (lazyFill) filled > source.position else writtenEpoch == source.epoch

  /** Makes this a row's own column, whose `rowCount` earlier rows hold values already. */
  final def markTopLevel(rowCount: Int): Unit = (scalar, source) match {
    case (true, r: RowSource) =>
      lazyFill = true
      rows = r
      filled = rowCount
    case _ => ()
  }

  /** Scalars (one value per position) fill lazily when they are a row's own column. */
  protected def scalar: Boolean = false
  final def fillsLazily: Boolean = lazyFill

  /** Positions a scalar writer may write with no check against the byte limit. */
  protected def positionLimit: Long = Long.MaxValue

  /** Makes room for a value at the current position, overflowing first if it does not fit; returns it. */
  protected def place(): Int = settle(source.position)

  /** After the slow path wrote a scalar value. */
  @inline protected final def done(): Unit =
    fastKey = if (fastKey >= 0) fastKey + 8 else -1 // the next position, or no fast path

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
    val fast = lazyFill && offHeap != null && p < batchRows && batchRows <= VectorWriter.MaxFastRows &&
      positionLimit >= batchRows
    if (fast) address = offHeap.valuesNativeAddress()
    fastKey = if (fast) (p << 3) | fastKind else -2
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
  def resetPositions(): Unit =
    filled = 0 // and the fast path ends: reset() may have shrunk a vector that grew large
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
      case other => throw DrillErrors.internal(s"cannot copy ${other.simpleString}")
    }

  private def wrong(what: String): Nothing =
    throw DrillErrors.internal(
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
  def setVariant(value: Array[Byte], metadata: Array[Byte]): Unit = wrong("variant")
  def array: ArrayWriter = wrong("array")
  def struct: TupleWriter = wrong("struct")
  def map: MapWriter = wrong("map")
}

private[loader] object VectorWriter {

  /** The rows of a writer that is not a row's own column: its `fastKey` is never a row's, so no fast path. */
  private val NoRow = new RowSource

  /** Positions fit `fastKey` with three bits to spare. */
  private val MaxFastRows = 1 << 27
}
