package sparkdrill.loader

import java.util.Locale

import scala.collection.mutable

import org.apache.spark.sql.execution.vectorized.WritableColumnVector
import org.apache.spark.sql.types._
import org.apache.spark.sql.vectorized.{ColumnVector, ColumnarBatch}
import sparkdrill.errors.DrillErrors

/** Makes loaders. */
object ResultSetLoaders {

  /** A loader over `schema` (the early schema; more columns may be added while writing). */
  def create(options: LoaderOptions, schema: StructType, projection: ProjectionFilter): ResultSetLoader =
    new ResultSetLoaderImpl(options, schema, projection)
}

/** The row writer and batch builder over Spark `WritableColumnVector`s (see [[ResultSetLoader]]). */
private[loader] final class ResultSetLoaderImpl(
    options: LoaderOptions,
    initial: StructType,
    projection: ProjectionFilter
) extends ResultSetLoader
    with RowWriter {
  private val batch = new BatchState(options)
  private val byName = mutable.HashMap.empty[String, Int]
  private var fields = Vector.empty[StructField]
  private var version = 0
  private var batches = 0L
  private var live: Array[VectorWriter] = Array.empty
  // The row's own scalar columns fill lazily (see VectorWriter); the others finish each value when it ends.
  private var lazyColumns: Array[VectorWriter] = Array.empty
  private var finishedOnSave: Array[VectorWriter] = Array.empty

  /** A row was started and not saved yet: the next `start()` discards it. */
  private var rowOpen = false
  private var closed = false

  initial.fields.foreach(addColumn)

  def writer: RowWriter = this
  def schemaVersion: Int = version
  def schema: StructType = StructType(fields)
  def projectedSchema: StructType = StructType(batch.slots.toSeq.filter(_.live.isDefined).map(_.writer.field))
  def overflowRows: Long = batch.overflowRows
  def batchCount: Long = batches

  // Row protocol.
  def rowCount: Int = batch.rowCount
  def isFull: Boolean = batch.rowCount >= rowLimit || batch.ended

  // `start` and `save` run once per row: the common case is a few loads and one test each. The row being
  // written is always at `rowCount` (`save`, `harvest` and the overflow move keep `row.row` there).
  private val rowLimit = options.batchRows

  def start(): Unit = {
    if (rowOpen | batch.pendingReset | batch.rowCount >= rowLimit) startSpecial()
    rowOpen = true
  }

  private def startSpecial(): Unit = {
    if (rowOpen) discardRow()
    if (batch.pendingReset) resetActive()
    else if (batch.rowCount >= rowLimit) pastRowLimit()
  }

  // A reader that writes on past a full batch gets its rows, through the writers' slow path: their fast path
  // counts on vectors made with room for `batchRows` rows.
  private def pastRowLimit(): Unit = lazyColumns.foreach(_.slowPathOnly())

  def save(): Unit = {
    val ws = finishedOnSave
    if (ws.length > 0) {
      var i = 0
      while (i < ws.length) {
        ws(i).endValue()
        i += 1
      }
      batch.row.epoch += 1 // arrays and structs, their members and elements: a new value begins
    }
    val b = batch
    val n = b.rowCount + 1
    b.rowCount = n
    b.row.row = n
    rowOpen = false
  }

  // What the discarded row wrote is no value: lazy columns forget it, the others see a new epoch.
  private def discardRow(): Unit = {
    lazyColumns.foreach(_.discard(batch.row.row))
    batch.row.epoch += 1
  }

  private def resetActive(): Unit = {
    batch.slots.foreach(s => if (s.active != null) s.active.reset())
    live.foreach(_.resetPositions())
    batch.pendingReset = false
  }

  // Columns.
  def size: Int = batch.slots.length
  def column(index: Int): ColumnWriter = batch.slots(index).writer
  def column(name: String): ColumnWriter =
    find(name).getOrElse(
      throw DrillErrors.internalArgument(
        s"no column '$name'; the columns are ${fields.map(_.name).mkString(", ")}"
      )
    )
  def find(name: String): Option[ColumnWriter] = byName.get(name.toLowerCase(Locale.ROOT)).map(column)
  def isProjected(name: String): Boolean = find(name).exists(_.isProjected)

  def addColumn(field: StructField): ColumnWriter = find(field.name) match {
    case Some(w) if w.field.dataType == field.dataType => w
    case Some(w) =>
      throw DrillErrors.internalArgument(
        s"column '${w.field.name}' is already ${w.field.dataType.simpleString}; it cannot be added as ${field.dataType.simpleString}"
      )
    case None =>
      val writer: ColumnWriter =
        if (!projection.isProjected(field.name)) DummyWriter(field)
        else Writers.forField(field, batch.row, batch, projection.member(field.name))
      val slot = new ColumnSlot(writer)
      slot.live.foreach { w =>
        checkFillable(field)
        slot.active = batch.allocate(w.field.dataType) // pruned of unprojected struct members
        w.bind(slot.active)
        // Rows already written in this batch get the column's empty value.
        var r = 0
        while (r < batch.rowCount) { w.fillEmpty(r); r += 1 }
        w.markTopLevel(batch.rowCount)
      }
      batch.slots += slot
      byName(field.name.toLowerCase(Locale.ROOT)) = batch.slots.length - 1
      fields = fields :+ field
      live = batch.slots.flatMap(_.live).toArray
      lazyColumns = live.filter(_.fillsLazily)
      finishedOnSave = live.filterNot(_.fillsLazily)
      version += 1
      writer
  }

  // Date and timestamp have no sensible zero, so a NOT NULL one cannot appear after rows were written.
  private def checkFillable(field: StructField): Unit =
    if (!field.nullable && batch.rowCount > 0) field.dataType match {
      case DateType | TimestampType | TimestampNTZType =>
        throw DrillErrors.internal(
          s"column '${field.name}' (${field.dataType.simpleString} NOT NULL) cannot be added after ${batch.rowCount} rows: " +
            "it has no value to give the rows already written; declare it before the first row or make it nullable"
        )
      case _ => ()
    }

  // Batches.
  def harvest(): ColumnarBatch = {
    batches += 1
    val liveSlots = batch.slots.filter(_.live.isDefined)
    if (batch.overflowed) {
      // The harvested rows are in the old vectors; a column added during the moved row has none there yet.
      val rows = batch.harvestRows
      val vectors: Array[ColumnVector] = liveSlots.map { s =>
        if (s.spare == null) {
          s.spare = batch.allocate(s.live.get.field.dataType)
          fillOld(s, rows)
        }
        s.spare: ColumnVector
      }.toArray
      batch.overflowed = false
      batch.oversized = false
      new ColumnarBatch(vectors, rows)
    } else {
      val rows = batch.rowCount
      lazyColumns.foreach(_.fillTo(rows))
      val vectors: Array[ColumnVector] = liveSlots.map(s => s.active: ColumnVector).toArray
      batch.rowCount = 0
      batch.row.row = 0
      batch.oversized = false
      batch.pendingReset = true
      new ColumnarBatch(vectors, rows)
    }
  }

  private def fillOld(slot: ColumnSlot, rows: Int): Unit = {
    val w = slot.live.get
    val current: WritableColumnVector = slot.active
    w.bind(slot.spare)
    var r = 0
    while (r < rows) { w.fillEmpty(r); r += 1 }
    w.bind(current)
  }

  def close(): Unit = if (!closed) {
    closed = true
    batch.close()
  }
}
