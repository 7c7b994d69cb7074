package sparkdrill.projection

import org.apache.spark.sql.types.{DataType, LongType, StringType, StructField, TimestampType}
import org.apache.spark.unsafe.types.UTF8String
import sparkdrill.errors.DrillErrors

/** The file metadata columns (SPEC 3.3). File kinds are per-file constants; row kinds come from the reader. */
private[sparkdrill] sealed abstract class ImplicitKind(
    val defaultLabel: String,
    val dataType: DataType,
    val nullable: Boolean
) extends Serializable

private[sparkdrill] object ImplicitKind {
  // No default arguments here: one would be a method of this object, called while a kind's own object is
  // initialized, and `all` below would then hold that kind as null.
  sealed abstract class FileKind(label: String, dt: DataType) extends ImplicitKind(label, dt, false)
  sealed abstract class RowKind(label: String, dt: DataType, nullable: Boolean)
      extends ImplicitKind(label, dt, nullable)

  /** `b.csv` */
  case object FileName extends FileKind("filename", StringType)

  /** Directory of the file: `/data/logs/2024`. */
  case object FilePath extends FileKind("filepath", StringType)

  /** `/data/logs/2024/b.csv` */
  case object Fqn extends FileKind("fqn", StringType)

  /** Text after the file name's last dot (`csv`; `gz` for `b.csv.gz`; empty when there is none). */
  case object Suffix extends FileKind("suffix", StringType)

  /** Last-modified time. */
  case object Lmt extends FileKind("lmt", TimestampType)

  /** 1-based line where the record starts. */
  case object Line extends RowKind("_line", LongType, false)

  /** Byte offset of the record in the uncompressed file. */
  case object Offset extends RowKind("_offset", LongType, false)

  /** The sheet of a workbook's row (SPEC 13); null for a record of a format without sheets. */
  case object Sheet extends RowKind("sheet", StringType, true)

  val fileKinds: Seq[FileKind] = Seq(FileName, FilePath, Fqn, Suffix, Lmt)
  val all: Seq[ImplicitKind] = fileKinds ++ Seq(Line, Offset, Sheet)
}

/** The labels of the file columns (options `filenameLabel`, ...). `_line`, `_offset` and `sheet` are fixed. */
private[sparkdrill] final case class ImplicitLabels(
    filename: String = ImplicitKind.FileName.defaultLabel,
    filepath: String = ImplicitKind.FilePath.defaultLabel,
    fqn: String = ImplicitKind.Fqn.defaultLabel,
    suffix: String = ImplicitKind.Suffix.defaultLabel,
    lmt: String = ImplicitKind.Lmt.defaultLabel
) {
  def label(kind: ImplicitKind): String = kind match {
    case ImplicitKind.FileName => filename
    case ImplicitKind.FilePath => filepath
    case ImplicitKind.Fqn => fqn
    case ImplicitKind.Suffix => suffix
    case ImplicitKind.Lmt => lmt
    case k: ImplicitKind.RowKind => k.defaultLabel
  }

  def kindOf(name: String): Option[ImplicitKind] = ImplicitKind.all.find(k => label(k).equalsIgnoreCase(name))

  /** Every implicit column: its label and kind, in a stable order. */
  def all: Seq[(String, ImplicitKind)] = ImplicitKind.all.map(k => label(k) -> k)
}

/** Path pieces of the file columns. The local file system's `file:` scheme is dropped, others are kept
  * (SPEC 9.7).
  */
private[sparkdrill] object FilePaths {
  def fqn(path: String): String =
    if (path.startsWith("file:")) {
      val rest = path.stripPrefix("file:")
      if (rest.startsWith("///")) rest.drop(2) else if (rest.startsWith("//")) rest.drop(1) else rest
    } else path

  def filename(path: String): String = {
    val p = fqn(path)
    p.substring(p.lastIndexOf('/') + 1)
  }

  def filepath(path: String): String = {
    val p = fqn(path)
    p.lastIndexOf('/') match {
      case -1 => ""
      case 0 => "/"
      case i => p.substring(0, i)
    }
  }

  def suffix(path: String): String = {
    val name = filename(path)
    name.lastIndexOf('.') match {
      case -1 => ""
      case i => name.substring(i + 1)
    }
  }
}

/** Claims the implicit file columns by label (case-insensitive; the projected spelling names the output).
  * Only a whole-column request is claimed: `filename.a` or `filepath[0]` are data columns (Drill R45).
  */
private[sparkdrill] final case class ImplicitColumnParser(labels: ImplicitLabels = ImplicitLabels())
    extends ColumnParser {
  def id: String = "implicit"

  def parse(column: RequestedColumn, context: ParseContext): Option[ParsedColumn] = column.shape match {
    case Shape.Whole => labels.kindOf(column.name).map(k => parsed(column.name, k))
    case _ => None
  }

  override def hiddenColumns(context: ParseContext): Seq[ParsedColumn] =
    ImplicitKind.all.map(k => parsed(labels.label(k), k))

  def value(column: ParsedColumn, file: FileInfo): Any = column.kind match {
    case ParsedKind.Implicit(kind: ImplicitKind.FileKind) => ImplicitColumnParser.fileValue(kind, file)
    case other => throw DrillErrors.internalArgument(s"column ${column.name} ($other) has no per-file value")
  }

  private def parsed(name: String, kind: ImplicitKind): ParsedColumn =
    ParsedColumn(StructField(name, kind.dataType, kind.nullable), ParsedKind.Implicit(kind))
}

private[sparkdrill] object ImplicitColumnParser {

  /** A file column's value as a Spark internal value. */
  def fileValue(kind: ImplicitKind.FileKind, file: FileInfo): Any = kind match {
    case ImplicitKind.FileName => UTF8String.fromString(FilePaths.filename(file.path))
    case ImplicitKind.FilePath => UTF8String.fromString(FilePaths.filepath(file.path))
    case ImplicitKind.Fqn => UTF8String.fromString(FilePaths.fqn(file.path))
    case ImplicitKind.Suffix => UTF8String.fromString(FilePaths.suffix(file.path))
    case ImplicitKind.Lmt => java.lang.Long.valueOf(Math.multiplyExact(file.modificationTime, 1000L))
  }
}
