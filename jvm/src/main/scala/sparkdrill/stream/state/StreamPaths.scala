package sparkdrill.stream.state

import scala.util.Try

import org.apache.hadoop.fs.Path

/** The stored form of a tracked path: relative to the input root when under it, so a checkpoint moved with
  * its input tree (or onto another bucket) still knows every file; a file outside the root keeps its full
  * URI. The two are told apart by the full form's leading `/` or `scheme:`; a relative path that would look
  * like one (a first directory named `a:`) is stored as `./a:/...`.
  */
private[sparkdrill] object StreamPaths {
  def relativize(inputRoot: String, fullPath: String): String = {
    val root = normalized(inputRoot).stripSuffix("/")
    val full = normalized(fullPath)
    if (full.length > root.length + 1 && full.startsWith(root) && full.charAt(root.length) == '/') {
      val relative = full.substring(root.length + 1)
      if (looksFull(relative)) "./" + relative else relative
    } else full
  }

  def resolve(inputRoot: String, stored: String): String =
    if (looksFull(stored)) stored
    else
      normalized(inputRoot).stripSuffix("/") + "/" + (if (stored.startsWith("./")) stored.substring(2)
                                                      else stored)

  /** A stored path's part under the input root (`2026/a.csv`), or None for a file outside the root. */
  def underRoot(stored: String): Option[String] =
    if (looksFull(stored)) None else Some(if (stored.startsWith("./")) stored.substring(2) else stored)

  /** [[relativize]] for one root, made once per stream: a trigger relativizes every listed file, and a listed
    * path already has the root's form, so the common case is a prefix test and a substring (building two
    * Hadoop Paths per file was most of a trigger's time past the listing at 100,000 files).
    */
  final class Relative(inputRoot: String) {
    private val prefix = normalized(inputRoot).stripSuffix("/") + "/"

    def apply(fullPath: String): String =
      if (fullPath.length > prefix.length && fullPath.startsWith(prefix)) {
        val relative = fullPath.substring(prefix.length)
        if (looksFull(relative)) "./" + relative else relative
      } else relativize(inputRoot, fullPath)
  }

  private def looksFull(path: String): Boolean =
    path.startsWith("/") || (path.nonEmpty && path.charAt(0).isLetter && schemeEnd(path) > 0)

  // The index of a `scheme:` prefix's colon, or -1 (the characters RFC 3986 allows in a scheme).
  private def schemeEnd(path: String): Int = {
    var i = 0
    while (i < path.length) {
      val c = path.charAt(i)
      if (c == ':') return i
      if (!(c.isLetterOrDigit || c == '+' || c == '.' || c == '-')) return -1
      i += 1
    }
    -1
  }

  // Hadoop spells one local path `file:///x` or `file:/x`; its Path gives one form of both.
  private def normalized(path: String): String = Try(new Path(path).toString).getOrElse(path)
}
