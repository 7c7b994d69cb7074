package sparkdrill.stream.state

import java.io.{FilterOutputStream, IOException, OutputStream}
import java.util.UUID

import org.apache.hadoop.fs.{FileAlreadyExistsException, FileSystem, Path}

/** Every write of a stream's state goes through here: whole files, made visible at once under their final
  * name, and counted (the bytes written over a stream's life are a tested bound, see Compaction).
  */
private[sparkdrill] final class StateWriter(val fs: FileSystem) {
  private var written = 0L

  /** Bytes written to files since this writer was made. */
  def bytesWritten: Long = written

  /** Writes `target` through a temporary file beside it, renamed when complete: a reader sees the whole
    * file or none. An existing `target` fails with FileAlreadyExistsException. The check and the rename are
    * two steps (Hadoop's local file system renames over an existing file); the lease keeps a second writer
    * out, so only a foreign process could race here.
    */
  def writeNew(target: Path)(body: OutputStream => Unit): Unit = {
    val temp = StateLayout.tempFor(target, UUID.randomUUID().toString)
    val raw = fs.create(temp, false)
    try {
      val counted = new CountingStream(raw)
      body(counted)
      counted.close()
    } catch {
      case e: Throwable =>
        scala.util.Try(raw.close())
        scala.util.Try(fs.delete(temp, false))
        throw e
    }
    if (fs.exists(target)) {
      fs.delete(temp, false)
      throw new FileAlreadyExistsException(s"$target already exists: another writer made it first")
    }
    if (!fs.rename(temp, target)) {
      fs.delete(temp, false)
      if (fs.exists(target))
        throw new FileAlreadyExistsException(s"$target already exists: another writer made it first")
      throw new IOException(s"could not rename $temp to $target")
    }
  }

  /** An empty file as a marker; false when it was already there. */
  def touch(target: Path): Boolean =
    try { fs.create(target, false).close(); true }
    catch { case _: FileAlreadyExistsException => false }

  def delete(path: Path): Unit = { fs.delete(path, false); () }

  /** Counts what reaches the file. Closes once: the codec closes its stream and this writer closes again,
    * and on Java 8 a second FilterOutputStream.close flushes, which HDFS's closed stream refuses.
    */
  private final class CountingStream(raw: OutputStream) extends FilterOutputStream(raw) {
    private var closed = false
    override def write(b: Int): Unit = { raw.write(b); written += 1 }
    override def write(b: Array[Byte], off: Int, len: Int): Unit = { raw.write(b, off, len); written += len }
    override def close(): Unit = if (!closed) { closed = true; raw.close() }
  }
}
