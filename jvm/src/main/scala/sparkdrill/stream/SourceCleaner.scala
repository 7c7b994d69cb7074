package sparkdrill.stream

import sparkdrill.errors.DrillErrors

import java.io.FileNotFoundException

import scala.collection.mutable
import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileStatus, FileSystem, FileUtil, Path}
import org.slf4j.LoggerFactory

import sparkdrill.stream.state._

/** `cleanSource` (SPEC 11.1): moves under `cleanSourceArchiveDir`, or deletes, each file the stream read once
  * the micro-batch that read it has committed and `cleanSourceRetention` has passed since. Called by the
  * engine once per trigger, on the micro-batch thread, under the state's lease; a call does at most
  * [[SourceCleaner.MaxFilesPerCall]] files, so a backlog of months does not hold up a trigger.
  *
  * conditions for cleaning a file:
  *  - its batch committed (the file log's commit markers and tiers say when) at least the retention ago;
  *    batches commit in order, so the files to clean are a prefix of the log: a cursor says where it stands
  *  - a micro-batch read it: not the files `includeExistingFiles=false` logged as batch 0 unread
  *  - it still has the length and modification time the log holds: else it is another version (which a
  *    later batch may have read, and whose own entry cleans it) and is passed by
  *  - archive only: it lies under the input root, whose relative path it keeps under the archive directory
  *
  * Every round is planned durably before a file moves, and recorded after (CleanLog); a run that finds a plan
  * a crash left finishes it first.
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
  private val inputFs: FileSystem = new Path(root).getFileSystem(conf)
  private val archive: Option[(FileSystem, Path)] = settings.archiveDir.map { d =>
    val fs = new Path(d).getFileSystem(conf)
    (fs, fs.makeQualified(new Path(d)))
  }
  private val mode = if (settings.mode == CleanMode.Archive) CleanLog.Archive else CleanLog.Delete

  /** Files moved to the archive, and deleted, by this run (plans a crash left included). */
  var archived = 0L
  var deleted = 0L

  private var (position, lastRound) = CleanLog.position(stateFs, layout)
  finishPlans()
  // The legacy time is taken once and kept: taken again at each call it would move on with every commit.
  private val legacy: Option[(Long, Long)] = position.legacy.orElse(state.newestCommit)
  if (position.legacy.isEmpty && legacy.isDefined) {
    val round = lastRound + 1
    CleanLog.writeDone(writer, layout, round, position.copy(legacy = legacy, records = Nil))
    position = position.copy(legacy = legacy, records = Nil)
    lastRound = round
  }
  // The log's files past the cursor, read ahead: a round should not decode a tier from its start each time.
  private val ahead = mutable.Queue.empty[StateEntry]
  private var readThrough = -1L // the last committed batch when `ahead` was filled and came back short

  /** One round: the files whose time has come, up to [[MaxFilesPerCall]], from where the last round stopped. */
  def run(now: Long): Unit = {
    // Another query that took the lease over owns the input's cleaning now: this one moves nothing more.
    state.checkWritable()
    val planned = Vector.newBuilder[CleanRecord]
    var cursor = position.cursor
    var examined = 0
    var more = true
    while (more && examined < MaxFilesPerCall) {
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
    if (cursor != position.cursor) {
      val round = lastRound + 1
      val plan = CleanRound(cursor, legacy, planned.result())
      if (plan.records.nonEmpty) CleanLog.writePlan(writer, layout, round, plan)
      finish(round, plan, now, resumed = false)
    }
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

  // What to do with one entry whose time has come: None to pass it by.
  private def plan(e: StateEntry): Option[CleanRecord] = {
    val f = e.file
    if (!includeExisting && f.batchId == 0L) return None // logged unread at the first start
    val source = new Path(StreamPaths.resolve(root, f.path))
    if (!unchanged(status(inputFs, source), f.length, f.modificationTime)) return None
    val target = archive match {
      case None => Some(None)
      case Some((fs, dir)) =>
        StreamPaths.underRoot(f.path) match {
          case None =>
            log.warn(
              s"spark-drill: cleanSource=archive leaves $source in place: it is not under the input $root"
            )
            None
          case Some(relative) =>
            val plain = new Path(dir, relative)
            Some(Some((if (fs.exists(plain)) withBatch(plain, f.batchId) else plain).toString))
        }
    }
    target.map(t => CleanRecord(f.path, f.batchId, f.length, f.modificationTime, mode, t, None))
  }

  // Acts on a round's plan and records it. Resumed (a plan a crash left): a file already gone from its place
  // was moved or deleted before the crash, and is recorded (for an archive, only when its target is there).
  private def finish(round: Long, plan: CleanRound, now: Long, resumed: Boolean): Unit = {
    val done = plan.records.flatMap { r =>
      val source = new Path(StreamPaths.resolve(root, r.path))
      try {
        val there = status(inputFs, source)
        val acted =
          if (unchanged(there, r.length, r.modificationTime)) { act(source, r); true }
          else if (there.isEmpty && resumed)
            r.archivePath.forall(t => archive.exists { case (fs, _) => fs.exists(new Path(t)) })
          else false
        if (acted) {
          if (r.mode == CleanLog.Archive) archived += 1 else deleted += 1
          Some(r.copy(at = Some(now)))
        } else None
      } catch {
        case NonFatal(e) =>
          log.warn(s"spark-drill: cleanSource could not ${r.mode} $source; it stays in place", e)
          None
      }
    }
    CleanLog.writeDone(writer, layout, round, plan.copy(records = done))
    position = plan
    lastRound = round
  }

  private def act(source: Path, r: CleanRecord): Unit = r.archivePath match {
    case None =>
      if (!inputFs.delete(source, false) && inputFs.exists(source))
        throw DrillErrors.internal(s"could not delete $source")
    case Some(t) =>
      val (fs, _) =
        archive.getOrElse(throw DrillErrors.internal("an archive plan without cleanSourceArchiveDir"))
      val target = new Path(t)
      fs.mkdirs(target.getParent)
      // One file system: a rename. Two (HDFS to S3): a copy, then the source is deleted; a crash in between
      // leaves the source, and the plan copies it again over the partial target.
      if (fs.getUri == inputFs.getUri) {
        if (!inputFs.rename(source, target))
          throw DrillErrors.internal(s"could not rename $source to $target")
      } else if (!FileUtil.copy(inputFs, source, fs, target, true, true, conf))
        throw DrillErrors.internal(s"could not copy $source to $target")
  }

  // Plans a crash left: finished (a plan whose round is already recorded only needs deleting).
  private def finishPlans(): Unit =
    CleanLog.pending(stateFs, layout).foreach { case (round, plan) =>
      if (round <= lastRound) writer.delete(layout.cleaningFile(round))
      else finish(round, plan, System.currentTimeMillis(), resumed = true)
    }
}

private[sparkdrill] object SourceCleaner {
  private val log = LoggerFactory.getLogger(classOf[SourceCleaner])

  /** Files looked at per call (per trigger). A look is a `getFileStatus` and a rename or delete: about a
    * thousand cost a few seconds on an object store, as much as a trigger's listing, and the plan that records
    * them stays a few tens of kilobytes. A backlog drains at this rate per trigger.
    */
  val MaxFilesPerCall = 1000

  // Entries read ahead from the file log per read.
  private val ReadAhead = 10 * MaxFilesPerCall

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
