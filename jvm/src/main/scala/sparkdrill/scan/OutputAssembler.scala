package sparkdrill.scan

import org.apache.spark.sql.execution.vectorized.ConstantColumnVector
import org.apache.spark.sql.types.StringType
import org.apache.spark.sql.vectorized.{ColumnVector, ColumnarBatch}
import org.apache.spark.unsafe.types.UTF8String

/** Builds each output batch in Spark's column order from the loader's vectors and per-file constants. No
  * value is copied: the batch only points at vectors, and constants are set once per file.
  */
final class OutputAssembler(spec: ScanSpec) extends AutoCloseable {
  private val sources = spec.sources
  private val capacity = spec.loaderOptions.batchRows
  private val constants: Array[ConstantColumnVector] = sources.map {
    case _: ColumnSource.Loader => null
    case s => new ConstantColumnVector(capacity, dataTypeOf(s))
  }
  private val columns = new Array[ColumnVector](sources.length)
  private val zone = java.time.ZoneId.of(spec.options.getOrElse("timezone", "UTC"))
  // NOT NULL columns a file lacks: their default (or zero) replaces the loader's column for that file.
  private val missingConstants = new Array[ConstantColumnVector](sources.length)
  private val useMissing = new Array[Boolean](sources.length)

  private def dataTypeOf(source: ColumnSource) = source match {
    case ColumnSource.FileConstant(kind) => kind.dataType
    case ColumnSource.Partition(_) => StringType
    case ColumnSource.Hive(_) => StringType
    case ColumnSource.Null(t) => t
    case ColumnSource.Parsed(_, _, t) => t
    case ColumnSource.Loader(_) => throw new IllegalStateException("loader columns have no constant")
  }

  /** Sets the constants of the file whose rows come next. */
  def startFile(task: FileTask): Unit = {
    val file = task.file
    java.util.Arrays.fill(useMissing, false)
    task.missingRequired.foreach { i =>
      if (missingConstants(i) == null) {
        val field = spec.outputSchema.fields(i)
        missingConstants(i) = new ConstantColumnVector(capacity, field.dataType)
        ConstantValues.setMissing(missingConstants(i), loaderField(i), zone)
      }
      useMissing(i) = true
    }
    var i = 0
    while (i < sources.length) {
      val v = constants(i)
      // A constant's setters leave its null flag alone: clear what the previous file set.
      if (v != null) v.setNotNull()
      sources(i) match {
        case ColumnSource.FileConstant(kind) => ConstantValues.setInternal(v, file.fileColumnValue(kind))
        case ColumnSource.Partition(depth) =>
          if (depth < file.dirs.length) v.setUtf8String(UTF8String.fromString(file.dirs(depth)))
          else v.setNull()
        case ColumnSource.Hive(key) =>
          val value = file.hiveValue(key)
          if (value == null) v.setNull() else v.setUtf8String(UTF8String.fromString(value))
        case ColumnSource.Null(_) => v.setNull()
        case ColumnSource.Parsed(slot, _, _) => ConstantValues.setInternal(v, task.parsedValues(slot))
        case ColumnSource.Loader(_) => ()
      }
      i += 1
    }
  }

  /** The output batch over the loader's harvested batch. */
  def assemble(loaderBatch: ColumnarBatch): ColumnarBatch = {
    var i = 0
    while (i < sources.length) {
      columns(i) = sources(i) match {
        case ColumnSource.Loader(index) =>
          if (useMissing(i)) missingConstants(i) else loaderBatch.column(index)
        case _ => constants(i)
      }
      i += 1
    }
    new ColumnarBatch(columns.clone(), loaderBatch.numRows)
  }

  private def loaderField(i: Int) = sources(i) match {
    case ColumnSource.Loader(index) => spec.readerSchema.fields(index)
    case _ => spec.outputSchema.fields(i)
  }

  def close(): Unit = (constants ++ missingConstants).foreach(c => if (c != null) c.close())
}
