package sparkdrill.reader

import java.util.Locale
import sparkdrill.errors.DrillErrors

/** Every option a read may set: the scan's, the shared reader options and each format's, in one table. It
  * parses a user's options once, at planning: an unknown name fails naming the nearest valid one (SPEC 1),
  * a Spark option with no meaning here fails saying so, and a value that does not parse fails naming the
  * option.
  *
  * @param specs the options, under their names and aliases
  * @param prefixes option families (`format.<column>`)
  * @param unsupported Spark csv/json option names spark-drill has no counterpart for -> why
  * @param internal names Spark itself passes (`path`, `paths`), read elsewhere
  */
final class OptionCatalog(
    val specs: Seq[OptionSpec[_]],
    val prefixes: Seq[PrefixOptionSpec],
    unsupported: Map[String, String],
    internal: Set[String]
) {
  private def lower(s: String) = s.toLowerCase(Locale.ROOT)

  // Two declarations of one name must be the same option (two formats may share one).
  specs.groupBy(_.key).foreach { case (k, same) =>
    require(same.distinct.size == 1, s"option '$k' is declared twice, differently: ${same.distinct}")
  }

  /** By lower-case name or alias. */
  private val byName: Map[String, OptionSpec[_]] =
    specs.distinct.flatMap(s => (s.name +: s.aliases).map(n => lower(n) -> s)).toMap
  private val unsupportedByName = unsupported.map { case (k, v) => lower(k) -> v }
  private val internalNames = internal.map(lower)

  // The last table made by `including`, kept: every read of a session asks for the same one.
  @volatile private var lastIncluding: (Seq[OptionSpec[_]], OptionCatalog) = (Nil, this)

  /** This table and `extra` (a layer's own options, declared where that layer reads them). */
  def including(extra: Seq[OptionSpec[_]]): OptionCatalog =
    if (extra.isEmpty) this
    else {
      val (seen, table) = lastIncluding
      if (seen eq extra) table
      else {
        val made = new OptionCatalog(specs ++ extra, prefixes, unsupported, internal)
        lastIncluding = (extra, made)
        made
      }
    }

  /** The distinct options, in declaration order. */
  def options: Seq[OptionSpec[_]] = specs.distinct

  def find(name: String): Option[OptionSpec[_]] = byName.get(lower(name))

  /** Parses and checks `raw` (names as the user spelt them). */
  def parse(raw: Map[String, String]): ReaderOptions = {
    val values = Map.newBuilder[String, Any]
    val prefixed = scala.collection.mutable.Map.empty[String, Map[String, String]]
    val passThrough = Map.newBuilder[String, String]
    val seen = scala.collection.mutable.Map.empty[String, (String, String)]
    raw.foreach { case (name, text) =>
      val key = lower(name)
      byName.get(key) match {
        case Some(spec) =>
          seen.get(spec.key).foreach { case (otherName, otherText) =>
            if (otherText != text)
              throw DrillErrors.optionSpelledTwice(otherName, otherText, name, text, spec.name)
          }
          seen(spec.key) = name -> text
          values += spec.key -> spec.kind.parse(name, text)
        case None if internalNames(key) => ()
        case None if OptionCatalog.isHadoopSetting(key) => passThrough += name -> text
        case None =>
          prefixes.find(p => key.startsWith(p.key) && key.length > p.key.length) match {
            case Some(p) =>
              prefixed(p.key) =
                prefixed.getOrElse(p.key, Map.empty) + (name.substring(p.prefix.length) -> text)
            case None => throw unknown(name)
          }
      }
    }
    new ReaderOptions(values.result(), prefixed.toMap, passThrough.result())
  }

  private def unknown(name: String): OptionException = {
    val key = lower(name)
    unsupportedByName.get(key) match {
      case Some(why) => DrillErrors.sparkOptionWithoutCounterpart(name, why)
      case None => DrillErrors.unknownOption(name, nearest(name))
    }
  }

  /** The valid name closest to `name` by edit distance (case-insensitive), if any is close enough. */
  def nearest(name: String): Option[String] = {
    val key = lower(name)
    val candidates = specs.distinct.flatMap(s => s.name +: s.aliases)
    val scored = candidates.map(c => c -> OptionCatalog.distance(key, lower(c)))
    val (best, d) = if (scored.isEmpty) ("", Int.MaxValue) else scored.minBy(_._2)
    if (d <= math.max(2, key.length / 3)) Some(best) else None
  }
}

object OptionCatalog {

  /** Settings Spark hands to Hadoop's FileSystem, as its own file sources do (`fs.s3a.endpoint`). */
  private val HadoopPrefixes = Seq("fs.", "hadoop.", "dfs.", "mapreduce.", "io.", "yarn.")

  def isHadoopSetting(lowerName: String): Boolean = HadoopPrefixes.exists(lowerName.startsWith)

  /** Levenshtein distance. */
  def distance(a: String, b: String): Int = {
    val previous = Array.tabulate(b.length + 1)(identity)
    val current = new Array[Int](b.length + 1)
    a.indices.foreach { i =>
      current(0) = i + 1
      b.indices.foreach { j =>
        val cost = if (a.charAt(i) == b.charAt(j)) 0 else 1
        current(j + 1) = math.min(math.min(current(j) + 1, previous(j + 1) + 1), previous(j) + cost)
      }
      System.arraycopy(current, 0, previous, 0, current.length)
    }
    previous(b.length)
  }
}
