package sparkdrill.scan

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

  /** The path as the user sees it: the local file system's scheme is dropped (SPEC 9.7). */
  def displayPath: String =
    if (path.startsWith("file:///")) path.substring("file://".length)
    else if (path.startsWith("file:/")) path.substring("file:".length)
    else path
}
