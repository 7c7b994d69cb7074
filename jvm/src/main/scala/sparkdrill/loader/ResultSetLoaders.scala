package sparkdrill.loader

import java.util.Locale

import org.apache.spark.sql.execution.vectorized.{
  OffHeapColumnVector,
  OnHeapColumnVector,
  WritableColumnVector
}
import org.apache.spark.sql.types._
import org.apache.spark.sql.vectorized.{ColumnVector, ColumnarBatch}
import org.apache.spark.memory.MemoryMode

// TEMPORARY minimal loader (flat scalars and arrays of strings, row limit only) so the read path can run
// end to end; the full loader (issue 3) replaces this file.
object ResultSetLoaders {
  def create(options: LoaderOptions, schema: StructType, projection: ProjectionFilter): ResultSetLoader =
    new SimpleLoader(options, schema, projection)
}

private final class SimpleLoader(options: LoaderOptions, initial: StructType, projection: ProjectionFilter)
    extends ResultSetLoader {
  private var fields = initial.fields.toVector
  private var version = 0
  private var rows = 0
  private var row = 0
  private var closed = false
  private var harvested = 0L
  private val writers = scala.collection.mutable.ArrayBuffer.empty[SimpleColumn]
  initial.fields.foreach(f => writers += newColumn(f))

  private def alloc(t: DataType): WritableColumnVector =
    if (options.memoryMode == MemoryMode.OFF_HEAP) new OffHeapColumnVector(options.batchRows, t)
    else new OnHeapColumnVector(options.batchRows, t)

  private def newColumn(f: StructField): SimpleColumn =
    new SimpleColumn(f, if (projection.isProjected(f.name)) alloc(f.dataType) else null)

  final class SimpleColumn(val field: StructField, val vector: WritableColumnVector) extends ColumnWriter {
    var written = false
    def isProjected: Boolean = vector != null
    private def mark(): Unit = written = true
    def setNull(): Unit = if (vector != null) { vector.putNull(row); mark() }
    def setBoolean(v: Boolean): Unit =
      if (vector != null) { vector.putNotNull(row); vector.putBoolean(row, v); mark() }
    def setInt(v: Int): Unit = if (vector != null) { vector.putNotNull(row); vector.putInt(row, v); mark() }
    def setLong(v: Long): Unit =
      if (vector != null) { vector.putNotNull(row); vector.putLong(row, v); mark() }
    def setDouble(v: Double): Unit =
      if (vector != null) { vector.putNotNull(row); vector.putDouble(row, v); mark() }
    def setDecimal(v: Decimal): Unit = if (vector != null) {
      vector.putNotNull(row); vector.putDecimal(row, v, field.dataType.asInstanceOf[DecimalType].precision);
      mark()
    }
    def setBytes(bytes: Array[Byte], offset: Int, length: Int): Unit = if (vector != null) {
      vector.putNotNull(row); vector.putByteArray(row, bytes, offset, length); mark()
    }
    def setString(v: String): Unit = { val b = v.getBytes("UTF-8"); setBytes(b, 0, b.length) }
    def setDate(days: Int): Unit = setInt(days)
    def setTimestamp(micros: Long): Unit = setLong(micros)
    private var arrayStart = 0
    private var arraySize = 0
    lazy val array: ArrayWriter = new ArrayWriter {
      val element: ColumnWriter = new ColumnWriter {
        def field: StructField = StructField("element", StringType)
        def isProjected: Boolean = vector != null
        def setNull(): Unit = ()
        def setBoolean(v: Boolean): Unit = ()
        def setInt(v: Int): Unit = ()
        def setLong(v: Long): Unit = ()
        def setDouble(v: Double): Unit = ()
        def setDecimal(v: Decimal): Unit = ()
        def setBytes(bytes: Array[Byte], offset: Int, length: Int): Unit =
          if (vector != null) vector.arrayData().appendByteArray(bytes, offset, length)
        def setString(v: String): Unit = { val b = v.getBytes("UTF-8"); setBytes(b, 0, b.length) }
        def setDate(days: Int): Unit = ()
        def setTimestamp(micros: Long): Unit = ()
        def array: ArrayWriter = throw new UnsupportedOperationException
        def struct: TupleWriter = throw new UnsupportedOperationException
        def map: MapWriter = throw new UnsupportedOperationException
      }
      def save(): Unit = { arraySize += 1; mark() }
      def size: Int = arraySize
    }
    def beginRow(): Unit = {
      written = false
      if (vector != null && field.dataType.isInstanceOf[ArrayType]) {
        arrayStart = vector.arrayData().getElementsAppended; arraySize = 0
      }
    }
    def endRow(): Unit = if (vector != null) {
      if (field.dataType.isInstanceOf[ArrayType]) {
        if (written) { vector.putNotNull(row); vector.putArray(row, arrayStart, arraySize) }
        else vector.putNull(row)
      } else if (!written) vector.putNull(row)
    }
    def struct: TupleWriter = throw new UnsupportedOperationException
    def map: MapWriter = throw new UnsupportedOperationException
    def close(): Unit = if (vector != null) vector.close()
    def reset(): Unit = if (vector != null) vector.reset()
  }

  val writer: RowWriter = new RowWriter {
    def schema: StructType = StructType(fields)
    def size: Int = writers.length
    def column(index: Int): ColumnWriter = writers(index)
    def column(name: String): ColumnWriter =
      find(name).getOrElse(throw new IllegalArgumentException(s"no column '$name'"))
    def find(name: String): Option[ColumnWriter] = {
      val key = name.toLowerCase(Locale.ROOT)
      writers.find(_.field.name.toLowerCase(Locale.ROOT) == key)
    }
    def isProjected(name: String): Boolean = find(name).exists(_.isProjected)
    def addColumn(field: StructField): ColumnWriter = find(field.name).getOrElse {
      val c = newColumn(field); writers += c; fields = fields :+ field; version += 1
      var r = 0
      while (r < row) { if (c.vector != null) c.vector.putNull(r); r += 1 }
      c
    }
    def start(): Unit = {
      if (pendingReset) { writers.foreach(_.reset()); pendingReset = false }
      var i = 0; while (i < writers.length) { writers(i).beginRow(); i += 1 }
    }
    def save(): Unit = {
      var i = 0; while (i < writers.length) { writers(i).endRow(); i += 1 }; rows += 1; row += 1
    }
    def isFull: Boolean = rows >= options.batchRows
    def rowCount: Int = rows
  }

  def schemaVersion: Int = version
  def schema: StructType = StructType(fields)
  def projectedSchema: StructType = StructType(writers.filter(_.isProjected).map(_.field).toSeq)
  def rowCount: Int = rows
  def overflowRows: Long = 0L
  def batchCount: Long = harvested

  private var pendingReset = false
  def harvest(): ColumnarBatch = {
    val cols: Array[ColumnVector] = writers.filter(_.isProjected).map(_.vector: ColumnVector).toArray
    val b = new ColumnarBatch(cols, rows)
    harvested += 1
    rows = 0; row = 0
    pendingReset = true
    b
  }

  def close(): Unit = if (!closed) { closed = true; writers.foreach(_.close()) }
}
