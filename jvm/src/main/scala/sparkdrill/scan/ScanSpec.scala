package sparkdrill.scan

import java.util.Locale

import org.apache.spark.sql.types.{DataType, StructType}

import sparkdrill.loader.{LoaderOptions, ProjectionFilter}
import sparkdrill.projection.ImplicitKind

/** Where one output column's values come from. */
sealed trait ColumnSource extends Product with Serializable

object ColumnSource {

  /** Column `index` of the loader's batch (a table column, or a per-record implicit one). */
  final case class Loader(index: Int) extends ColumnSource

  /** A per-file constant: file name, path, suffix, modification time. */
  final case class FileConstant(kind: ImplicitKind.FileKind) extends ColumnSource

  /** `dirN`: the N-th directory below the scan root, null for shallower files. */
  final case class Partition(depth: Int) extends ColumnSource

  /** A hive-style partition column: the value of `key=value` in the file's directories, null if none. */
  final case class Hive(key: String) extends ColumnSource

  /** A column no file can fill: null of its type. */
  final case class Null(dataType: DataType) extends ColumnSource

  /** A column parser's per-file value (a Python parser's, say): slot `slot` of [[FileTask.parsedValues]],
    * computed on the driver.
    */
  final case class Parsed(slot: Int, name: String, dataType: DataType) extends ColumnSource
}

/** A byte range of one file for one task. `fileSchema` is the file's header schema, carried only for splits
  * that start past the header; `missingRequired` are the output columns (NOT NULL ones) the file lacks;
  * `parsedValues` are the file's column-parser values (Spark internal values), one per
  * [[ScanSpec.parsedColumns]] entry.
  */
final case class FileTask(
    file: ScanFile,
    start: Long,
    end: Long,
    fileSchema: Option[StructType],
    missingRequired: Seq[Int] = Nil,
    parsedValues: IndexedSeq[Any] = IndexedSeq.empty
)

/** Everything an executor needs to read: plain, serializable data.
  *
  * @param outputSchema the columns Spark asked for, in its order
  * @param sources one per output column
  * @param readerSchema the columns every reader writes into the loader, with their types
  * @param rowLimit a pushed `LIMIT`: each task stops reading once it has this many rows
  */
final case class ScanSpec(
    outputSchema: StructType,
    sources: Array[ColumnSource],
    readerSchema: StructType,
    options: Map[String, String],
    loaderOptions: LoaderOptions,
    rowLimit: Long = Long.MaxValue,
    positionalSchema: Option[StructType] = None,
    projectedColumns: Int = Int.MaxValue,
    tableSchema: StructType = new StructType()
) {

  /** Whether readers write `_line` or `_offset` (which need the file read from its start). */
  def readsRecordPositions: Boolean =
    readerSchema.fieldNames.exists(n =>
      n == sparkdrill.formats.RecordColumns.Line || n == sparkdrill.formats.RecordColumns.Offset
    )

  /** The column-parser columns in slot order (see [[ColumnSource.Parsed]]). */
  def parsedColumns: Seq[String] =
    sources.toSeq.collect { case p: ColumnSource.Parsed => p }.sortBy(_.slot).map(_.name).distinct

  /** The loader writes the first `projectedColumns` reader columns; the rest are only validated. */
  def loaderProjection: ProjectionFilter = {
    val names = readerSchema.fieldNames.take(projectedColumns).map(_.toLowerCase(Locale.ROOT)).toSet
    if (projectedColumns >= readerSchema.size) ProjectionFilter.All
    else
      new ProjectionFilter {
        def isProjected(name: String): Boolean = names.contains(name.toLowerCase(Locale.ROOT))
        def member(name: String): ProjectionFilter = ProjectionFilter.All
      }
  }
}
