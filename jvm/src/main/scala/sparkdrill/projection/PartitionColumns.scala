package sparkdrill.projection

import java.util.Locale

import scala.util.Try

import org.apache.spark.sql.catalyst.expressions.{Cast, Literal}
import org.apache.spark.sql.types.{DataType, StringType, StructField}
import org.apache.spark.unsafe.types.UTF8String
import sparkdrill.errors.DrillErrors

/** Which directory a partition column reads. */
private[sparkdrill] sealed trait PartitionKey extends Serializable

private[sparkdrill] object PartitionKey {

  /** `dirN`: the Nth directory below the scan root (0 nearest the root). */
  final case class Dir(n: Int) extends PartitionKey

  /** `partitionStyle=hive`: the value of the nearest-root directory named `key=value`. */
  final case class Hive(key: String) extends PartitionKey
}

/** Claims `dirN` (label configurable, any N, case-insensitive). `*` adds `dir0 .. dir(D-1)`, D the deepest
  * file's depth; a shallower file's value is null. With `inWildcard=false` (option `partitionColumns=false`)
  * they are hidden columns instead.
  */
private[sparkdrill] final case class DirColumnParser(label: String = "dir", inWildcard: Boolean = true)
    extends ColumnParser {
  def id: String = "partition"

  def parse(column: RequestedColumn, context: ParseContext): Option[ParsedColumn] = column.shape match {
    case Shape.Whole => index(column.name).map(n => parsed(column.name, n))
    case _ => None
  }

  override def wildcardColumns(context: ParseContext): Seq[ParsedColumn] =
    if (inWildcard) all(context) else Nil

  override def hiddenColumns(context: ParseContext): Seq[ParsedColumn] =
    if (inWildcard) Nil else all(context)

  def value(column: ParsedColumn, file: FileInfo): Any = column.kind match {
    case ParsedKind.Partition(PartitionKey.Dir(n)) =>
      if (n < file.dirs.size) UTF8String.fromString(file.dirs(n)) else null
    case other => throw DrillErrors.internalArgument(s"column ${column.name} ($other) is not a dirN column")
  }

  private def all(context: ParseContext): Seq[ParsedColumn] =
    (0 until context.depth).map(n => parsed(s"$label$n", n))

  /** `dir12` -> 12; leading zeros (`dir01`) are not partition names. */
  private def index(name: String): Option[Int] = {
    val lower = name.toLowerCase(Locale.ROOT)
    val prefix = label.toLowerCase(Locale.ROOT)
    if (!lower.startsWith(prefix)) None
    else {
      val digits = lower.substring(prefix.length)
      if (digits.isEmpty || !digits.forall(_.isDigit) || (digits.length > 1 && digits.head == '0')) None
      else scala.util.Try(digits.toInt).toOption
    }
  }

  private def parsed(name: String, n: Int): ParsedColumn =
    ParsedColumn(StructField(name, StringType, nullable = true), ParsedKind.Partition(PartitionKey.Dir(n)))
}

/** `partitionStyle=hive`: each key of a `key=value` directory anywhere in the scan is a column (first-seen
  * spelling, in path order), a string unless the provided schema types it. Values are unescaped as Spark does
  * (`%2F` -> `/`); `__HIVE_DEFAULT_PARTITION__` and a file without the key give null.
  */
private[sparkdrill] final case class HivePartitionParser(inWildcard: Boolean = true) extends ColumnParser {
  def id: String = "hive"

  def parse(column: RequestedColumn, context: ParseContext): Option[ParsedColumn] = column.shape match {
    case Shape.Whole =>
      HivePartitionParser.keys(context.files).find(_.equalsIgnoreCase(column.name)).map { key =>
        parsed(column.name, key, context)
      }
    case _ => None
  }

  override def wildcardColumns(context: ParseContext): Seq[ParsedColumn] =
    if (inWildcard) all(context) else Nil
  override def hiddenColumns(context: ParseContext): Seq[ParsedColumn] = if (inWildcard) Nil else all(context)

  def value(column: ParsedColumn, file: FileInfo): Any = column.kind match {
    case ParsedKind.Partition(PartitionKey.Hive(key)) =>
      HivePartitionParser.rawValue(file, key) match {
        case None => null
        case Some(text) =>
          HivePartitionParser.convert(text, column.dataType).getOrElse {
            throw DrillErrors.badPartitionValue(file.path, key, text, column.dataType.simpleString)
          }
      }
    case other => throw DrillErrors.internalArgument(s"column ${column.name} ($other) is not a hive column")
  }

  private def all(context: ParseContext): Seq[ParsedColumn] =
    HivePartitionParser.keys(context.files).map(k => parsed(k, k, context))

  private def parsed(name: String, key: String, context: ParseContext): ParsedColumn = {
    val dataType = context.providedField(key).map(_.dataType).getOrElse(StringType)
    ParsedColumn(StructField(name, dataType, nullable = true), ParsedKind.Partition(PartitionKey.Hive(key)))
  }
}

private[sparkdrill] object HivePartitionParser {
  val DefaultPartition = "__HIVE_DEFAULT_PARTITION__"

  def split(dir: String): Option[(String, String)] = dir.indexOf('=') match {
    case i if i > 0 => Some(unescape(dir.substring(0, i)) -> unescape(dir.substring(i + 1)))
    case _ => None
  }

  /** Partition keys of all files, first spelling first, in the order given (the scan's path order). */
  def keys(files: Seq[FileInfo]): Seq[String] =
    files.flatMap(_.dirs.flatMap(split).map(_._1)).foldLeft(Vector.empty[String]) { (acc, k) =>
      if (acc.exists(_.equalsIgnoreCase(k))) acc else acc :+ k
    }

  def rawValue(file: FileInfo, key: String): Option[String] =
    file.dirs.flatMap(split).find(_._1.equalsIgnoreCase(key)).map(_._2).filter(_ != DefaultPartition)

  /** The text as a Spark internal value of `dataType`; None when it does not convert. */
  def convert(text: String, dataType: DataType): Option[Any] =
    if (dataType == StringType) Some(UTF8String.fromString(text))
    else
      Try(Cast(Literal(UTF8String.fromString(text), StringType), dataType, Some("UTC")).eval()).toOption
        .filter(_ != null)

  private def isHex(c: Char): Boolean = Character.digit(c, 16) >= 0

  private def unescape(s: String): String = {
    if (!s.contains('%')) return s
    val sb = new StringBuilder
    var i = 0
    while (i < s.length) {
      val c = s.charAt(i)
      if (c == '%' && i + 2 < s.length && isHex(s.charAt(i + 1)) && isHex(s.charAt(i + 2))) {
        sb += Integer.parseInt(s.substring(i + 1, i + 3), 16).toChar
        i += 3
      } else { sb += c; i += 1 }
    }
    sb.result()
  }
}
