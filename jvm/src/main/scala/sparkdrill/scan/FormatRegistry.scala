package sparkdrill.scan

import java.lang.ref.SoftReference
import java.util.{Collections, Locale, ServiceLoader, WeakHashMap}

import scala.jdk.CollectionConverters._

import sparkdrill.reader.{FormatPlugin, OptionCatalog, ReaderOptions}
import sparkdrill.errors.DrillErrors

/** The formats a thread sees, found through `java.util.ServiceLoader` (each jar's
  * `META-INF/services/sparkdrill.reader.FormatPlugin`), by name and by file suffix. The scan names no format.
  *
  * A format may come from the user's own jar (`--jars`, `spark.jars`): Spark puts such jars in a class loader
  * of their own, the thread's context class loader (spark-submit's on the driver, the executor's on a task
  * thread), not in the one that loaded spark-drill. So the formats are looked up through the calling thread's
  * context class loader and through spark-drill's own (the built-in formats, also when the context loader
  * cannot see them), and kept per context class loader: a list made before a jar was added is not served to
  * a loader that has it.
  */
private[sparkdrill] object FormatRegistry {

  /** The formats one class loader sees, checked: two formats may not share a name or a suffix. */
  final class Formats private[FormatRegistry] (found: Seq[FormatPlugin]) {

    /** Every format, in a stable order (by name). */
    val plugins: Seq[FormatPlugin] = {
      val byName = found.groupBy(_.name.toLowerCase(Locale.ROOT)).map { case (n, ps) =>
        if (ps.size > 1)
          throw DrillErrors.formatNamedTwice(n, ps.map(_.getClass.getName))
        n -> ps.head
      }
      val ordered = byName.values.toSeq.sortBy(_.name)
      ordered.flatMap(p => p.suffixes.map(_ -> p)).groupBy(_._1).foreach { case (suffix, ps) =>
        if (ps.size > 1)
          throw DrillErrors.suffixClaimedTwice(suffix, ps.map(_._2.name))
      }
      ordered
    }

    private val byName: Map[String, FormatPlugin] =
      plugins.map(p => p.name.toLowerCase(Locale.ROOT) -> p).toMap
    private val bySuffix: Map[String, FormatPlugin] = plugins.flatMap(p => p.suffixes.map(_ -> p)).toMap

    /** The one option table with these formats' options (ScanOptions.catalog). */
    lazy val catalog: OptionCatalog = ScanOptions.catalogOf(plugins)

    def named(name: String): FormatPlugin =
      byName.getOrElse(
        name.toLowerCase(Locale.ROOT),
        throw DrillErrors.unknownFormat(name, byName.keys.toSeq)
      )

    def forFile(fileName: String, options: ReaderOptions): Option[FormatPlugin] =
      options.get(ScanOptions.Format) match {
        case Some(f) => Some(named(f))
        case None =>
          val parts = fileName.toLowerCase(Locale.ROOT).split('.').toSeq.drop(1)
          val withoutCodec = if (parts.nonEmpty && compressionSuffixes(parts.last)) parts.init else parts
          withoutCodec.lastOption.flatMap(bySuffix.get).filter(_.claimsSuffix(options))
      }
  }

  /** Hadoop codec suffixes that may follow a format suffix (`a.csv.gz`). */
  val compressionSuffixes: Set[String] = Set("gz", "bz2", "deflate", "zst", "lz4", "snappy")

  private val own: ClassLoader = getClass.getClassLoader

  // Weak keys, soft values: a session's class loader (Spark Connect makes one per session) that is no longer
  // used can be collected, though the formats it found are instances of its classes.
  private val byLoader =
    Collections.synchronizedMap(new WeakHashMap[ClassLoader, SoftReference[Formats]]())
  // Planning asks once per file: the last loader's formats are read without the lock.
  @volatile private var last: (ClassLoader, Formats) = _

  /** The formats the calling thread sees. */
  def current: Formats = {
    val context = Thread.currentThread.getContextClassLoader
    val loader = if (context == null) own else context
    val seen = last
    if (seen != null && (seen._1 eq loader)) seen._2
    else {
      val formats = byLoader.synchronized {
        Option(byLoader.get(loader)).flatMap(r => Option(r.get)).getOrElse {
          val made = load(loader)
          byLoader.put(loader, new SoftReference(made))
          made
        }
      }
      last = (loader, formats)
      formats
    }
  }

  // Both loaders list the built-in formats when the context loader delegates to spark-drill's: one instance
  // per class.
  private def load(loader: ClassLoader): Formats = {
    val found = (Seq(own) ++ (if (loader eq own) Nil else Seq(loader))).flatMap { l =>
      ServiceLoader.load(classOf[FormatPlugin], l).asScala.toVector
    }
    val distinct = found.groupBy(_.getClass).values.map(_.head).toSeq
    new Formats(distinct)
  }

  /** Every format the calling thread sees, in a stable order (by name). */
  def plugins: Seq[FormatPlugin] = current.plugins

  def named(name: String): FormatPlugin = current.named(name)

  /** The format of a file: the `format` option when given, else the file's suffix (before any codec), when
    * its format claims it under these options (`.log` needs a pattern).
    */
  def forFile(fileName: String, options: ReaderOptions): Option[FormatPlugin] =
    current.forFile(fileName, options)
}
