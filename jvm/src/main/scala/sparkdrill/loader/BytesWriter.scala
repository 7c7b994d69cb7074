package sparkdrill.loader

import org.apache.spark.sql.execution.vectorized.{OffHeapColumnVector, WritableColumnVector}
import org.apache.spark.sql.types.StructField

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
    val key = rows.row << 3 // kind 0
    if (key == fastKey && offHeapStore.getElementsAppended.toLong + length <= batchBytes) {
      // What `putByteArray` does, without finding the store again; the store grows itself as needed.
      offHeap.putArray(key >>> 3, offHeapStore.appendBytes(length, bytes, offset), length)
      fastKey = key + 8
    } else setBytesSlow(bytes, offset, length)
  }

  // Out of line, so that `setBytes` stays small enough for the JIT to inline into the reader's loop.
  private def setBytesSlow(bytes: Array[Byte], offset: Int, length: Int): Unit = {
    pending = length
    val q = place()
    vector.putByteArray(q, bytes, offset, length)
    done()
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
