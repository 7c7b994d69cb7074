package sparkdrill.scan

import java.io.InputStream

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FSDataInputStream, Path}
import org.apache.hadoop.io.compress.{CodecPool, CompressionCodecFactory, Decompressor}

import sparkdrill.formats.FileInput

/** A file, or a byte range of it, opened through Hadoop's FileSystem; decompressed when its suffix names a
  * Hadoop codec. The decompressor goes back to Hadoop's `CodecPool` on close (it may hold native memory).
  */
final class HadoopFileInput(val path: String, val start: Long, val end: Long, conf: Configuration)
    extends FileInput
    with AutoCloseable {
  private var raw: FSDataInputStream = _
  private var stream: InputStream = _
  private var decompressor: Decompressor = _
  private var closed = false

  /** Bytes handed to the reader (after decompression). */
  var bytesRead: Long = 0L

  def open(offset: Long): InputStream = {
    require(stream == null, s"$path is already open")
    val p = new Path(path)
    raw = p.getFileSystem(conf).open(p)
    val codec = new CompressionCodecFactory(conf).getCodec(p)
    stream = if (codec == null) {
      if (offset > 0) raw.seek(offset)
      raw
    } else {
      require(offset == 0, s"$path is compressed: it can only be read from its start")
      decompressor = CodecPool.getDecompressor(codec)
      codec.createInputStream(raw, decompressor)
    }
    new InputStream {
      def read(): Int = {
        val b = stream.read()
        if (b >= 0) bytesRead += 1
        b
      }
      override def read(b: Array[Byte], off: Int, len: Int): Int = {
        val n = stream.read(b, off, len)
        if (n > 0) bytesRead += n
        n
      }
      override def close(): Unit = HadoopFileInput.this.close()
    }
  }

  def openAt(offset: Long): InputStream = {
    val p = new Path(path)
    require(
      new CompressionCodecFactory(conf).getCodec(p) == null,
      s"$path is compressed: it has no byte offsets"
    )
    val in = p.getFileSystem(conf).open(p)
    if (offset > 0) in.seek(offset)
    in
  }

  def close(): Unit = if (!closed) {
    closed = true
    try if (stream != null) stream.close() else if (raw != null) raw.close()
    finally {
      if (decompressor != null) CodecPool.returnDecompressor(decompressor)
      decompressor = null
      stream = null
      raw = null
    }
  }
}
