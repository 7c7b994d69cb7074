package sparkdrill.spark.stream

import scala.util.Try

import org.apache.hadoop.fs.Path

/** The stored form of a tracked path: relative to the input root when under it, so a checkpoint moved with
  * its input tree (or onto another bucket) still knows every file; a file outside the root keeps its full
  * URI. The two are told apart by the full form's leading `/` or `scheme:`; a relative path that would look
  * like one (a first directory named `a:`) is stored as `./a:/...`.
  */
private[stream] object StreamPaths {
  private val SchemePrefix = "^[A-Za-z][A-Za-z0-9+.-]*:".r

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

  private def looksFull(path: String): Boolean =
    path.startsWith("/") || SchemePrefix.findPrefixOf(path).isDefined

  // Hadoop spells one local path `file:///x` or `file:/x`; its Path gives one form of both.
  private def normalized(path: String): String = Try(new Path(path).toString).getOrElse(path)
}
