package sparkdrill.scan

import java.io.FileNotFoundException
import java.time.{LocalDateTime, ZoneId}

import scala.collection.mutable.ArrayBuffer

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, GlobFilter, Path}

import sparkdrill.reader.ReaderOptions

/** Lists the files of a scan through Hadoop's FileSystem: files, directories (recursively), globs and
  * several paths. Names starting with `.` or `_` are skipped, as Spark and Drill do. Files come back sorted
  * by path, so every later step is deterministic.
  */
object FileLister {

  def list(
      paths: Seq[String],
      conf: Configuration,
      options: ReaderOptions,
      zone: ZoneId
  ): IndexedSeq[ScanFile] = {
    val formatOption = options.get(ScanOptions.Format)
    val nameFilter = options.get(ScanOptions.PathGlobFilter).map(new GlobFilter(_))
    val modifiedBefore = options.get(ScanOptions.ModifiedBefore).map(timeOption("modifiedBefore", _, zone))
    val modifiedAfter = options.get(ScanOptions.ModifiedAfter).map(timeOption("modifiedAfter", _, zone))
    val ignoreMissing = options(ScanOptions.IgnoreMissingFiles)
    val found = ArrayBuffer.empty[ScanFile]

    def accept(status: FileStatus, root: Path): Unit = {
      val name = status.getPath.getName
      val time = status.getModificationTime
      val wanted = !hidden(name) &&
        nameFilter.forall(_.accept(status.getPath)) &&
        modifiedBefore.forall(time < _) &&
        modifiedAfter.forall(time > _)
      if (wanted) FormatRegistry.forFile(name, formatOption).foreach { plugin =>
        val dirs = relativeDirs(root, status.getPath.getParent)
        found += ScanFile(status.getPath.toString, status.getLen, time, dirs, plugin.name)
      }
    }

    def walk(dir: Path, root: Path): Unit = {
      val fs = dir.getFileSystem(conf)
      fs.listStatus(dir).sortBy(_.getPath.toString).foreach { status =>
        if (status.isDirectory) { if (!hidden(status.getPath.getName)) walk(status.getPath, root) }
        else accept(status, root)
      }
    }

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
            if (status.isDirectory) walk(status.getPath, root) else accept(status, root)
          }
      } else {
        val status =
          try Some(fs.getFileStatus(qualified))
          catch {
            case _: FileNotFoundException if ignoreMissing => None
            case e: FileNotFoundException =>
              throw new FileNotFoundException(
                s"spark-drill: path does not exist: $raw (option ignoreMissingFiles=true skips it)"
              ).initCause(e)
          }
        status.foreach { s =>
          if (s.isDirectory) walk(s.getPath, s.getPath) else accept(s, s.getPath.getParent)
        }
      }
    }
    found.distinctBy(_.path).sortBy(_.path).toIndexedSeq
  }

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
        throw new IllegalArgumentException(
          s"option '$name' must be a timestamp like 2024-01-31T12:00:00, got '$value'",
          e
        )
    }
}
