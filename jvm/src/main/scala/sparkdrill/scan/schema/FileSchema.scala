package sparkdrill.scan.schema

import org.apache.spark.sql.types.{DataType, StructType}

import sparkdrill.projection.FileInfo

/** How a file's reader schema was found. */
private[sparkdrill] sealed trait Discovery extends Serializable

private[sparkdrill] object Discovery {

  /** Types come from a sample of records (JSON; text with `inferTypes=true`). */
  case object Sampled extends Discovery

  /** Only the header line was read (text): names, with the reader's default type. */
  case object HeaderOnly extends Discovery
}

/** The reader schema discovered for one file. Readers report `NullType` for a column seen only as null and
  * `array<void>` for arrays seen only empty; the tracker types those (string) unless another file knows better.
  * A file with no columns at all (a zero-byte text file) contributes nothing.
  */
private[sparkdrill] final case class FileSchema(file: FileInfo, schema: StructType, discovery: Discovery) {
  def path: String = file.path
}

/** What happened to one column of one file. */
private[sparkdrill] sealed trait ColumnStatus extends Serializable

private[sparkdrill] object ColumnStatus {

  /** This file is the first (in path order) to bring the column. */
  case object Added extends ColumnStatus

  /** Already known with the same type. */
  case object Matched extends ColumnStatus

  /** Types differed: the column was widened (see the conflict). */
  final case class Widened(conflict: TypeConflict) extends ColumnStatus

  /** The provided or defined schema fixes the type; the reader converts this file's values to it. */
  case object Converted extends ColumnStatus

  /** Not a table column; the reader ignores it (or rescues it). */
  final case class Dropped(reason: DropReason) extends ColumnStatus

  /** Headerless text with a schema: the schema's columns bind to this file's fields by position. */
  case object ByPosition extends ColumnStatus
}

private[sparkdrill] sealed trait DropReason extends Serializable

private[sparkdrill] object DropReason {

  /** `schemaMode=strict`: not a column of the first file. */
  case object SchemaModeStrict extends DropReason

  /** `strictSchema=true`: not a provided column. */
  case object StrictSchema extends DropReason

  /** Not a column of the defined (user) schema. */
  case object DefinedSchema extends DropReason
}

/** Two sightings of a column whose types differ at `path` (`m.b`, `a[]`, `m{value}`): the types there. */
private[sparkdrill] final case class TypeConflict(
    column: String,
    path: String,
    earlierType: DataType,
    earlierFile: String,
    laterType: DataType,
    laterFile: String
) {
  def describe: String =
    s"column '$path': ${earlierType.simpleString} in $earlierFile, ${laterType.simpleString} in $laterFile"
}

/** One row of `sd.describe`: a column as one file has it. `tableName`/`tableType` are the resulting table
  * column (None when dropped); `firstFile` is the file that first brought the column; `inferredMaps` the
  * paths of the table column's members that map inference made maps; `places` where in the file it was
  * found, for a format whose files have parts (a workbook's sheets).
  */
private[sparkdrill] final case class ColumnReport(
    name: String,
    fileType: DataType,
    status: ColumnStatus,
    tableName: Option[String],
    tableType: Option[DataType],
    firstFile: Option[String],
    inferredMaps: Seq[String] = Nil,
    places: Option[String] = None
)

/** What one file contributed: its columns, and the table columns it lacks (filled per [[Fill]]). */
private[sparkdrill] final case class FileReport(
    path: String,
    discovery: Discovery,
    columns: Seq[ColumnReport],
    missing: Seq[String]
) {
  def conflicts: Seq[TypeConflict] = columns.collect {
    case ColumnReport(_, _, ColumnStatus.Widened(c), _, _, _, _, _) => c
  }
  def dropped: Seq[String] = columns.collect {
    case ColumnReport(n, _, ColumnStatus.Dropped(_), _, _, _, _, _) =>
      n
  }
}
