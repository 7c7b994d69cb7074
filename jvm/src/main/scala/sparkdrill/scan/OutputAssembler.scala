package sparkdrill.scan

import java.util.Locale

import org.apache.spark.sql.execution.vectorized.ConstantColumnVector
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.vectorized.{ColumnVector, ColumnarBatch}

/** Builds each output batch in Spark's column order from the loader's vectors and per-file constants. No
  * value is copied: the batch only points at vectors, and constants are set once per file.
  */
private[sparkdrill] final class OutputAssembler(spec: ScanSpec) extends AutoCloseable {
  private val sources = spec.sources
  private val names = spec.readerSchema.fieldNames.map(_.toLowerCase(Locale.ROOT))
  private val capacity = spec.loaderOptions.batchRows
  private val constants: Array[ConstantColumnVector] = sources.map {
    case OutputSource.Constant(_, dataType) => new ConstantColumnVector(capacity, dataType)
    case _: OutputSource.Reader => null
  }
  private val columns = new Array[ColumnVector](sources.length)
  // NOT NULL columns a file lacks: their default (or zero) replaces the loader's column for that file.
  private val fills = new Array[ConstantColumnVector](sources.length)
  private val useFill = new Array[Boolean](sources.length)

  /** Sets the constants of the file whose rows come next. `declared` is the schema its reader built its
    * loader with: the file's own columns. A NOT NULL column it does not declare is absent from the file and
    * takes its DEFAULT (or zero) in every row; one it declares is the reader's to write. The reader is the
    * judge, not discovery, as the file may have changed since (a header gained or lost a column).
    */
  def startFile(task: FileTask, declared: Option[StructType]): Unit = {
    val has =
      if (spec.fillsWhereAbsent.isEmpty) Set.empty[String]
      else declared.fold(Set.empty[String])(_.fieldNames.map(_.toLowerCase(Locale.ROOT)).toSet)
    var i = 0
    while (i < sources.length) {
      sources(i) match {
        case OutputSource.Constant(slot, _) =>
          // A constant's setters leave its null flag alone: clear what the previous file set.
          constants(i).setNotNull()
          ConstantValues.setInternal(constants(i), task.constants(slot))
        case OutputSource.Reader(index) =>
          useFill(i) = spec.fillsWhereAbsent.contains(index) && !has(names(index))
          if (useFill(i)) {
            if (fills(i) == null) fills(i) = new ConstantColumnVector(capacity, spec.outputSchema(i).dataType)
            fills(i).setNotNull()
            ConstantValues.setInternal(fills(i), spec.fillsWhereAbsent(index))
          }
      }
      i += 1
    }
  }

  /** The output batch over the loader's harvested batch. */
  def assemble(loaderBatch: ColumnarBatch): ColumnarBatch = {
    var i = 0
    while (i < sources.length) {
      columns(i) = sources(i) match {
        case OutputSource.Reader(index) => if (useFill(i)) fills(i) else loaderBatch.column(index)
        case _ => constants(i)
      }
      i += 1
    }
    new ColumnarBatch(columns.clone(), loaderBatch.numRows)
  }

  def close(): Unit = (constants ++ fills).foreach(c => if (c != null) c.close())
}
