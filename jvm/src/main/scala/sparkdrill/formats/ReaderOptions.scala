package sparkdrill.formats

import java.util.Locale

/** Reader options by case-insensitive name, as Spark's own readers take them. */
final class ReaderOptions(entries: Map[String, String]) extends Serializable {
  private val byKey: Map[String, String] = entries.map { case (k, v) => k.toLowerCase(Locale.ROOT) -> v }

  def get(name: String): Option[String] = byKey.get(name.toLowerCase(Locale.ROOT))
  def getOrElse(name: String, default: => String): String = get(name).getOrElse(default)
  def contains(name: String): Boolean = byKey.contains(name.toLowerCase(Locale.ROOT))

  def boolean(name: String, default: Boolean): Boolean = get(name) match {
    case None => default
    case Some(v) =>
      v.trim.toLowerCase(Locale.ROOT) match {
        case "true" => true
        case "false" => false
        case other =>
          throw new IllegalArgumentException(s"option '$name' must be true or false, got '$other'")
      }
  }

  def int(name: String, default: Int): Int = get(name) match {
    case None => default
    case Some(v) =>
      v.trim.toIntOption.getOrElse(
        throw new IllegalArgumentException(s"option '$name' must be an integer, got '$v'")
      )
  }

  def long(name: String, default: Long): Long = get(name) match {
    case None => default
    case Some(v) =>
      v.trim.toLongOption.getOrElse(
        throw new IllegalArgumentException(s"option '$name' must be an integer, got '$v'")
      )
  }

  def asMap: Map[String, String] = byKey
  override def toString: String = byKey.toSeq.sortBy(_._1).map { case (k, v) => s"$k=$v" }.mkString(", ")
}

object ReaderOptions {
  val empty: ReaderOptions = new ReaderOptions(Map.empty)
  def apply(entries: (String, String)*): ReaderOptions = new ReaderOptions(entries.toMap)
}
