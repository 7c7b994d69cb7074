package sparkdrill.scan

import java.io.FileNotFoundException
import java.time.{LocalDateTime, ZoneId}

import scala.collection.mutable.ArrayBuffer

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, GlobFilter, Path}

import sparkdrill.reader.ReaderOptions
import sparkdrill.errors.DrillErrors

/** Lists the files of a scan through Hadoop's FileSystem: files, directories (recursively), globs and
  * several paths. Names starting with `.` or `_` are skipped, as Spark and Drill do. Files come back sorted
  * by path, so every later step is deterministic.
  */
private[sparkdrill] object FileLister {

  /** A directory's entry, as listed: its full path as Hadoop spells it (`file:/data/a.csv`) and its name. */
  final case class Listed(
      path: String,
      name: String,
      isDirectory: Boolean,
      length: Long,
      modificationTime: Long
  )

  object Listed {
    def apply(status: FileStatus): Listed = Listed(
      status.getPath.toString,
      status.getPath.getName,
      status.isDirectory,
      status.getLen,
      status.getModificationTime
    )
  }

  /** @param memo a stream's memory of the directories it listed before: those unchanged since are not listed
    *   again (their subdirectories still are looked at)
    */
  def list(
      paths: Seq[String],
      conf: Configuration,
      options: ReaderOptions,
      zone: ZoneId,
      memo: Option[DirectoryMemo] = None
  ): IndexedSeq[ScanFile] = {
    val started = System.currentTimeMillis()
    val nameFilter = options.get(ScanOptions.PathGlobFilter).map(new GlobFilter(_))
    val modifiedBefore = options.get(ScanOptions.ModifiedBefore).map(timeOption("modifiedBefore", _, zone))
    val modifiedAfter = options.get(ScanOptions.ModifiedAfter).map(timeOption("modifiedAfter", _, zone))
    val ignoreMissing = options(ScanOptions.IgnoreMissingFiles)
    val found = ArrayBuffer.empty[ScanFile]

    // `dirs`: the directory names between the scan root and the file (the same for a directory's files).
    def accept(entry: Listed, dirs: Array[String]): Unit = {
      val time = entry.modificationTime
      val wanted = !hidden(entry.name) &&
        nameFilter.forall(_.accept(new Path(entry.path))) &&
        modifiedBefore.forall(time < _) &&
        modifiedAfter.forall(time > _)
      if (wanted) FormatRegistry.forFile(entry.name, options).foreach { plugin =>
        found += ScanFile(entry.path, entry.length, time, dirs, plugin.name)
      }
    }
    def acceptStatus(status: FileStatus, root: Path): Unit =
      accept(Listed(status), relativeDirs(root, status.getPath.getParent))

    def listDir(dir: Path): Array[Listed] =
      LocalFiles.list(dir, conf).getOrElse(dir.getFileSystem(conf).listStatus(dir).map(Listed(_)))

    // Directories (each with its scan root, and its time when its parent's listing gave it, else -1) level by
    // level, a level's directories listed in parallel (an object store's listing requests overlap; local ones
    // are listed with the JDK, see LocalFiles). With a memo, a directory unchanged since its last listing is
    // not listed: its subdirectories, as then, are looked at instead.
    def walk(dirs: Seq[(Path, Path, Long)]): Unit = {
      var level = dirs
      while (level.nonEmpty) {
        val listed: Seq[Either[Seq[String], (Long, Array[Listed])]] = DriverThreads.map(level) {
          case (dir, _, known) =>
            memo match {
              case None => Right((known, listDir(dir)))
              case Some(m) =>
                val time = if (known >= 0) known else timeOf(dir)
                if (time == Gone) Left(Nil) // a subdirectory of an unlisted directory, since removed
                else
                  m.unchanged(dir.toString, time) match {
                    case Some(subdirectories) => Left(subdirectories)
                    case None => Right((time, listDir(dir)))
                  }
            }
        }
        val below = ArrayBuffer.empty[(Path, Path, Long)]
        level.zip(listed).foreach {
          case ((_, root, _), Left(subdirectories)) =>
            subdirectories.foreach(d => below += ((new Path(d), root, -1L)))
          case ((dir, root, _), Right((time, entries))) =>
            val dirs = relativeDirs(root, dir)
            val subdirectories = ArrayBuffer.empty[String]
            entries.foreach { entry =>
              if (!entry.isDirectory) accept(entry, dirs)
              else if (!hidden(entry.name)) {
                below += ((new Path(entry.path), root, entry.modificationTime))
                subdirectories += entry.path
              }
            }
            memo.foreach(_.listed(dir.toString, time, started, subdirectories.toSeq))
        }
        level = below.toSeq
      }
    }

    // The time of a directory its parent's listing did not give (it is under an unlisted directory).
    def timeOf(dir: Path): Long =
      try dir.getFileSystem(conf).getFileStatus(dir).getModificationTime
      catch { case _: FileNotFoundException => Gone }

    paths.foreach { raw =>
      val path = new Path(raw)
      val fs = path.getFileSystem(conf)
      val qualified = fs.makeQualified(path)
      if (isGlob(raw)) {
        val root = globRoot(qualified)
        Option(fs.globStatus(qualified))
          .getOrElse(Array.empty[FileStatus])
          .sortBy(_.getPath.toString)
          .foreach { status =>
            if (status.isDirectory) walk(Seq((status.getPath, root, status.getModificationTime)))
            else acceptStatus(status, root)
          }
      } else {
        val status =
          try Some(fs.getFileStatus(qualified))
          catch {
            case _: FileNotFoundException if ignoreMissing => None
            case e: FileNotFoundException =>
              throw DrillErrors.pathNotFound(raw, e)
          }
        status.foreach { s =>
          if (s.isDirectory) walk(Seq((s.getPath, s.getPath, s.getModificationTime)))
          else acceptStatus(s, s.getPath.getParent)
        }
      }
    }
    Distinct.by(found.toSeq)(_.path).sortBy(_.path).toIndexedSeq
  }

  /** Of files named one by one (a stream's file events), those a listing of `paths` would give, as it would
    * give them: under a path (or matching a glob, or under a directory it matches), no hidden name on the way
    * down, the name filter, the time bounds and a format. Nothing is listed.
    */
  def select(
      paths: Seq[String],
      files: Seq[FileStatus],
      conf: Configuration,
      options: ReaderOptions,
      zone: ZoneId
  ): IndexedSeq[ScanFile] = {
    val nameFilter = options.get(ScanOptions.PathGlobFilter).map(new GlobFilter(_))
    val modifiedBefore = options.get(ScanOptions.ModifiedBefore).map(timeOption("modifiedBefore", _, zone))
    val modifiedAfter = options.get(ScanOptions.ModifiedAfter).map(timeOption("modifiedAfter", _, zone))
    val roots = paths.map { raw =>
      val path = new Path(raw)
      val qualified = path.getFileSystem(conf).makeQualified(path)
      if (isGlob(raw)) (globRoot(qualified), Some(new org.apache.hadoop.fs.GlobPattern(qualified.toString)))
      else (qualified, None)
    }
    val found = files.filter(_.isFile).flatMap { status =>
      val file = status.getPath
      val name = file.getName
      val time = status.getModificationTime
      roots.iterator
        .flatMap { case (root, glob) =>
          val rootText = root.toString.stripSuffix("/") + "/"
          val text = file.toString
          // Under the root; below a glob, the file or one of its directories must match it.
          val matched = text.startsWith(rootText) && glob.forall { g =>
            Iterator
              .iterate(file)(_.getParent)
              .takeWhile(p => p != null && p.toString.length >= rootText.length - 1)
              .exists(p => g.matches(p.toString))
          }
          if (!matched) None
          else {
            val dirs = relativeDirs(root, file.getParent)
            val wanted = !hidden(name) && !dirs.exists(hidden) && nameFilter.forall(_.accept(file)) &&
              modifiedBefore.forall(time < _) && modifiedAfter.forall(time > _)
            if (!wanted) None
            else
              FormatRegistry
                .forFile(name, options)
                .map(p => ScanFile(text, status.getLen, time, dirs, p.name))
          }
        }
        .take(1)
        .toSeq
    }
    Distinct.by(found)(_.path).sortBy(_.path).toIndexedSeq
  }

  /** The directory `raw`'s files are listed from, qualified: `dirN` count from it (a glob's deepest directory
    * without glob characters; a file's parent; a directory (or a path ending in `/`), or a path not there
    * yet, itself).
    */
  def rootOf(raw: String, conf: Configuration): Path = {
    val path = new Path(raw)
    val fs = path.getFileSystem(conf)
    val qualified = fs.makeQualified(path)
    if (isGlob(raw)) globRoot(qualified)
    // A trailing slash says a directory: no request to ask (on S3 a directory's status costs a LIST).
    else if (raw.endsWith("/")) qualified
    else if (scala.util.Try(fs.getFileStatus(qualified).isFile).getOrElse(false)) qualified.getParent
    else qualified
  }

  // A directory removed since the listing that found it.
  private val Gone = Long.MinValue

  def hidden(name: String): Boolean = name.startsWith(".") || name.startsWith("_")

  private def isGlob(p: String): Boolean = p.exists(c => c == '*' || c == '?' || c == '[' || c == '{')

  // The scan root of a glob is its deepest directory without glob characters: dirN count from there.
  private def globRoot(pattern: Path): Path = {
    var p = pattern.getParent
    while (p != null && isGlob(p.toUri.getPath)) p = p.getParent
    if (p == null) pattern.getParent else p
  }

  private def relativeDirs(root: Path, dir: Path): Array[String] = {
    val rootPath = root.toUri.getPath.stripSuffix("/")
    val dirPath = dir.toUri.getPath.stripSuffix("/")
    if (dirPath.length <= rootPath.length || !dirPath.startsWith(rootPath)) Array.empty
    else dirPath.substring(rootPath.length + 1).split('/').filter(_.nonEmpty)
  }

  private def timeOption(name: String, value: String, zone: ZoneId): Long =
    try LocalDateTime.parse(value.trim.replace(' ', 'T')).atZone(zone).toInstant.toEpochMilli
    catch {
      case e: java.time.format.DateTimeParseException =>
        throw DrillErrors.badTimestampOption(name, value, e)
    }
}
