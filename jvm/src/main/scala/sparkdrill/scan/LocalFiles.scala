package sparkdrill.scan

import java.io.{FileNotFoundException, InputStream}
import java.nio.file.{Files, NoSuchFileException, Path => JPath, Paths}
import java.nio.file.attribute.BasicFileAttributes

import scala.collection.mutable.ArrayBuffer

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileSystem, LocalFileSystem, Path, RawLocalFileSystem}

/** Lists local directories and opens local files from their start with the JDK, where that gives what
  * Hadoop's `LocalFileSystem` would (issue 16): planning and reading a tree of 100,000 small files is
  * mostly such calls.
  *
  * Measured on this project's machine over 100,000 two-line files in 200 directories: Hadoop lists them in
  * 1.3 s and the JDK in 0.26 s (Hadoop stats each file four times and parses a `Path` URI for each); Hadoop
  * opens one in 45 µs and the JDK in 5 µs (Hadoop stats it again, builds an I/O statistics store per stream
  * and, looking for its `.crc`, constructs a `FileNotFoundException` with its stack trace).
  *
  * Only when `file:` is Hadoop's own `LocalFileSystem` (or Hive's `ProxyLocalFileSystem`, which PySpark's
  * jars register for `file:` and which lists and reads as its parent does), not a user's replacement; a
  * file is opened here only when no `.crc` is beside it, so Hadoop would not verify a checksum either.
  * Otherwise, and for every other file system, None: the caller goes through Hadoop.
  */
private[sparkdrill] object LocalFiles {

  private val readsAsLocal =
    Set(classOf[LocalFileSystem].getName, "org.apache.hadoop.hive.ql.io.ProxyLocalFileSystem")

  // Whether `file:` is one of those, as Hadoop would give it for this configuration (its cached instance,
  // unless the configuration turns the cache off), looked up once per configuration.
  private val hadoopLocal = new PerConfiguration[java.lang.Boolean](c =>
    try {
      val fs = FileSystem.get(java.net.URI.create("file:///"), c)
      try readsAsLocal(fs.getClass.getName)
      finally if (c.getBoolean("fs.file.impl.disable.cache", false)) fs.close() // our own instance
    } catch { case _: java.io.IOException => false }
  )

  /** Whether `path` is on the local file system as Hadoop's `LocalFileSystem` reads it. */
  def isLocal(path: String, conf: Configuration): Boolean =
    path.startsWith("file:/") && !path.startsWith("file://") && hadoopLocal(conf)

  /** The file's bytes from its start, or None: open it through Hadoop. */
  def open(path: String, conf: Configuration): Option[InputStream] =
    local(path, conf).flatMap { file =>
      val name = file.getFileName
      if (name == null || Files.exists(file.resolveSibling("." + name + ".crc"))) None
      else
        try Some(new CountedStream(Files.newInputStream(file)))
        catch { case e: NoSuchFileException => throw missing(path, e) }
    }

  // The bytes go into Hadoop's statistics of the local file system, as Hadoop's own stream counts them:
  // Spark's task metrics (the UI's "Input" column) read them from there.
  @annotation.nowarn("cat=deprecation")
  private lazy val statistics = FileSystem.getStatistics("file", classOf[RawLocalFileSystem])

  private final class CountedStream(in: InputStream) extends java.io.FilterInputStream(in) {
    override def read(): Int = {
      val b = in.read()
      if (b >= 0) statistics.incrementBytesRead(1)
      b
    }
    override def read(b: Array[Byte], off: Int, len: Int): Int = {
      val n = in.read(b, off, len)
      if (n > 0) statistics.incrementBytesRead(n)
      n
    }
  }

  /** What Hadoop's `listStatus(dir)` gives, or None: list it through Hadoop. As there: entries that vanish
    * while listed are left out, symbolic links are followed, and checksum files (`.name.crc`) are hidden.
    */
  def list(dir: Path, conf: Configuration): Option[Array[FileLister.Listed]] =
    local(dir.toString, conf).map { directory =>
      val prefix = dir.toString.stripSuffix("/") + "/"
      val found = ArrayBuffer.empty[FileLister.Listed]
      val entries =
        try Files.newDirectoryStream(directory)
        catch { case e: NoSuchFileException => throw missing(dir.toString, e) }
      try
        entries.forEach { entry =>
          val name = entry.getFileName.toString
          if (!(name.startsWith(".") && name.endsWith(".crc"))) attributes(entry).foreach { a =>
            val length = if (a.isDirectory) 0L else a.size
            found += FileLister
              .Listed(prefix + name, name, a.isDirectory, length, a.lastModifiedTime.toMillis)
          }
        }
      finally entries.close()
      found.toArray
    }

  private def attributes(entry: JPath): Option[BasicFileAttributes] =
    try Some(Files.readAttributes(entry, classOf[BasicFileAttributes]))
    catch { case _: NoSuchFileException => None }

  // As Hadoop says it, so that a file deleted since listing fails (or is skipped) the same way.
  private def missing(path: String, cause: Exception): FileNotFoundException = {
    val e = new FileNotFoundException(s"File $path does not exist")
    e.initCause(cause)
    e
  }

  // Hadoop spells a local path `file:` and the path, not %-encoded (`file:/data/a b.csv`); one with an
  // authority (`file://host/...`) is left to Hadoop.
  private def local(path: String, conf: Configuration): Option[JPath] =
    if (isLocal(path, conf)) Some(Paths.get(path.substring("file:".length))) else None
}
