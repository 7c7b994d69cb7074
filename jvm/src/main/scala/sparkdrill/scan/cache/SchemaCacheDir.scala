package sparkdrill.scan.cache

import java.io.{BufferedOutputStream, FileNotFoundException, IOException}
import java.util.UUID

import scala.collection.mutable
import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, FileSystem, Path}
import org.apache.spark.sql.types.StructType

import sparkdrill.scan.ScanFile
import sparkdrill.scan.cache.CacheFileFormat._

/** The `schemaCache` directory: files' discovered schemas kept for later sessions, on any Hadoop file system.
  *
  * Files are never changed once written. A write makes a new file with a unique name, under a hidden
  * temporary name first and renamed into place, so readers see whole files and two writers (two sessions,
  * two clusters) never write the same file; readers merge every file. A line that fails its CRC, is not
  * JSON, or holds a schema that does not parse is left out and reported, never trusted (see
  * [[CacheFileFormat]]). A write that would leave [[SchemaCacheDir.CompactAt]] files compacts instead: it
  * writes one file holding everything it read and its own entries, then deletes the files it read whole.
  * A file another writer adds meanwhile was not read, so it stays; an entry is deleted only once it is in a
  * file in place. Nothing here fails a read: problems come back as messages.
  */
private[sparkdrill] final class SchemaCacheDir(val location: String, conf: Configuration) {
  import SchemaCacheDir._

  private val dir = new Path(location)

  /** Every entry the directory's files hold, and which files a compaction may replace. */
  def load(): Contents = {
    val problems = Vector.newBuilder[String]
    val entries = mutable.HashMap.empty[CacheKey, StructType]
    val replaceable = Vector.newBuilder[Path]
    // Equal schemas (and fingerprints) of different files are one object in memory.
    val schemas = mutable.HashMap.empty[StructType, StructType]
    val strings = mutable.HashMap.empty[String, String]
    def shared(k: CacheKey): CacheKey = k.copy(
      format = strings.getOrElseUpdate(k.format, k.format),
      fingerprint = strings.getOrElseUpdate(k.fingerprint, k.fingerprint)
    )

    def read(fs: FileSystem, file: Path): Unit = {
      val ids = mutable.HashMap.empty[Int, StructType]
      var number = 0
      var version = 0 // the header's; 0 while there is none
      var bad = 0
      var firstBad = ""
      def reject(why: String): Unit = {
        if (bad == 0) firstBad = s"line $number: $why"
        bad += 1
      }
      def take(line: Line): Unit = line match {
        case SchemaLine(id, schema) => ids(id) = schemas.getOrElseUpdate(schema, schema)
        case FileLine(key, id) =>
          ids.get(id) match {
            case Some(schema) => entries(shared(key)) = schema
            case None => reject(s"its schema $id was not read")
          }
        case Header(_) => reject("a second header")
      }
      try {
        val in = fs.open(file)
        try
          foreachLine(in) { line =>
            number += 1
            val decoded = line match {
              case Some((bytes, length)) => decode(bytes, length)
              case None => Left(s"longer than $MaxLineBytes bytes")
            }
            if (number == 1) version = headerVersion(decoded)
            else if (version == Version) decoded.fold(reject, take)
          }
        finally in.close()
        if (version == 0) problems += s"discovery cache file $file is ignored: it has no spark-drill header"
        else if (version != Version)
          problems += s"discovery cache file $file is ignored: it is of version $version (this spark-drill " +
            s"reads version $Version)"
        // Read to its end: a compaction may replace it, unless a newer spark-drill wrote it.
        if (version <= Version) replaceable += file
      } catch {
        case _: FileNotFoundException => () // compacted by another writer since it was listed
        case NonFatal(e) =>
          problems += s"discovery cache file $file could not be read to its end (${show(e)})"
      }
      if (bad > 0) problems += s"discovery cache file $file: $bad line(s) ignored ($firstBad)"
    }

    val files: Seq[FileStatus] =
      try {
        val fs = dir.getFileSystem(conf)
        val status =
          try Some(fs.getFileStatus(dir))
          catch { case _: FileNotFoundException => None }
        status match {
          case None => Nil // nothing written yet
          case Some(s) if !s.isDirectory =>
            problems += s"discovery cache $location is not a directory"
            Nil
          case Some(_) => fs.listStatus(dir).toSeq.filter(s => s.isFile && isCacheFile(s.getPath.getName))
        }
      } catch {
        case NonFatal(e) =>
          problems += s"discovery cache $location cannot be listed (${show(e)})"
          Nil
      }
    if (files.nonEmpty) {
      val fs = dir.getFileSystem(conf)
      files.sortBy(_.getPath.getName).foreach(s => read(fs, s.getPath))
    }
    Contents(entries.toMap, replaceable.result(), problems.result())
  }

  /** Adds `fresh` to the directory, compacting it when it holds many files; `read` is what [[load]] found
    * and `listed` the files of the table (entries of those files at another length or time are dropped when
    * compacting). Returns the problems: a directory that cannot be written is one, not an error.
    */
  def write(fresh: Seq[(CacheKey, StructType)], read: Contents, listed: Seq[ScanFile]): Seq[String] =
    try {
      val fs = dir.getFileSystem(conf)
      if (read.replaceable.size + 1 < CompactAt) publish(fs, fresh)
      else {
        val current = listed.map(f => f.path -> ((f.length, f.modificationTime))).toMap
        val kept = read.entries.filter { case (k, _) =>
          current.get(k.path).forall(_ == ((k.length, k.modificationTime)))
        }
        publish(fs, (kept ++ fresh).toSeq)
        read.replaceable.foreach(p => deleteQuietly(fs, p))
        deleteAbandoned(fs)
      }
      Nil
    } catch {
      case NonFatal(e) =>
        Seq(
          s"discovery cache $location cannot be written (${show(e)}): this read goes on without keeping " +
            "its files' schemas there"
        )
    }

  // Written whole under a hidden name, then renamed: readers never see half a file under a cache file's name.
  private def publish(fs: FileSystem, entries: Seq[(CacheKey, StructType)]): Unit = {
    if (!fs.mkdirs(dir)) throw new IOException(s"cannot create the directory $dir")
    val name = s"${System.currentTimeMillis}-${UUID.randomUUID}$Suffix"
    val temp = new Path(dir, s".$name$TempSuffix")
    try {
      val out = new BufferedOutputStream(fs.create(temp, false), 1 << 16)
      try {
        out.write(encode(Header(Version)))
        val ids = mutable.HashMap.empty[StructType, Int]
        entries.foreach { case (key, schema) =>
          val id = ids.get(schema) match {
            case Some(known) => known
            case None =>
              val next = ids.size
              ids(schema) = next
              out.write(encode(SchemaLine(next, schema)))
              next
          }
          out.write(encode(FileLine(key, id)))
        }
      } finally out.close()
      if (!fs.rename(temp, new Path(dir, name))) throw new IOException(s"cannot rename $temp to $name")
    } catch {
      case NonFatal(e) =>
        deleteQuietly(fs, temp)
        throw e
    }
  }

  // Temporary files of writers that died before renaming them.
  private def deleteAbandoned(fs: FileSystem): Unit = {
    val before = System.currentTimeMillis - AbandonedAfterMillis
    fs.listStatus(dir)
      .filter(s => s.isFile && isTempFile(s.getPath.getName) && s.getModificationTime < before)
      .foreach(s => deleteQuietly(fs, s.getPath))
  }

  private def deleteQuietly(fs: FileSystem, p: Path): Unit =
    try fs.delete(p, false)
    catch { case NonFatal(_) => () }
}

private[sparkdrill] object SchemaCacheDir {

  /** A write that would leave this many files merges them into one. */
  val CompactAt = 16

  private val TempSuffix = ".tmp"
  private val AbandonedAfterMillis = 60L * 60 * 1000

  /** What a directory held: its entries, the files a compaction may replace (those read to their end that
    * no newer spark-drill wrote), and what was wrong with it.
    */
  final case class Contents(
      entries: Map[CacheKey, StructType],
      replaceable: Seq[Path],
      problems: Seq[String]
  )

  val empty: Contents = Contents(Map.empty, Nil, Nil)

  /** Cache files: our suffix, not hidden (temporary files start with a dot). */
  def isCacheFile(name: String): Boolean =
    name.endsWith(Suffix) && !name.startsWith(".") && !name.startsWith("_")

  // Our temporary files only: `.<cache file name>.tmp`.
  private def isTempFile(name: String): Boolean = name.startsWith(".") && name.endsWith(Suffix + TempSuffix)

  /** The version a file's first line declares; 0 when it is no header. */
  private def headerVersion(firstLine: Either[String, CacheFileFormat.Line]): Int = firstLine match {
    case Right(CacheFileFormat.Header(v)) => v
    case _ => 0
  }

  private def show(e: Throwable): String = s"${e.getClass.getSimpleName}: ${e.getMessage}"
}
