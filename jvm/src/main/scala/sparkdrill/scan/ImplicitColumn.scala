package sparkdrill.scan

import java.util.Locale

import org.apache.spark.sql.types.{DataType, LongType, StringType, TimestampType}

import sparkdrill.formats.ReaderOptions

/** The hidden per-file and per-record columns (SPEC 3.3). Labels can be renamed with options. */
sealed abstract class ImplicitColumn(
    val defaultLabel: String,
    val labelOption: String,
    val dataType: DataType
) extends Serializable {
  def label(options: ReaderOptions): String = options.getOrElse(labelOption, defaultLabel)

  /** Per-record columns come from the reader; the others are constant for a file. */
  def perRecord: Boolean = false
}

object ImplicitColumn {
  case object Filename extends ImplicitColumn("filename", "filenameLabel", StringType)
  case object Filepath extends ImplicitColumn("filepath", "filepathLabel", StringType)
  case object Fqn extends ImplicitColumn("fqn", "fqnLabel", StringType)
  case object Suffix extends ImplicitColumn("suffix", "suffixLabel", StringType)
  case object Lmt extends ImplicitColumn("lmt", "lmtLabel", TimestampType)
  case object Line extends ImplicitColumn("_line", "lineLabel", LongType) {
    override def perRecord: Boolean = true
  }
  case object Offset extends ImplicitColumn("_offset", "offsetLabel", LongType) {
    override def perRecord: Boolean = true
  }

  val all: Seq[ImplicitColumn] = Seq(Filename, Filepath, Fqn, Suffix, Lmt, Line, Offset)

  def byLabel(options: ReaderOptions): Map[String, ImplicitColumn] =
    all.map(c => c.label(options).toLowerCase(Locale.ROOT) -> c).toMap
}
