package sparkdrill.projection

import org.apache.spark.sql.types.{DataType, StructField, StructType}

/** One file of the scan as the column parsers see it. `path` is the full path as the user sees it
  * (`/data/a.csv`, `s3a://b/a.csv`); `dirs` are the directory names between the scan root and the file,
  * nearest the root first; `modificationTime` is in milliseconds since the epoch.
  */
final case class FileInfo(path: String, dirs: Seq[String], length: Long, modificationTime: Long)

/** What a parser learns about the scan when asked to claim a column. */
final case class ParseContext(files: Seq[FileInfo], providedSchema: Option[StructType]) {

  /** The partition depth of the scan: the deepest file's number of directories below the root. */
  def depth: Int = if (files.isEmpty) 0 else files.map(_.dirs.size).max

  def providedField(name: String): Option[StructField] =
    providedSchema.flatMap(_.fields.find(_.name.equalsIgnoreCase(name)))
}

/** Where the value of a parsed column comes from. */
sealed trait ParsedKind extends Serializable

object ParsedKind {

  /** A file metadata column: `filename`, `_line`, ... (a per-file constant or, for row kinds, the reader). */
  final case class Implicit(kind: ImplicitKind) extends ParsedKind

  /** A partition column: `dirN` or a hive `key=value` key; a per-file constant. */
  final case class Partition(key: PartitionKey) extends ParsedKind

  /** Headerless text's `columns` array (`columns`, `columns[n]`): the reader's single table column. */
  final case class ColumnsArray(indexes: Option[Seq[Int]]) extends ParsedKind

  /** Any other parser's column (a Python parser): a per-file constant from [[ColumnParser.value]]. */
  final case class Custom(parserId: String) extends ParsedKind
}

/** A column a parser claimed: its output field and where its value comes from. */
final case class ParsedColumn(field: StructField, kind: ParsedKind) {
  def name: String = field.name
  def dataType: DataType = field.dataType
}

/** Teaches the scan column names that no file holds (Drill's pluggable column parser). Parsers are asked on
  * the driver while the scan is planned, in order; the first to claim a name gets it, and a data column of
  * the same name wins over every parser (with a warning). Per-file values are computed on the driver and
  * travel to executors as constants, so a parser never runs on an executor.
  */
trait ColumnParser extends Serializable {

  /** Names the parser in plans and reports (and in [[ParsedKind.Custom]]). */
  def id: String

  /** Claims a projected top-level column, or not. The output name is the projected spelling. Throws an
    * IllegalArgumentException (naming the column) for a name it owns but cannot serve, like `columns.x`.
    */
  def parse(column: RequestedColumn, context: ParseContext): Option[ParsedColumn]

  /** Columns `*` adds after the table columns, in order (Drill's wildcard partition expansion). */
  def wildcardColumns(context: ParseContext): Seq[ParsedColumn] = Nil

  /** Columns that are not in `*` but selectable by name: Spark metadata columns. */
  def hiddenColumns(context: ParseContext): Seq[ParsedColumn] = Nil

  /** The value of a per-file column for `file`, as a Spark internal value (`UTF8String`, `java.lang.Long`
    * micros for timestamps, ...) of `column.dataType`, or null.
    */
  def value(column: ParsedColumn, file: FileInfo): Any

  /** The values of many files at once, in `files` order (parsers that are costly to call override it). */
  def values(column: ParsedColumn, files: Seq[FileInfo]): Seq[Any] = files.map(value(column, _))
}
