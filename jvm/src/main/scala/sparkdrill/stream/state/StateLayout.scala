package sparkdrill.stream.state

import sparkdrill.errors.DrillErrors

import java.io.FileNotFoundException
import java.nio.charset.StandardCharsets

import scala.util.Try

import org.apache.hadoop.fs.{FileSystem, Path}

/** Where each part of a stream's state lives in its directory, and which of the data files hold it:
  *
  * {{{
  * metadata.json                  format version, input root, includeExistingFiles, created at (written once)
  * lease                          the running query's owner id; its modification time is the last renewal
  * batches/<id>                   one logged batch, committed or not, not yet compacted (EntryCodec format)
  * tiers/<level>-<first>-<last>   committed batches first..last merged (level k covers Compaction.Fanout^k
  *                                ids, aligned: first is a multiple of the width)
  * commits/<id>                   empty marker: batches up to id are committed (only the newest is kept)
  * events-listed-at               with file events: when the input was last listed whole (first start, backfill)
  * .<name>.<uuid>.tmp             a file being written; renamed to <name> once complete
  * }}}
  *
  * Every data file's name carries the range of batch ids it holds, and ranges are aligned, so two ranges
  * either nest or are apart. A crash between writing a merged tier and deleting its inputs leaves both; the
  * widest file wins and the ones it covers are ignored (and deleted by the next writer), so no file is ever
  * read twice.
  */
private[sparkdrill] final class StateLayout(val dir: Path) {
  val metadata = new Path(dir, "metadata.json")
  val lease = new Path(dir, "lease")
  val batches = new Path(dir, "batches")
  val tiers = new Path(dir, "tiers")
  val commits = new Path(dir, "commits")
  val eventsListedAt = new Path(dir, "events-listed-at")
  val cleaning = new Path(dir, "cleaning")
  val cleaned = new Path(dir, "cleaned")

  def batchFile(id: Long): Path = new Path(batches, id.toString)
  def tierFile(level: Int, first: Long, last: Long): Path = new Path(tiers, s"$level-$first-$last")
  def commitMarker(id: Long): Path = new Path(commits, id.toString)
  def cleaningFile(round: Long): Path = new Path(cleaning, round.toString)
  def cleanedFile(level: Int, first: Long, last: Long): Path = new Path(cleaned, s"$level-$first-$last")

  /** The commit markers' times by batch id: what each holds, else (an older spark-drill's empty marker) its
    * file's modification time, which is when it was made.
    */
  def commitTimes(fs: FileSystem): scala.collection.immutable.SortedMap[Long, Long] = {
    val statuses =
      try fs.listStatus(commits).toSeq.filter(_.isFile)
      catch { case _: FileNotFoundException => Nil }
    val times = statuses.flatMap { st =>
      StateLayout.id(st.getPath.getName).map { id =>
        val held =
          try {
            val in = fs.open(st.getPath)
            // A marker is a few bytes: one read, no Java 9 readAllBytes (the Spark 3.5 jar targets Java 8).
            val buf = new Array[Byte](32)
            val n = in.read(buf)
            try Try(new String(buf, 0, math.max(n, 0), StandardCharsets.US_ASCII).trim.toLong).toOption
            finally in.close()
          } catch { case _: FileNotFoundException => None }
        id -> held.getOrElse(st.getModificationTime)
      }
    }
    scala.collection.immutable.TreeMap(times: _*)
  }

  /** The state's files as they are now on `fs`. */
  def list(fs: FileSystem): StateListing = {
    def names(d: Path) =
      try fs.listStatus(d).toSeq.filter(_.isFile).map(_.getPath)
      catch { case _: FileNotFoundException => Nil }
    val batchFiles = names(batches).flatMap(p => StateLayout.id(p.getName).map(id => DataFile(p, 0, id, id)))
    val tierFiles =
      names(tiers).flatMap(p => StateLayout.tier(p.getName).map { case (l, f, t) => DataFile(p, l, f, t) })
    val commitIds = names(commits).flatMap(p => StateLayout.id(p.getName))
    val leftovers =
      Seq(dir, batches, tiers, commits, cleaning, cleaned)
        .flatMap(names)
        .filter(p => StateLayout.isTemp(p.getName))
    val (live, covered) = StateLayout.widestFirst(batchFiles ++ tierFiles)
    StateListing(live, covered, leftovers, commitIds)
  }
}

/** A listing of the state: the data files to read (`live`, by first batch id), those a wider file already
  * holds (`covered`), files a crashed writer left half-written, and the commit markers' ids.
  */
private[sparkdrill] final case class StateListing(
    live: Seq[DataFile],
    covered: Seq[DataFile],
    leftovers: Seq[Path],
    commitIds: Seq[Long]
) {
  def lastBatchId: Long = if (live.isEmpty) -1L else live.map(_.last).max
  def lastCommittedBatchId: Long = if (commitIds.isEmpty) -1L else commitIds.max

  /** The live file holding batch `id`. */
  def fileOf(id: Long): Option[DataFile] = live.find(f => f.first <= id && id <= f.last)
}

/** A batch file (level 0, one id) or a tier file (level k, the aligned range first..last). */
private[sparkdrill] final case class DataFile(path: Path, level: Int, first: Long, last: Long) {
  def covers(other: DataFile): Boolean = first <= other.first && other.last <= last
  def overlaps(other: DataFile): Boolean = first <= other.last && other.first <= last
}

private[sparkdrill] object StateLayout {
  private val TierName = """(\d+)-(\d+)-(\d+)""".r

  def id(name: String): Option[Long] =
    if (name.nonEmpty && name.forall(c => c >= '0' && c <= '9')) Try(name.toLong).toOption else None

  def tier(name: String): Option[(Int, Long, Long)] = name match {
    case TierName(l, f, t) => Try((l.toInt, f.toLong, t.toLong)).toOption.filter(r => r._2 <= r._3)
    case _ => None
  }

  def isTemp(name: String): Boolean = name.startsWith(".") && name.endsWith(".tmp")

  def tempFor(target: Path, unique: String): Path =
    new Path(target.getParent, s".${target.getName}.$unique.tmp")

  /** Keeps the widest file of each nest of ranges; ranges that overlap without nesting cannot come from
    * this code (they are aligned), so they mean a foreign or damaged state: refuse rather than read twice.
    */
  def widestFirst(files: Seq[DataFile]): (Seq[DataFile], Seq[DataFile]) = {
    val live = scala.collection.mutable.ArrayBuffer.empty[DataFile]
    val covered = Seq.newBuilder[DataFile]
    files.sortBy(f => (-(f.last - f.first), f.first)).foreach { f =>
      live.find(_.overlaps(f)) match {
        case Some(wider) if wider.covers(f) => covered += f
        case Some(wider) =>
          throw DrillErrors.internal(
            s"stream state files ${wider.path} and ${f.path} hold overlapping batch ranges; the state is damaged"
          )
        case None => live += f
      }
    }
    (live.sortBy(_.first).toList, covered.result())
  }
}
