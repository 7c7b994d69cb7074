package sparkdrill.scan

import sparkdrill.projection.{ImplicitColumnParser, ImplicitKind}

/** One file of the scan, as listed on the driver.
  *
  * @param path the full path (`file:/data/logs/a.csv`, `s3a://bucket/a.csv`)
  * @param dirs the directory names between the scan root and the file, nearest the root first
  * @param format the format plugin's name (by the `format` option or the file's suffix)
  */
final case class ScanFile(
    path: String,
    length: Long,
    modificationTime: Long,
    dirs: Array[String],
    format: String
) {

  /** The file as column parsers see it. */
  def info: sparkdrill.projection.FileInfo =
    sparkdrill.projection.FileInfo(displayPath, dirs.toSeq, length, modificationTime)

  def name: String = path.substring(path.lastIndexOf('/') + 1)

  /** The path as the user sees it: the local file system's scheme is dropped (SPEC 9.7). */
  def displayPath: String =
    if (path.startsWith("file:///")) path.substring("file://".length)
    else if (path.startsWith("file:/")) path.substring("file:".length)
    else path

  def displayDirectory: String = {
    val p = displayPath
    val slash = p.lastIndexOf('/')
    if (slash <= 0) p.take(1) else p.substring(0, slash)
  }

  /** The value of a file column (`filename`, ..., `lmt`) for this file, as a Spark internal value. */
  def fileColumnValue(kind: ImplicitKind.FileKind): Any = ImplicitColumnParser.fileValue(kind, info)

  /** The value of a hive-style directory `key=value` (keys compare case-insensitively), or null. */
  def hiveValue(key: String): String = {
    val prefix = key + "="
    dirs.find(_.regionMatches(true, 0, prefix, 0, prefix.length)).map(_.substring(prefix.length)).orNull
  }

  /** The keys of this file's hive-style directories, nearest the root first. */
  def hiveKeys: Seq[String] = dirs.toSeq.filter(_.contains('=')).map(d => d.substring(0, d.indexOf('=')))

  /** The suffix after the last dot of the file name (`csv`, `gz`), or "" when there is none. */
  def suffix: String = {
    val n = name
    val dot = n.lastIndexOf('.')
    if (dot < 0) "" else n.substring(dot + 1)
  }
}
