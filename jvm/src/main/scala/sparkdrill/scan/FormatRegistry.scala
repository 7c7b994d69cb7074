package sparkdrill.scan

import java.util.Locale

import sparkdrill.formats.FormatPlugin
import sparkdrill.formats.json.JsonFormat
import sparkdrill.formats.text.TextFormat

/** The formats spark-drill reads, by name and by file suffix. A new format registers here. */
object FormatRegistry {
  val plugins: Seq[FormatPlugin] = TextFormat.all :+ JsonFormat

  /** Hadoop codec suffixes that may follow a format suffix (`a.csv.gz`). */
  val compressionSuffixes: Set[String] = Set("gz", "bz2", "deflate", "zst", "lz4", "snappy")

  private val byName: Map[String, FormatPlugin] = plugins.map(p => p.name -> p).toMap
  private val bySuffix: Map[String, FormatPlugin] = plugins.flatMap(p => p.suffixes.map(_ -> p)).toMap

  def named(name: String): FormatPlugin =
    byName.getOrElse(
      name.toLowerCase(Locale.ROOT),
      throw new IllegalArgumentException(
        s"unknown format '$name' (option 'format'); known formats: ${byName.keys.toSeq.sorted.mkString(", ")}"
      )
    )

  /** The format of a file: the `format` option when given, else the file's suffix (before any codec). */
  def forFile(fileName: String, formatOption: Option[String]): Option[FormatPlugin] =
    formatOption match {
      case Some(f) => Some(named(f))
      case None =>
        val parts = fileName.toLowerCase(Locale.ROOT).split('.').toSeq.drop(1)
        val withoutCodec = if (parts.nonEmpty && compressionSuffixes(parts.last)) parts.init else parts
        withoutCodec.lastOption.flatMap(bySuffix.get)
    }
}
