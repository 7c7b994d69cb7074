package sparkdrill.scan.schema

import org.apache.spark.sql.types.{StructField, StructType}

import sparkdrill.loader.ProjectionFilter
import sparkdrill.projection.{ColumnParser, ImplicitKind, ParsedColumn, PartitionKey}

/** Where an output column's values come from. */
private[sparkdrill] sealed trait ColumnSource extends Serializable

private[sparkdrill] object ColumnSource {

  /** Column `readerIndex` of the [[ReaderInput]]: the reader's, or a per-file fill where a file lacks it. */
  final case class TableColumn(readerIndex: Int) extends ColumnSource

  /** Headerless text's `columns` array, reader column `readerIndex`; `indexes` the only elements to read. */
  final case class ColumnsArray(readerIndex: Int, indexes: Option[Seq[Int]]) extends ColumnSource

  /** A file metadata column (`filename`, ...): a per-file constant. */
  final case class ImplicitColumn(kind: ImplicitKind.FileKind) extends ColumnSource

  /** `_line` or `_offset`: written by the reader into reader column `readerIndex`. */
  final case class RecordColumn(kind: ImplicitKind.RowKind, readerIndex: Int) extends ColumnSource

  /** `dirN` or a hive key: a per-file constant. */
  final case class PartitionColumn(key: PartitionKey) extends ColumnSource

  /** Another column parser's column (Python): a per-file constant. */
  final case class ParserColumn(parserId: String) extends ColumnSource
}

/** One column of the scan's output, in output order. */
private[sparkdrill] final case class OutputColumn(field: StructField, source: ColumnSource) {
  def name: String = field.name

  /** Whether the value is the same for every row of a file (computed on the driver). */
  def isPerFile: Boolean = source match {
    case ColumnSource.ImplicitColumn(_) => true
    case ColumnSource.PartitionColumn(_) | ColumnSource.ParserColumn(_) => true
    case _ => false
  }
}

/** A column every reader must produce. `position` binds it to a field of headerless text; `indexes` are the
  * only array elements the query reads (`columns[2]`).
  */
private[sparkdrill] final case class ReaderColumn(
    field: StructField,
    fill: Fill,
    position: Option[Int],
    indexes: Option[Seq[Int]],
    fromFile: Boolean = true
)

/** The defined schema handed to every reader (SPEC's "reader input schema"): the output minus implicit and
  * partition columns, with types, nullability and fills; plus the loader's projection filter. Plain data,
  * serializable, the same for every file.
  */
private[sparkdrill] final case class ReaderInput(
    columns: Seq[ReaderColumn],
    filter: ProjectionFilter,
    byPosition: Boolean
) {
  def schema: StructType = StructType(columns.map(_.field))
  def isEmpty: Boolean = columns.isEmpty
}

/** The result of resolving a scan's files against its options.
  *
  * @param table
  *   the merged table columns (the columns of `*`, before partition columns)
  * @param output
  *   the output columns of the scan's own projection (option `project`, else `*`): `Table.schema()`
  * @param metadataColumns
  *   hidden columns, selectable by name but not in `*` (Spark metadata columns)
  * @param reports
  *   one per file, in path order, for `sd.describe`
  * @param warnings
  *   everything dropped, widened or shadowed, for the log
  */
private[sparkdrill] final case class ResolvedSchema(
    table: MergedTable,
    output: Seq[OutputColumn],
    metadataColumns: Seq[StructField],
    reports: Seq[FileReport],
    warnings: Seq[String],
    private[schema] val resolver: ProjectionResolver
) {

  /** The schema for `Table.schema()`: table columns in first-seen order (provided first), then partitions. */
  def schema: StructType = StructType(output.map(_.field))

  /** The plan of the scan's own projection. */
  def plan: ScanPlan = resolver.plan(resolver.projection)

  /** The plan of a narrower projection, typically `SparkProjection.fromRequiredSchema(requiredSchema)`. Its
    * columns are names of [[schema]] or of [[metadataColumns]]; under an explicit `project` option the
    * option's shapes are kept (`columns[2]` still reads only element 2).
    */
  def plan(required: sparkdrill.projection.Projection): ScanPlan = resolver.plan(resolver.narrow(required))

  /** See [[ProjectionResolver.perFileColumn]]. */
  def perFileColumn(name: String): Option[(ColumnParser, ParsedColumn)] = resolver.perFileColumn(name)
}
