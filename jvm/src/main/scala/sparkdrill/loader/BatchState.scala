package sparkdrill.loader

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.memory.MemoryMode
import org.apache.spark.sql.execution.vectorized.{
  OffHeapColumnVector,
  OnHeapColumnVector,
  WritableColumnVector
}
import org.apache.spark.sql.types.DataType

/** One top-level column: its writer and its two vectors. Writing goes to `active`; when a value overflows,
  * the row in progress moves to `spare`, which becomes active, and the old active vector is harvested
  * (Drill's look-aside vector). Spark reads a harvested batch before it asks for the next, so by the next
  * overflow the harvested vector is free again.
  */
private[loader] final class ColumnSlot(val writer: ColumnWriter) {
  var active: WritableColumnVector = _
  var spare: WritableColumnVector = _
  def live: Option[VectorWriter] = writer match {
    case w: VectorWriter => Some(w)
    case _ => None
  }
}

/** The state of the batch being built: rows, limits, columns and their vectors, and the overflow move. */
private[loader] final class BatchState(val options: LoaderOptions) {
  val row = new RowSource
  val slots: ArrayBuffer[ColumnSlot] = ArrayBuffer.empty

  /** Rows saved in the active vectors. */
  var rowCount = 0

  /** After an overflow: the vectors and row count of the batch to harvest. */
  var overflowed = false
  var harvestRows = 0

  /** The row being written is alone and already past the byte limit: the batch ends after it. */
  var oversized = false

  /** The active vectors hold a harvested batch: clear them before the next row. */
  var pendingReset = false
  var overflowRows = 0L
  private var closed = false

  def allocate(t: DataType): WritableColumnVector =
    if (options.memoryMode == MemoryMode.OFF_HEAP) new OffHeapColumnVector(options.batchRows, t)
    else new OnHeapColumnVector(options.batchRows, t)

  /** The batch ends at the current row for its bytes: `overflowed || oversized`, kept as one flag. */
  def ended: Boolean = overflowed || oversized

  /** A value would push a vector past the byte limit while row `row.row` is being written. */
  def overflow(trigger: VectorWriter): Unit =
    if (rowCount == 0 || overflowed) oversized = true // the row travels alone in its own batch
    else moveRowToSpare()

  private def moveRowToSpare(): Unit = {
    val from = row.row
    val live = slots.filter(_.live.isDefined)
    live.foreach(_.live.get.fillTo(from)) // the batch to harvest ends complete: lazy columns' gaps filled
    live.foreach { s =>
      if (s.spare == null) s.spare = allocate(s.live.get.field.dataType) else s.spare.reset()
      s.live.get.prepareCopy()
    }
    live.foreach(s => s.live.get.copyValue(s.active, from, s.spare, 0, partial = true))
    live.foreach { s =>
      val old = s.active
      s.active = s.spare
      s.spare = old
      s.live.get.bind(s.active)
      s.live.get.finishCopy()
    }
    harvestRows = rowCount
    rowCount = 0
    row.row = 0
    overflowed = true
    overflowRows += 1
  }

  def close(): Unit = if (!closed) {
    closed = true
    slots.foreach { s =>
      if (s.active != null) s.active.close()
      if (s.spare != null) s.spare.close()
      s.active = null
      s.spare = null
    }
  }
}
