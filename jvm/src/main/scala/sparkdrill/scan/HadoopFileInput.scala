package sparkdrill.scan

import java.io.InputStream

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.hadoop.io.compress.{
  CodecPool,
  Decompressor,
  SplitCompressionInputStream,
  SplittableCompressionCodec
}

import sparkdrill.reader.{BlockRange, FileInput}

/** A file, or a byte range of it, opened through Hadoop's FileSystem; decompressed when its suffix names a
  * Hadoop codec. The decompressor goes back to Hadoop's `CodecPool` on close (it may hold native memory).
  * A local file read from its start is opened with the JDK when that reads the same bytes (see
  * [[LocalFiles]]: a tenth of the cost, which is most of reading a small file).
  */
private[sparkdrill] final class HadoopFileInput(
    val path: String,
    val start: Long,
    val end: Long,
    conf: Configuration
) extends FileInput
    with AutoCloseable {
  private var raw: InputStream = _
  private var stream: InputStream = _
  private var decompressor: Decompressor = _
  private var closed = false

  /** Bytes handed to the reader (after decompression). */
  var bytesRead: Long = 0L

  private lazy val codec = Codecs(conf).forFile(path)

  // A range of a splittable codec's file (bzip2) that is not the whole file: read block by block.
  private val blocks: BlockTracker =
    codec match {
      case _: SplittableCompressionCodec if start > 0 || end != Long.MaxValue => new BlockTracker(end)
      case _ => null
    }

  override def blockRange: Option[BlockRange] = Option(blocks)

  def open(offset: Long): InputStream = {
    require(stream == null, s"$path is already open")
    val direct = if (offset == 0 && blocks == null) LocalFiles.open(path, conf) else None
    raw = direct.getOrElse {
      val p = new Path(path)
      val in = p.getFileSystem(conf).open(p)
      if (codec == null && offset > 0) in.seek(offset)
      in
    }
    stream =
      if (codec == null) raw
      else if (blocks != null) {
        require(offset == 0, s"$path: a bzip2 range is read from its first block")
        decompressor = CodecPool.getDecompressor(codec)
        val in = codec
          .asInstanceOf[SplittableCompressionCodec]
          .createInputStream(raw, decompressor, start, end, SplittableCompressionCodec.READ_MODE.BYBLOCK)
        blocks.track(in)
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
    require(codec == null, s"$path is compressed: it has no byte offsets")
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

/** Watches a bzip2 range's stream for the first block of the next range. Read by block, Hadoop's stream
  * returns each block's first byte from a read of its own and then moves its position to the block's
  * compressed offset; a block whose offset is past the range's end belongs to the next range (the rule of
  * Hadoop's own LineRecordReader).
  */
private final class BlockTracker(end: Long) extends BlockRange {
  private var delivered = 0L
  private var next = -1L

  def nextRangeStart: Long = next

  def track(in: SplitCompressionInputStream): InputStream = new InputStream {
    def read(): Int = {
      val b = in.read()
      if (b >= 0) advance(1)
      b
    }
    override def read(b: Array[Byte], off: Int, len: Int): Int = {
      val n = in.read(b, off, len)
      if (n > 0) advance(n)
      n
    }
    private def advance(n: Int): Unit = {
      if (next < 0 && end != Long.MaxValue && in.getPos > end) next = delivered
      delivered += n
    }
    override def close(): Unit = in.close()
  }
}
