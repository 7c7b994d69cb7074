package sparkdrill.scan

import java.util.{Locale, ServiceLoader}

import scala.jdk.CollectionConverters._

import sparkdrill.reader.{FormatPlugin, ReaderOptions}

/** The formats on the classpath, found through `java.util.ServiceLoader` (each jar's
  * `META-INF/services/sparkdrill.reader.FormatPlugin`), by name and by file suffix. The scan names no format.
  */
private[sparkdrill] object FormatRegistry {

  /** Every format, in a stable order (by name). Two formats may not share a name or a suffix. */
  lazy val plugins: Seq[FormatPlugin] = {
    val found = ServiceLoader.load(classOf[FormatPlugin], getClass.getClassLoader).asScala.toVector
    val byName = found.groupBy(_.name.toLowerCase(Locale.ROOT)).map { case (n, ps) =>
      if (ps.map(_.getClass).distinct.size > 1)
        throw new IllegalStateException(
          s"spark-drill: two formats are named '$n': ${ps.map(_.getClass.getName).distinct.mkString(", ")}"
        )
      n -> ps.head
    }
    val ordered = byName.values.toSeq.sortBy(_.name)
    ordered.flatMap(p => p.suffixes.map(_ -> p)).groupBy(_._1).foreach { case (suffix, ps) =>
      if (ps.size > 1)
        throw new IllegalStateException(
          s"spark-drill: formats ${ps.map(_._2.name).mkString(", ")} all claim the suffix .$suffix"
        )
    }
    ordered
  }

  /** Hadoop codec suffixes that may follow a format suffix (`a.csv.gz`). */
  val compressionSuffixes: Set[String] = Set("gz", "bz2", "deflate", "zst", "lz4", "snappy")

  private lazy val byName: Map[String, FormatPlugin] =
    plugins.map(p => p.name.toLowerCase(Locale.ROOT) -> p).toMap
  private lazy val bySuffix: Map[String, FormatPlugin] = plugins.flatMap(p => p.suffixes.map(_ -> p)).toMap

  def named(name: String): FormatPlugin =
    byName.getOrElse(
      name.toLowerCase(Locale.ROOT),
      throw new IllegalArgumentException(
        s"spark-drill: unknown format '$name' (option 'format'); known formats: " +
          byName.keys.toSeq.sorted.mkString(", ")
      )
    )

  /** The format of a file: the `format` option when given, else the file's suffix (before any codec), when
    * its format claims it under these options (`.log` needs a pattern).
    */
  def forFile(fileName: String, options: ReaderOptions): Option[FormatPlugin] =
    options.get(ScanOptions.Format) match {
      case Some(f) => Some(named(f))
      case None =>
        val parts = fileName.toLowerCase(Locale.ROOT).split('.').toSeq.drop(1)
        val withoutCodec = if (parts.nonEmpty && compressionSuffixes(parts.last)) parts.init else parts
        withoutCodec.lastOption.flatMap(bySuffix.get).filter(_.claimsSuffix(options))
    }
}
