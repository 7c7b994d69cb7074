package sparkdrill.loader

import org.apache.spark.sql.execution.vectorized.{OffHeapColumnVector, WritableColumnVector}
import org.apache.spark.sql.types.StructField
import org.apache.spark.unsafe.Platform

/** Strings and binary: the bytes go to the vector's child, so the byte limit watches that child. */
private[loader] final class BytesWriter(field: StructField, source: ValueSource, batch: BatchState)
    extends VectorWriter(field, source, batch) {

  // The vector's byte store, cached per bound vector (typed too when off-heap, for the fast path).
  private var store: WritableColumnVector = _
  private var offHeapStore: OffHeapColumnVector = _
  private val batchBytes = batch.options.batchBytes

  // The fast path copies into room this writer reserved in the store (`reserved` bytes from
  // `storeAddress`, never past the byte limit), so one compare checks both the room and the limit. Only
  // the slow path, a bind, a reset or an overflow move can move the store, and all of them end the fast
  // path or refresh these (`refreshStore`) before it resumes.
  private var reserved = 0L
  private var storeAddress = 0L

  override protected def scalar: Boolean = true

  override def bind(v: WritableColumnVector): Unit = {
    super.bind(v)
    store = v.arrayData()
    offHeapStore = store match {
      case o: OffHeapColumnVector => o
      case _ => null
    }
    reserved = 0L
  }

  override def setBytes(bytes: Array[Byte], offset: Int, length: Int): Unit = {
    val key = rows.row << 3 // kind 0
    if (key == fastKey) { // off-heap, so the store is too
      val start = offHeapStore.getElementsAppended
      if (start.toLong + length <= reserved) {
        copy(bytes, offset, storeAddress + start, length)
        offHeapStore.addElementsAppended(length)
        offHeap.putArray(key >>> 3, start, length)
        fastKey = key + 8
        return
      }
    }
    setBytesSlow(bytes, offset, length)
  }

  // Out of line, so that `setBytes` stays small enough for the JIT to inline into the reader's loop.
  private def setBytesSlow(bytes: Array[Byte], offset: Int, length: Int): Unit = {
    pending = length
    val q = place()
    vector.putByteArray(q, bytes, offset, length)
    done()
    if (fastKey >= 0) refreshStore()
  }

  /** Reserves room ahead in the store (doubling, up to the byte limit) and caches where it is. */
  private def refreshStore(): Unit = {
    val used = offHeapStore.getElementsAppended.toLong
    if (used + MinRoom > reserved)
      reserved = math.min(math.max(2 * reserved, used + MinRoom), math.min(batchBytes, MaxRoom))
    if (reserved > used) offHeapStore.reserve(reserved.toInt)
    storeAddress = offHeapStore.valuesNativeAddress()
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

  /** Short values are copied a word at a time here: `Platform.copyMemory`'s checks and call cost more than
    * the copy itself for the few bytes of a typical field.
    */
  @inline private def copy(src: Array[Byte], offset: Int, to: Long, length: Int): Unit =
    if (length > ShortCopy) Platform.copyMemory(src, Platform.BYTE_ARRAY_OFFSET + offset, null, to, length)
    else {
      val from = Platform.BYTE_ARRAY_OFFSET + offset.toLong
      var i = 0
      while (i + 8 <= length) {
        Platform.putLong(null, to + i, Platform.getLong(src, from + i)); i += 8
      }
      while (i < length) {
        Platform.putByte(null, to + i, Platform.getByte(src, from + i)); i += 1
      }
    }

  private val MinRoom = 1 << 14
  private val MaxRoom = 1L << 30
  private val ShortCopy = 32
}
