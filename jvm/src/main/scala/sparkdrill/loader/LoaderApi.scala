package sparkdrill.loader

import org.apache.spark.memory.MemoryMode
import org.apache.spark.sql.types.{DataType, Decimal, StructField, StructType}
import org.apache.spark.sql.vectorized.ColumnarBatch

/** Limits of one batch. A batch ends at `batchRows` rows, or when writing a value would push one vector past
  * `batchBytes`; the row being written then moves whole to the next batch.
  */
final case class LoaderOptions(
    batchRows: Int = LoaderOptions.DefaultBatchRows,
    batchBytes: Long = LoaderOptions.DefaultBatchBytes,
    memoryMode: MemoryMode = MemoryMode.OFF_HEAP
) {
  require(batchRows >= 1, s"batchRows must be at least 1, got $batchRows")
  require(batchBytes >= 1, s"batchBytes must be at least 1, got $batchBytes")
}

object LoaderOptions {
  val DefaultBatchRows: Int = 4096
  val DefaultBatchBytes: Long = 16L << 20
}

/** Which columns (and struct members) a query reads. The loader gives unprojected ones dummy writers that
  * accept values and allocate nothing. Names compare case-insensitively.
  */
trait ProjectionFilter extends Serializable {
  def isProjected(name: String): Boolean

  /** The filter for the members of struct column `name` (only asked when `name` is projected). */
  def member(name: String): ProjectionFilter
}

object ProjectionFilter {
  val All: ProjectionFilter = new ProjectionFilter {
    def isProjected(name: String): Boolean = true
    def member(name: String): ProjectionFilter = this
    override def toString: String = "ProjectionFilter.All"
  }
  val None: ProjectionFilter = new ProjectionFilter {
    def isProjected(name: String): Boolean = false
    def member(name: String): ProjectionFilter = this
    override def toString: String = "ProjectionFilter.None"
  }
}

/** Writes one value of a column. Obtained from a [[TupleWriter]]; the same object is returned each time, so
  * readers may cache it. A setter called on a dummy (unprojected) writer does nothing.
  */
trait ColumnWriter {
  def field: StructField
  final def dataType: DataType = field.dataType
  def isProjected: Boolean

  def setNull(): Unit
  def setBoolean(v: Boolean): Unit
  def setInt(v: Int): Unit
  def setLong(v: Long): Unit
  def setDouble(v: Double): Unit
  def setDecimal(v: Decimal): Unit

  /** UTF-8 bytes of a string column (or raw bytes of a binary column). The bytes are copied. */
  def setBytes(bytes: Array[Byte], offset: Int, length: Int): Unit
  def setString(v: String): Unit

  /** Days since 1970-01-01. */
  def setDate(days: Int): Unit

  /** Microseconds since the epoch. */
  def setTimestamp(micros: Long): Unit

  /** A VARIANT column's value in Spark's variant encoding (Spark 4): its value and metadata bytes, kept as
    * they are (the caller hands over arrays it no longer writes).
    */
  def setVariant(value: Array[Byte], metadata: Array[Byte]): Unit

  /** The writer of an array column's elements: write an element through `array.element`, then
    * `array.save()`; the row's array ends when the row (or the enclosing element) is saved.
    */
  def array: ArrayWriter

  /** The writer of a struct column's members. */
  def struct: TupleWriter

  /** The writer of a map column's entries (keys and values). */
  def map: MapWriter
}

trait ArrayWriter {
  def element: ColumnWriter

  /** Ends the element just written and starts the next. */
  def save(): Unit

  /** Elements saved so far in the current array. */
  def size: Int
}

trait MapWriter {
  def key: ColumnWriter
  def value: ColumnWriter

  /** Ends the entry just written (key and value) and starts the next. */
  def save(): Unit
  def size: Int
}

/** A row or a struct: columns by index (fast) or by name (case-insensitive). */
trait TupleWriter {
  def schema: StructType
  def size: Int
  def column(index: Int): ColumnWriter

  /** The writer of `name`, or throws an IllegalArgumentException naming the column and the known ones. */
  def column(name: String): ColumnWriter
  def find(name: String): Option[ColumnWriter]
  def isProjected(name: String): Boolean

  /** Adds a column while writing (late schema); earlier rows of the current batch are back-filled. Returns
    * the existing writer when the column is already there with the same type.
    */
  def addColumn(field: StructField): ColumnWriter
}

/** The row protocol: `start()`, write columns, `save()`; check `isFull` after each save. A row started and
  * not saved is discarded by the next `start()`.
  */
trait RowWriter extends TupleWriter {
  def start(): Unit
  def save(): Unit
  def isFull: Boolean

  /** Rows saved in the current batch. */
  def rowCount: Int
}

/** Builds batches of rows written one at a time over Spark `WritableColumnVector`s. Knows nothing of files.
  */
trait ResultSetLoader extends AutoCloseable {
  def writer: RowWriter

  /** Increases whenever a column is added. */
  def schemaVersion: Int

  /** Every column, projected or not, in the order added. */
  def schema: StructType

  /** The projected top-level columns, in schema order: the columns of a harvested batch. */
  def projectedSchema: StructType

  /** Rows saved in the current batch. */
  def rowCount: Int

  /** Rows carried into the next batch because a value overflowed, since the loader was made. */
  def overflowRows: Long

  /** Batches harvested since the loader was made. */
  def batchCount: Long

  /** The current batch: its saved rows, one column per projected column. The vectors are reused by the next
    * batch, so the caller must consume the batch before writing more rows. An overflow row moves to the new
    * batch.
    */
  def harvest(): ColumnarBatch

  /** Frees every vector; idempotent. */
  def close(): Unit
}
