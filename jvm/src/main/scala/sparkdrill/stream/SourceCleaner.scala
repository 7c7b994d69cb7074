package sparkdrill.stream

import sparkdrill.errors.DrillErrors
import sparkdrill.scan.DriverThreads

import java.io.FileNotFoundException

import scala.collection.mutable
import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, FileSystem, FileUtil, Path}
import org.slf4j.LoggerFactory

import sparkdrill.stream.state._

/** `cleanSource` (SPEC 11.1): moves under `cleanSourceArchiveDir`, or deletes, each file the stream read once
  * the micro-batch that read it has committed and `cleanSourceRetention` has passed since. The work goes in
  * rounds of at most [[SourceCleaner.MaxFilesPerRound]] files, each in three steps, so that no trigger waits
  * for an object store's renames (CleaningBetweenTriggers runs them):
  *  - [[nextRound]], on the micro-batch thread under the state's lease: reads the file log (no request to the
  *    input) and picks the round's files;
  *  - [[act]], on a thread of its own: settles the archive targets and writes the round's plan, then looks at
  *    each file and moves or deletes it; of the state it writes only that plan;
  *  - [[record]], on the micro-batch thread again: writes the round as done.
  *
  * conditions for cleaning a file:
  *  - its batch committed (the file log's commit markers and tiers say when) at least the retention ago;
  *    batches commit in order, so the files to clean are a prefix of the log: a cursor says where it stands
  *  - a micro-batch read it: not the files `includeExistingFiles=false` logged as batch 0 unread
  *  - it still has the length and modification time the log holds: else it is another version (which a
  *    later batch may have read, and whose own entry cleans it) and is passed by
  *  - archive only: it lies under the input root, whose relative path it keeps under the archive directory
  *
  * A plan a crash (or a stop in the middle of a round) left is the first round of the next run.
  */
private[sparkdrill] final class SourceCleaner(
    settings: CleanSettings,
    root: String,
    state: StreamState,
    includeExisting: Boolean,
    conf: Configuration
) {
  import SourceCleaner._

  private val (stateFs, layout, writer) = state.storage
  // `act` writes plans from its own thread, with a writer of its own.
  private val planWriter = new StateWriter(stateFs)
  private val inputFs: FileSystem = new Path(root).getFileSystem(conf)
  private val archive: Option[(FileSystem, Path)] = settings.archiveDir.map { d =>
    val fs = new Path(d).getFileSystem(conf)
    (fs, fs.makeQualified(new Path(d)))
  }
  private val mode = if (settings.mode == CleanMode.Archive) CleanLog.Archive else CleanLog.Delete

  /** Files moved to the archive, and deleted, by this run (plans a crash left included), as recorded. */
  var archived = 0L
  var deleted = 0L

  private var (position, lastRound) = CleanLog.position(stateFs, layout)
  // Plans never finished: those already recorded only need deleting; the rest come first.
  private var pending: List[(Long, CleanRound)] = {
    val (recorded, left) = CleanLog.pending(stateFs, layout).partition(_._1 <= lastRound)
    recorded.foreach { case (round, _) => writer.delete(layout.cleaningFile(round)) }
    left.toList
  }
  // The legacy time is taken once, at the start, and kept: taken again at each round it would move on with
  // every commit. The first new round writes it.
  private val legacy: Option[(Long, Long)] = position.legacy.orElse(state.newestCommit)
  private var legacyKept = position.legacy.isDefined || legacy.isEmpty
  // The log's files past the cursor, read ahead: a round should not decode a tier from its start each time.
  private val ahead = mutable.Queue.empty[StateEntry]
  private var readThrough = -1L // the last committed batch when `ahead` was filled and came back short

  /** The next round: a plan a crash left, else the files whose time has come, up to
    * [[MaxFilesPerRound]], from where the last round stopped. None: nothing to do yet. Micro-batch thread.
    */
  def nextRound(now: Long): Option[CleanerRound] =
    if (pending.nonEmpty) {
      val (round, plan) = pending.head
      pending = pending.tail
      Some(CleanerRound(round, plan, resumed = true))
    } else {
      // Another query that took the lease over owns the input's cleaning now: this one plans nothing more.
      state.checkWritable()
      if (!legacyKept) {
        val round = lastRound + 1
        position = position.copy(legacy = legacy, records = Nil)
        CleanLog.writeDone(writer, layout, round, position)
        lastRound = round
        legacyKept = true
      }
      val planned = Vector.newBuilder[CleanRecord]
      var cursor = position.cursor
      var examined = 0
      var more = true
      while (more && examined < MaxFilesPerRound) {
        if (ahead.isEmpty) fill(cursor)
        if (ahead.isEmpty) more = false
        else {
          val e = ahead.head
          commitTime(e) match {
            case Some(t) if now - t >= settings.retentionMillis =>
              ahead.dequeue()
              examined += 1
              cursor = CleanCursor(e.file.batchId, e.index + 1)
              plan(e).foreach(planned += _)
            case _ => more = false
          }
        }
      }
      if (cursor == position.cursor) None
      else Some(CleanerRound(lastRound + 1, CleanRound(cursor, legacy, planned.result()), resumed = false))
    }

  /** Moves or deletes a round's files, a few at once (an object store's requests overlap), asking `proceed`
    * before each few (false: stop, the plan stays for the next run). A new round first settles its archive
    * targets and writes its plan. The records acted on, with their times; None when stopped. Any thread: it
    * reads and writes the state only through its own plan.
    */
  def act(round: CleanerRound, proceed: () => Boolean): Option[Vector[CleanRecord]] = {
    val records =
      if (round.resumed) round.plan.records
      else {
        val settled = Vector.newBuilder[CleanRecord]
        val chunks = round.plan.records.grouped(DriverThreads.Threads)
        while (chunks.hasNext) {
          if (!proceed()) return None
          settled ++= DriverThreads.map(chunks.next()) { r =>
            r.copy(archivePath = r.archivePath.map(archiveTarget(_, r.batchId)))
          }
        }
        val plan = round.plan.copy(records = settled.result())
        if (plan.records.nonEmpty) CleanLog.writePlan(planWriter, layout, round.number, plan)
        plan.records
      }
    val done = Vector.newBuilder[CleanRecord]
    val made = mutable.Set.empty[Path] // archive directories this round made: on S3 a mkdirs is requests
    val chunks = records.grouped(DriverThreads.Threads)
    while (chunks.hasNext) {
      if (!proceed()) return None
      val chunk = chunks.next()
      // Parents first, one at a time: two files of one directory must not race to make it.
      archive.foreach { case (fs, _) =>
        chunk
          .flatMap(_.archivePath)
          .map(t => new Path(t).getParent)
          .distinct
          .filter(made.add)
          .foreach(fs.mkdirs)
      }
      DriverThreads.map(chunk)(actOn(_, round.resumed)).foreach(_.foreach(done += _))
    }
    Some(done.result())
  }

  /** Writes a round `act` finished as done. Micro-batch thread. */
  def record(round: CleanerRound, done: Vector[CleanRecord]): Unit = {
    CleanLog.writeDone(writer, layout, round.number, round.plan.copy(records = done))
    done.foreach(r => if (r.mode == CleanLog.Archive) archived += 1 else deleted += 1)
    position = round.plan.copy(records = Nil)
    lastRound = round.number
  }

  /** A round `act` could not finish (it failed): it is tried again at the next call of [[nextRound]], a
    * crashed run's plan as it is, a new round planned again from the cursor of the last one recorded.
    */
  def abandon(round: CleanerRound): Unit =
    if (round.resumed) pending = (round.number -> round.plan) :: pending
    else {
      ahead.clear()
      readThrough = -1L
    }

  private def fill(cursor: CleanCursor): Unit = {
    val committed = state.lastCommittedBatchId
    if (committed >= cursor.batch && committed != readThrough) {
      val read = StateReader.entries(stateFs, layout, cursor.batch, cursor.index, committed, ReadAhead)
      ahead ++= read
      if (read.size < ReadAhead) readThrough = committed
    }
  }

  // A batch's commit time: its tier's; for a tier an older spark-drill wrote without, the legacy time; for a
  // batch file, the commit markers'.
  private def commitTime(e: StateEntry): Option[Long] =
    if (e.committedAt.isDefined) e.committedAt
    else
      (if (e.inTier) legacy.collect { case (batch, time) if e.file.batchId <= batch => time }
       else None)
        .orElse(state.commitTimeOf(e.file.batchId))

  // What to do with one entry whose time has come: None to pass it by. No request to the input: whether the
  // file is still the version read is looked at when acting.
  private def plan(e: StateEntry): Option[CleanRecord] = {
    val f = e.file
    if (!includeExisting && f.batchId == 0L) return None // logged unread at the first start
    val target = archive match {
      case None => Some(None)
      case Some((_, dir)) =>
        StreamPaths.underRoot(f.path) match {
          case None =>
            val source = StreamPaths.resolve(root, f.path)
            log.warn(
              s"spark-drill: cleanSource=archive leaves $source in place: it is not under the input $root"
            )
            None
          case Some(relative) => Some(Some(new Path(dir, relative).toString))
        }
    }
    target.map(t => CleanRecord(f.path, f.batchId, f.length, f.modificationTime, mode, t, None))
  }

  // Acts on one planned file. Resumed (a plan a crash left): a file already gone from its place was moved or
  // deleted before the crash, and is recorded (for an archive, only when its target is there).
  private def actOn(r: CleanRecord, resumed: Boolean): Option[CleanRecord] = {
    val source = new Path(StreamPaths.resolve(root, r.path))
    try {
      val there = status(inputFs, source)
      val acted =
        if (unchanged(there, r.length, r.modificationTime)) { move(source, r); true }
        else if (there.isEmpty && resumed)
          r.archivePath.forall(t => archive.exists { case (fs, _) => fs.exists(new Path(t)) })
        else false
      if (acted) Some(r.copy(at = Some(System.currentTimeMillis()))) else None
    } catch {
      case NonFatal(e) =>
        log.warn(s"spark-drill: cleanSource could not ${r.mode} $source; it stays in place", e)
        None
    }
  }

  // The archive path for a file planned to `plain`: `plain`, or, when another version is there already, its
  // name with the batch.
  private def archiveTarget(plain: String, batch: Long): String = {
    val (fs, _) =
      archive.getOrElse(throw DrillErrors.internal("an archive plan without cleanSourceArchiveDir"))
    val p = new Path(plain)
    (if (fs.exists(p)) withBatch(p, batch) else p).toString
  }

  // Deletes, or moves to the settled target (whose parent `act` made).
  private def move(source: Path, r: CleanRecord): Unit = r.archivePath match {
    case None =>
      if (!inputFs.delete(source, false) && inputFs.exists(source))
        throw DrillErrors.internal(s"could not delete $source")
    case Some(t) =>
      val (fs, _) =
        archive.getOrElse(throw DrillErrors.internal("an archive plan without cleanSourceArchiveDir"))
      val target = new Path(t)
      // One file system: a rename. Two (HDFS to S3): a copy, then the source is deleted; a crash in between
      // leaves the source, and the plan copies it again over the partial target.
      if (fs.getUri == inputFs.getUri) {
        if (!inputFs.rename(source, target))
          throw DrillErrors.internal(s"could not rename $source to $target")
      } else if (!FileUtil.copy(inputFs, source, fs, target, true, true, conf))
        throw DrillErrors.internal(s"could not copy $source to $target")
  }
}

/** A round of cleaning: its number, its plan, and whether a crashed run planned it. */
private[sparkdrill] final case class CleanerRound(number: Long, plan: CleanRound, resumed: Boolean)

private[sparkdrill] object SourceCleaner {
  private val log = LoggerFactory.getLogger(classOf[SourceCleaner])

  /** Files per round. Rounds run one at a time, a new one planned at a trigger's start once the last is
    * recorded, so a backlog drains at most this many files per trigger; the plan that holds them stays a few
    * tens of kilobytes.
    */
  val MaxFilesPerRound = 1000

  // Entries read ahead from the file log per read.
  private val ReadAhead = 10 * MaxFilesPerRound

  private def status(fs: FileSystem, p: Path): Option[FileStatus] =
    try Some(fs.getFileStatus(p))
    catch { case _: FileNotFoundException => None }

  private def unchanged(s: Option[FileStatus], length: Long, modificationTime: Long): Boolean =
    s.exists(st => st.isFile && st.getLen == length && st.getModificationTime == modificationTime)

  // `a.csv.gz` read again by batch 12 while an earlier version is in the archive: `a.b12.csv.gz`.
  private def withBatch(p: Path, batch: Long): Path = {
    val name = p.getName
    val dot = name.indexOf('.', 1)
    val renamed =
      if (dot < 0) s"$name.b$batch" else s"${name.substring(0, dot)}.b$batch${name.substring(dot)}"
    new Path(p.getParent, renamed)
  }

  /** Refuses an archive directory under the input (its files would be read again) or the checkpoint. */
  def check(settings: CleanSettings, root: String, checkpoint: Option[Path], conf: Configuration): Unit =
    settings.archiveDir.foreach { d =>
      val p = new Path(d)
      val dir = p.getFileSystem(conf).makeQualified(p).toString.stripSuffix("/")
      def inside(other: String) = dir == other || dir.startsWith(other + "/")
      val input = root.stripSuffix("/")
      if (inside(input)) throw DrillErrors.streamArchiveDirInside(dir, input, "input")
      checkpoint.foreach { c =>
        val q = c.getFileSystem(conf).makeQualified(c).toString.stripSuffix("/")
        if (inside(q)) throw DrillErrors.streamArchiveDirInside(dir, q, "checkpoint")
      }
    }
}
