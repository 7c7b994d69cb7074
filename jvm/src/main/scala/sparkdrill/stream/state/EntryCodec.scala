package sparkdrill.stream.state

import sparkdrill.errors.DrillErrors

import java.io.{
  BufferedInputStream,
  BufferedOutputStream,
  DataInputStream,
  DataOutputStream,
  IOException,
  InputStream,
  OutputStream
}
import java.nio.charset.StandardCharsets
import java.util.zip.{GZIPInputStream, GZIPOutputStream}

/** The one binary format of every batch and tier file (the layout is in StateLayout):
  *
  * {{{
  * gzip of:
  *   int    magic "SDST", byte format version (2; 1 is still read)
  *   varint number of batches
  *   per batch:  varlong id (the first absolute, then the step from the previous id), varint number of files,
  *               [2] varlong commit time: 0 unknown, else 1 + zigzag(committedAt - previous known commit time)
  *     per file: varint bytes shared with the previous path, varint suffix length, suffix (UTF-8),
  *               varlong length, zigzag varlong modificationTime - previous, zigzag varlong readAt - previous,
  *               [2] varlong discovery time: 0 unknown, else 1 + zigzag(readAt - discoveredAt)
  * }}}
  *
  * Why this shape: a stream's paths share long prefixes (`2026/11/27/events-0001`), so front coding leaves a
  * few bytes of each; lengths and times are small numbers or small steps; gzip takes most of what is left
  * (the `.csv` of every suffix). A typical file costs some 8 bytes on disk, under the 64 the issue allows.
  * The "previous" values run on across a file's batches, so a merged tier compresses as well as its parts.
  *
  * Format 2 adds what `cleanSource` and `drill-state` need (SPEC 11.1), at about a byte per file: when the
  * stream first saw a file, as its distance before the file was read (0 to a few seconds: one byte, mostly the
  * same byte, which gzip all but removes), and per batch when Spark committed it. A batch file is written
  * before its commit, so it says "unknown" there; the commit markers hold the time until compaction writes it
  * into the tier (StreamState). Format 1 files read as "unknown" for both; every file written is format 2.
  */
private[sparkdrill] object EntryCodec {
  private val Magic = 0x53445354 // "SDST"
  private val Version = 2
  private val Readable = Set(1, 2)

  /** A time the state does not hold (written by format 1, or a batch not yet committed). */
  val Unknown: Long = Long.MinValue

  /** What a reader gets per file, without a String or an object per file (the restart's hot loop). Times
    * the file does not hold are [[Unknown]].
    */
  abstract class Sink {
    def batch(id: Long, files: Int, committedAt: Long): Unit = ()
    def file(
        batchId: Long,
        path: Array[Byte],
        pathLength: Int,
        length: Long,
        mtime: Long,
        readAt: Long,
        discoveredAt: Long
    ): Unit
  }

  def write(raw: OutputStream, batches: Seq[LoggedBatch]): Unit = {
    val out = new DataOutputStream(new BufferedOutputStream(new GZIPOutputStream(raw, 1 << 16), 1 << 16))
    out.writeInt(Magic)
    out.writeByte(Version)
    writeVarLong(out, batches.size.toLong)
    var previousId = 0L
    var previousPath = Array.emptyByteArray
    var previousMtime = 0L
    var previousReadAt = 0L
    var previousCommit = 0L
    batches.foreach { b =>
      if (b.id < previousId)
        throw DrillErrors.internalArgument(s"batches out of order: ${b.id} after $previousId")
      writeVarLong(out, b.id - previousId)
      previousId = b.id
      writeVarLong(out, b.files.size.toLong)
      b.committedAt match {
        case Some(t) =>
          writeVarLong(out, 1L + zigzag(t - previousCommit))
          previousCommit = t
        case None => writeVarLong(out, 0L)
      }
      b.files.foreach { f =>
        val path = f.path.getBytes(StandardCharsets.UTF_8)
        val shared = sharedPrefix(previousPath, path)
        writeVarLong(out, shared.toLong)
        writeVarLong(out, (path.length - shared).toLong)
        out.write(path, shared, path.length - shared)
        writeVarLong(out, f.length)
        writeVarLong(out, zigzag(f.modificationTime - previousMtime))
        writeVarLong(out, zigzag(f.readAtMillis - previousReadAt))
        writeVarLong(out, f.discoveredAtMillis.fold(0L)(d => 1L + zigzag(f.readAtMillis - d)))
        previousPath = path
        previousMtime = f.modificationTime
        previousReadAt = f.readAtMillis
      }
    }
    out.close()
  }

  /** Reads a whole file into `sink`, checking the gzip trailer at the end (a truncated file fails). */
  def read(raw: InputStream, sink: Sink): Unit =
    try readOpen(raw, sink)
    finally raw.close()

  private def readOpen(raw: InputStream, sink: Sink): Unit = {
    val in = new DataInputStream(
      new BufferedInputStream(new GZIPInputStream(new BufferedInputStream(raw, 1 << 16), 1 << 16), 1 << 16)
    )
    try {
      if (in.readInt() != Magic) throw new IOException("not a spark-drill stream state file")
      val version = in.readUnsignedByte()
      if (!Readable(version))
        throw new IOException(
          s"stream state file format $version; this spark-drill reads formats ${Readable.toSeq.sorted.mkString(", ")}"
        )
      val times = version >= 2
      val batches = readVarLong(in)
      var id = 0L
      var path = new Array[Byte](256)
      var pathLength = 0
      var mtime = 0L
      var readAt = 0L
      var commit = 0L
      var b = 0L
      while (b < batches) {
        id += readVarLong(in)
        val files = readVarLong(in).toInt
        val committedAt =
          if (!times) Unknown
          else {
            val c = readVarLong(in)
            if (c == 0L) Unknown else { commit += unzigzag(c - 1L); commit }
          }
        sink.batch(id, files, committedAt)
        var i = 0
        while (i < files) {
          val shared = readVarLong(in).toInt
          val suffix = readVarLong(in).toInt
          if (shared > pathLength || suffix < 0) throw new IOException("corrupt stream state file")
          if (shared + suffix > path.length) path = java.util.Arrays.copyOf(path, 2 * (shared + suffix))
          in.readFully(path, shared, suffix)
          pathLength = shared + suffix
          val length = readVarLong(in)
          mtime += unzigzag(readVarLong(in))
          readAt += unzigzag(readVarLong(in))
          val discoveredAt =
            if (!times) Unknown
            else {
              val d = readVarLong(in)
              if (d == 0L) Unknown else readAt - unzigzag(d - 1L)
            }
          sink.file(id, path, pathLength, length, mtime, readAt, discoveredAt)
          i += 1
        }
        b += 1
      }
      if (in.read() != -1) throw new IOException("trailing bytes in a stream state file")
    } finally in.close()
  }

  private def known(t: Long): Option[Long] = if (t == Unknown) None else Some(t)

  /** The batches of a file as objects: for `batch(id)`, merges and the drill-state listing. */
  def readBatches(raw: InputStream, keep: Long => Boolean = _ => true): Seq[LoggedBatch] = {
    val out = Seq.newBuilder[LoggedBatch]
    var current: LoggedBatch = null
    var files = Vector.newBuilder[TrackedFile]
    def flush(): Unit = if (current != null) {
      out += current.copy(files = files.result())
      files = Vector.newBuilder[TrackedFile]
    }
    read(
      raw,
      new Sink {
        override def batch(id: Long, count: Int, committedAt: Long): Unit = {
          flush()
          current = if (keep(id)) LoggedBatch(id, Nil, known(committedAt)) else null
        }
        def file(
            batchId: Long,
            path: Array[Byte],
            pathLength: Int,
            length: Long,
            mtime: Long,
            readAt: Long,
            discoveredAt: Long
        ): Unit =
          if (current != null)
            files += TrackedFile(
              new String(path, 0, pathLength, StandardCharsets.UTF_8),
              length,
              mtime,
              batchId,
              readAt,
              known(discoveredAt)
            )
      }
    )
    flush()
    out.result()
  }

  private def sharedPrefix(a: Array[Byte], b: Array[Byte]): Int = {
    val n = math.min(a.length, b.length)
    var i = 0
    while (i < n && a(i) == b(i)) i += 1
    i
  }

  private def zigzag(v: Long): Long = (v << 1) ^ (v >> 63)
  private def unzigzag(v: Long): Long = (v >>> 1) ^ -(v & 1)

  private[state] def writeVarLong(out: DataOutputStream, value: Long): Unit = {
    var v = value
    while ((v & ~0x7fL) != 0L) {
      out.writeByte(((v & 0x7f) | 0x80).toInt)
      v >>>= 7
    }
    out.writeByte(v.toInt)
  }

  private[state] def readVarLong(in: DataInputStream): Long = {
    var result = 0L
    var shift = 0
    var b = 0
    while ({ b = in.readUnsignedByte(); (b & 0x80) != 0 }) {
      if (shift > 56) throw new IOException("corrupt stream state file: a number of over 64 bits")
      result |= (b & 0x7fL) << shift
      shift += 7
    }
    result | (b.toLong << shift)
  }
}
