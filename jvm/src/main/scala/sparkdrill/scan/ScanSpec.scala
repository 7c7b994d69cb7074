package sparkdrill.scan

import org.apache.spark.sql.types.{DataType, StructType}

import sparkdrill.loader.{LoaderOptions, ProjectionFilter}
import sparkdrill.reader.{ReaderOptions, RecordColumns, RowFilter}

/** Where one output column's values come from in a task. */
private[sparkdrill] sealed trait OutputSource extends Product with Serializable

private[sparkdrill] object OutputSource {

  /** Column `index` of the loader's batch: a table column, or `_line`/`_offset`. */
  final case class Reader(index: Int) extends OutputSource

  /** A per-file constant (a file column, `dirN`, a hive key, a column parser's value): slot `slot` of
    * [[FileTask.constants]], computed on the driver.
    */
  final case class Constant(slot: Int, dataType: DataType) extends OutputSource
}

/** A byte range of one file for one task, with what the driver computed for the file.
  *
  * @param fileSchema the file's header schema, carried only for splits that start past the header
  * @param constants the file's per-file constant values (Spark internal values), by [[OutputSource.Constant]]
  *   slot
  */
private[sparkdrill] final case class FileTask(
    file: ScanFile,
    start: Long,
    end: Long,
    fileSchema: Option[StructType],
    constants: IndexedSeq[Any] = IndexedSeq.empty
)

/** Everything an executor needs to read, the same for every task: plain, serializable data.
  *
  * @param outputSchema the columns Spark asked for, in its order
  * @param sources one per output column
  * @param readerSchema the loader's columns, which every reader writes
  * @param projection the loader's projection filter (columns after the projected ones are only validated)
  * @param requestedElements array columns of which only some elements are read (`columns[2]`)
  * @param fills NOT NULL columns (lower-case names) -> the Spark internal value of their DEFAULT or zero
  * @param fillsWhereAbsent NOT NULL reader columns that come from files, by reader column index -> the same
  *   value: a file whose reader does not declare the column (the schema it builds its loader with) lacks it,
  *   and every row of that file takes the value
  * @param positionalSchema the table columns in field order, when files bind them by position
  * @param tableColumns the lower-case names of every table column (a value outside them has nowhere to go):
  *   names only, as every task gets this spec. The table's types, which a wide schema makes large, stay on
  *   the driver: a task sees only the columns its query reads.
  * @param rowLimit a pushed `LIMIT`: each task stops reading once it has this many rows
  * @param rowFilter pushed predicates on table columns that readers judge records by before converting the
  *   other columns (Spark checks them again after the scan)
  * @param lateColumns what a reader does with columns the table lacks that it meets past discovery, when that
  *   is not to drop or rescue their values (a stream whose schema evolves)
  */
private[sparkdrill] final case class ScanSpec(
    outputSchema: StructType,
    sources: Array[OutputSource],
    readerSchema: StructType,
    projection: ProjectionFilter,
    requestedElements: Map[String, Seq[Int]],
    fills: Map[String, Any],
    fillsWhereAbsent: Map[Int, Any],
    options: ReaderOptions,
    loaderOptions: LoaderOptions,
    positionalSchema: Option[StructType],
    tableColumns: Set[String],
    rowLimit: Long = Long.MaxValue,
    rowFilter: Option[RowFilter] = None,
    lateColumns: Option[LateColumns] = None
) {

  /** Whether readers write `_line` or `_offset` (which need the file read from its start). */
  def readsRecordPositions: Boolean =
    readerSchema.fieldNames.exists(n => n == RecordColumns.Line || n == RecordColumns.Offset)
}
