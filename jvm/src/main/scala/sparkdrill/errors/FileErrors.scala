package sparkdrill.errors

/** The paths and files of a read: none given, none there, one gone or unreadable, a per-file value wrong. */
trait FileErrors {

  def noPath(): DrillException =
    new DrillException(ErrorClasses.NoPath, "no path given: use load(path) or the option 'path'")

  /** `why` says which suffixes need a format's options, or is empty. */
  def noFiles(paths: Seq[String], why: String): DrillException =
    new DrillException(
      ErrorClasses.NoFiles,
      s"no readable files under ${paths.mkString(", ")}$why",
      Map("path" -> paths.mkString(", "))
    )

  def pathNotFound(path: String, cause: Throwable): PathNotFoundException = {
    val option = "ignoreMissingFiles=true skips it"
    val e = new PathNotFoundException(s"path does not exist: $path (option $option)", path, option)
    e.initCause(cause)
    e
  }

  /** A file listed at planning is gone when read. */
  def missingFile(path: String, cause: Throwable): ScanException = {
    val e = new ScanException(
      ErrorClasses.MissingFile,
      "the file no longer exists (it was listed when the query was planned)",
      path,
      -1,
      -1,
      None,
      None,
      Some("ignoreMissingFiles=true skips it")
    )
    e.initCause(cause)
    e
  }

  /** A file that failed while read (not a record's error: an I/O error, corrupt compression). */
  def unreadableFile(path: String, cause: Throwable): ScanException =
    unreadable(s"failed to read (${describe(cause)})", path, cause)

  /** A file that discovery cannot read (corrupt or truncated compression, say). */
  def undiscoverableFile(path: String, cause: Throwable): ScanException =
    unreadable(s"cannot read the file to discover its schema (${describe(cause)})", path, cause)

  private def unreadable(reason: String, path: String, cause: Throwable): ScanException = {
    val e = new ScanException(ErrorClasses.UnreadableFile, reason, path, -1, -1, None, None, None)
    e.initCause(cause)
    e
  }

  private def describe(cause: Throwable): String = s"${cause.getClass.getSimpleName}: ${cause.getMessage}"

  /** A hive partition's value (`key=text` in the file's path) that is not of its column's type. */
  def badPartitionValue(file: String, key: String, text: String, typeName: String): DrillException =
    new DrillException(
      ErrorClasses.BadPartitionValue,
      s"partition value '$text' of '$key' in $file is not a $typeName (providedSchema types this partition column)",
      Map("file" -> file, "column" -> key, "value" -> text, "option" -> "providedSchema")
    )
}
