package sparkdrill.stream.state

import java.io.{
  BufferedInputStream,
  BufferedOutputStream,
  DataInputStream,
  DataOutputStream,
  FileNotFoundException,
  IOException,
  InputStream,
  OutputStream
}
import java.util.zip.{GZIPInputStream, GZIPOutputStream}

import org.apache.hadoop.fs.{FileSystem, Path}

/** One file `cleanSource` moved or deleted, or is about to (`at` None: planned, in `cleaning/<round>`).
  *
  * @param path as the file log holds it (relative to the input root)
  * @param length the length and modification time the file log holds: the file is moved only while it still
  *   has them (else it is another version, which a later batch may have read)
  * @param mode [[CleanLog.Archive]] or [[CleanLog.Delete]]
  * @param archivePath the full target path (archive), None for a delete
  */
private[sparkdrill] final case class CleanRecord(
    path: String,
    batchId: Long,
    length: Long,
    modificationTime: Long,
    mode: String,
    archivePath: Option[String],
    at: Option[Long]
)

/** Where cleaning stands: every file of the batches before `batch`, and the first `index` files of `batch`,
  * were cleaned or passed by (changed since read, gone, or never read). Cleaning goes in batch order, since
  * batches commit in that order.
  */
private[sparkdrill] final case class CleanCursor(batch: Long, index: Int)

/** What a cleaned (or cleaning) file holds: the cursor after its last round, the legacy commit time, and
  * its records.
  *
  * @param legacy a batch id and a time by which it (and every batch before) had committed, taken at the
  *   first round: the commit time of a batch whose own the state lacks (a format 1 tier)
  */
private[sparkdrill] final case class CleanRound(
    cursor: CleanCursor,
    legacy: Option[(Long, Long)],
    records: Seq[CleanRecord]
)

/** The cleaner's own part of the state (the layout is in StateLayout): a round first writes the files it will
  * move or delete as `cleaning/<round>`, then moves them, then writes `cleaned/0-<round>-<round>` with the
  * times and deletes the plan. A crash in between leaves the plan, which the next run finishes: a file still
  * there is moved then, one already gone from its place is recorded (its target present, for an archive).
  * Rounds merge as the file log's tiers do (level k: Fanout^k rounds), so the directory stays small.
  *
  * {{{
  * gzip of: int magic "SDCL", byte version (1), varlong cursor batch + 1, varint cursor index,
  *   byte legacy (0 none, 1: varlong batch + 1, varlong time), varint records,
  *   per record: UTF path, varlong batch, varlong length, long modificationTime, byte mode (1 archive,
  *   2 delete), UTF archive path ("" none), long time (Long.MinValue: planned)
  * }}}
  */
private[sparkdrill] object CleanLog {
  val Archive = "archive"
  val Delete = "delete"

  private val Magic = 0x5344434c // "SDCL"
  private val Version = 1
  private val Fanout = 10
  private val Planned = Long.MinValue

  val Start: CleanRound = CleanRound(CleanCursor(0L, 0), None, Nil)

  /** The position after the newest cleaned round (without its records), and that round's number (-1: none). */
  def position(fs: FileSystem, layout: StateLayout): (CleanRound, Long) =
    live(fs, layout).lastOption match {
      case None => (Start, -1L)
      case Some(f) => (readFile(fs, f.path, records = false), f.last)
    }

  /** Every record of every cleaned round, in order, and the position after the newest. */
  def read(fs: FileSystem, layout: StateLayout): CleanRound = {
    val files = live(fs, layout)
    if (files.isEmpty) Start
    else {
      val rounds = files.map(f => readFile(fs, f.path, records = true))
      rounds.last.copy(records = rounds.flatMap(_.records))
    }
  }

  /** The plans a crash left (rounds never finished), by round number. */
  def pending(fs: FileSystem, layout: StateLayout): Seq[(Long, CleanRound)] =
    names(fs, layout.cleaning)
      .flatMap(p => StateLayout.id(p.getName).map(_ -> p))
      .sortBy(_._1)
      .map { case (round, p) => round -> readFile(fs, p, records = true) }

  def writePlan(writer: StateWriter, layout: StateLayout, round: Long, plan: CleanRound): Unit = {
    val target = layout.cleaningFile(round)
    // A plan a crashed run wrote for this round and never acted on (it is re-planned): replaced.
    writer.delete(target)
    writer.writeNew(target)(write(_, plan))
  }

  /** Writes round `round` as done, deletes its plan, and merges complete ranges of rounds. */
  def writeDone(writer: StateWriter, layout: StateLayout, round: Long, done: CleanRound): Unit = {
    val fs = writer.fs
    val target = layout.cleanedFile(0, round, round)
    if (!fs.exists(target)) writer.writeNew(target)(write(_, done))
    writer.delete(layout.cleaningFile(round))
    merge(fs, writer, layout, round)
  }

  // Level k merges the Fanout^k rounds of an aligned range once its last round is written.
  private def merge(fs: FileSystem, writer: StateWriter, layout: StateLayout, round: Long): Unit = {
    var level = 1
    var span = Fanout.toLong
    while (span > 0 && (round + 1) % span == 0) {
      val first = round + 1 - span
      val (live, covered) = listing(fs, layout)
      covered.foreach(f => writer.delete(f.path))
      val inputs = live.filter(f => f.first >= first && f.last <= round)
      val target = layout.cleanedFile(level, first, round)
      if (inputs.nonEmpty && !inputs.exists(_.path == target)) {
        val rounds = inputs.map(f => readFile(fs, f.path, records = true))
        writer.writeNew(target)(write(_, rounds.last.copy(records = rounds.flatMap(_.records))))
        inputs.foreach(f => writer.delete(f.path))
      }
      level += 1
      span = if (span > Long.MaxValue / Fanout) -1L else span * Fanout
    }
  }

  private def live(fs: FileSystem, layout: StateLayout): Seq[DataFile] = listing(fs, layout)._1

  private def listing(fs: FileSystem, layout: StateLayout): (Seq[DataFile], Seq[DataFile]) =
    StateLayout.widestFirst(names(fs, layout.cleaned).flatMap { p =>
      StateLayout.tier(p.getName).map { case (l, f, t) => DataFile(p, l, f, t) }
    })

  private def names(fs: FileSystem, dir: Path): Seq[Path] =
    try fs.listStatus(dir).toSeq.filter(_.isFile).map(_.getPath).filterNot(p => StateLayout.isTemp(p.getName))
    catch { case _: FileNotFoundException => Nil }

  private def readFile(fs: FileSystem, path: Path, records: Boolean): CleanRound = {
    val raw = fs.open(path)
    try read(raw, records)
    finally raw.close()
  }

  def write(raw: OutputStream, round: CleanRound): Unit = {
    val out = new DataOutputStream(new BufferedOutputStream(new GZIPOutputStream(raw, 1 << 16), 1 << 16))
    out.writeInt(Magic)
    out.writeByte(Version)
    EntryCodec.writeVarLong(out, round.cursor.batch + 1)
    EntryCodec.writeVarLong(out, round.cursor.index.toLong)
    round.legacy match {
      case Some((batch, time)) =>
        out.writeByte(1)
        EntryCodec.writeVarLong(out, batch + 1)
        EntryCodec.writeVarLong(out, time)
      case None => out.writeByte(0)
    }
    EntryCodec.writeVarLong(out, round.records.size.toLong)
    round.records.foreach { r =>
      out.writeUTF(r.path)
      EntryCodec.writeVarLong(out, r.batchId)
      EntryCodec.writeVarLong(out, r.length)
      out.writeLong(r.modificationTime)
      out.writeByte(if (r.mode == Archive) 1 else 2)
      out.writeUTF(r.archivePath.getOrElse(""))
      out.writeLong(r.at.getOrElse(Planned))
    }
    out.close()
  }

  def read(raw: InputStream, records: Boolean): CleanRound = {
    val in = new DataInputStream(new BufferedInputStream(new GZIPInputStream(raw, 1 << 16), 1 << 16))
    try {
      if (in.readInt() != Magic) throw new IOException("not a spark-drill cleaning record")
      val version = in.readUnsignedByte()
      if (version != Version)
        throw new IOException(s"cleaning record format $version; this spark-drill reads format $Version")
      val cursor = CleanCursor(EntryCodec.readVarLong(in) - 1, EntryCodec.readVarLong(in).toInt)
      val legacy =
        if (in.readUnsignedByte() == 0) None
        else Some((EntryCodec.readVarLong(in) - 1, EntryCodec.readVarLong(in)))
      val out = Vector.newBuilder[CleanRecord]
      if (records) {
        val n = EntryCodec.readVarLong(in)
        var i = 0L
        while (i < n) {
          val path = in.readUTF()
          val batch = EntryCodec.readVarLong(in)
          val length = EntryCodec.readVarLong(in)
          val mtime = in.readLong()
          val mode = if (in.readUnsignedByte() == 1) Archive else Delete
          val target = in.readUTF()
          val at = in.readLong()
          out += CleanRecord(
            path,
            batch,
            length,
            mtime,
            mode,
            if (target.isEmpty) None else Some(target),
            if (at == Planned) None else Some(at)
          )
          i += 1
        }
      }
      CleanRound(cursor, legacy, out.result())
    } finally in.close()
  }
}
