package sparkdrill.stream

import sparkdrill.errors.DrillErrors

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import org.apache.hadoop.fs.Path
import org.apache.spark.sql.types.StructType
import org.slf4j.LoggerFactory

import sparkdrill.scan.{Discovered, FormatRegistry, QueryPlan, ScanFile}
import sparkdrill.stream.events.EventSources
import sparkdrill.stream.schema._
import sparkdrill.stream.state.{StreamState, TrackedFile}

/** The stream of one started query (SPEC 11), without Spark's streaming API (the adapter's `MicroBatchStream`
  * translates): each trigger takes the files no micro-batch has taken (oldest first, within the limits), ends
  * the batch before the first file that changes the schema, writes the files to the file log under the
  * checkpoint and only then reports the new batch; a micro-batch is planned from the log alone, so a replay
  * of an uncommitted batch after a crash reads the same files.
  *
  * @param checkpoint the directory Spark gives this source, `<checkpoint>/sources/<n>`
  */
private[sparkdrill] final class StreamEngine(
    definition: StreamDefinition,
    checkpoint: String,
    session: StreamSession
) {
  import StreamEngine._

  private val conf = definition.conf
  private val options = definition.options
  private val root = definition.root
  private val location = definition.settings.schemaLocation
  private val minFileAge = definition.settings.minFileAgeMillis
  private val includeExisting = definition.settings.includeExistingFiles
  private val mode = definition.settings.evolutionMode
  private val overwrites = definition.settings.allowOverwrites
  private lazy val evolution = definition.evolution

  private val relative = new sparkdrill.stream.state.StreamPaths.Relative(root)
  private val checkpointPath = new Path(checkpoint)

  // A DataFrame built on an older version than schemaLocation holds would read new files under the old
  // schema: refused before the query takes the lease or reads anything.
  if (!definition.definedByUser)
    location.flatMap(SchemaVersions.newest(_, conf)).foreach { newest =>
      if (newest.version > definition.version.version)
        throw DrillErrors.streamStaleSchema(definition.version.version, newest.version, location.get)
    }

  // cleanSource (SPEC 11.1): its archive directory is checked before the state is opened.
  SourceCleaner.check(
    definition.settings.clean,
    root,
    Option(checkpointPath.getParent).map(_.getParent),
    conf
  )

  private val state = StreamState.open(StreamState.dirFor(checkpointPath), root, includeExisting, conf)

  // The query's checkpoint (two levels above the source's) and the schema versions are never input.
  private val source: FileSource = {
    val own =
      Option(checkpointPath.getParent).flatMap(p => Option(p.getParent)).toSeq ++ location.map(new Path(_))
    val listing = new ListingSource(definition, own, session)
    definition.settings.fileEvents match {
      case None => listing
      case Some(queue) =>
        try
          EventSources.open(
            definition,
            queue,
            own,
            session,
            listing,
            state.stateDir,
            p => state.contains(relative(p))
          )
        catch {
          case e: Throwable =>
            state.close()
            throw e
        }
    }
  }

  private val cleaner = definition.settings.clean match {
    case c if c.mode == CleanMode.Off => None
    case c => Some(new SourceCleaner(c, root, state, includeExisting, conf))
  }
  private val cleaning = cleaner.map(new CleaningBetweenTriggers(_))
  private val firstSeen = new FirstSeen

  // The files of the batches this run logged, and what admission found in them, so that planning
  // discovers nothing again (replayed batches, after a restart, are rebuilt from the log and discovered
  // once, when planned).
  private val logged = mutable.Map.empty[Long, IndexedSeq[ScanFile]]
  private val discovered = mutable.Map.empty[Long, Discovered]
  // AvailableNow: the files there when the run started; no other is taken in this run.
  private var availableNow: Option[Set[String]] = None
  private var planned: Option[(Long, Long, QueryPlan)] = None

  private val metricsNow = new StreamMetrics
  private var reportedBatch: Long = -2L

  /** The batch before the first one to read: -1, or 0 when the files there at the first start are skipped. */
  def initialBatch(): Long =
    if (includeExisting) -1L
    else {
      // First start without the files already there: they are logged as batch 0, which no micro-batch reads
      // (Spark starts after it), so no later trigger takes them.
      if (state.lastBatchId < 0) {
        val now = System.currentTimeMillis()
        state.logBatch(0L, source.all().map(f => tracked(f, 0L, now, now)))
        state.commit(0L)
      }
      0L
    }

  /** The batch after `start` when files are waiting (logged before this returns), else `start`. */
  def latestBatch(start: Long, filesLimit: Int, bytesLimit: Long): Long = {
    // Spark tells a source of a commit only when it plans the next micro-batch with data, so an idle stream's
    // last batch would never count as committed. But Spark runs micro-batches one at a time and asks for the
    // next offset only once the batch ending at `start` is in its commit log (after a restart, too: it runs
    // the batch its commit log lacks first), so `start` is committed here.
    if (start > state.lastCommittedBatchId && start <= state.lastBatchId) commit(start)
    // The files whose batches committed long enough ago are archived or deleted, but not while a trigger runs.
    cleaning.foreach(_.triggerStarts(System.currentTimeMillis()))
    val next = start + 1
    // Logged before a crash but never in Spark's offset log: that batch is the next one, as logged.
    if (state.lastBatchId >= next) return next
    val now = System.currentTimeMillis()
    val offered = source.offered()
    val found = Admission(
      offered,
      f =>
        if (overwrites) state.compare(relative(f.path), f.length, f.modificationTime)
        else state.seen(relative(f.path), f.length, f.modificationTime),
      f => availableNow.forall(_(relative(f.path))),
      now,
      minFileAge,
      filesLimit,
      bytesLimit,
      overwrites
    )
    metricsNow.listed = source.lastCount
    metricsNow.listingMillis = source.lastMillis
    found.changedAfterRead.foreach { f =>
      metricsNow.changedAfterRead += 1
      log.warn(
        s"spark-drill: ${f.displayPath} changed after a micro-batch read it (now ${f.length} bytes, modified " +
          s"${new java.sql.Timestamp(f.modificationTime)}): it is not read again"
      )
    }
    // The schema barrier: a micro-batch ends before the first file with columns the schema lacks. The files'
    // schemas found here are the ones the micro-batch is planned with.
    val schemas = if (mode.watches) Some(discover(found.taken.toIndexedSeq)) else None
    val cut =
      schemas.flatMap(firstChange).map(i => found.taken.indexWhere(_.path == schemas.get.files(i).path))
    val (taken, rest) = cut match {
      case Some(0) => stopFor(schemas.get)
      case Some(i) => (found.taken.take(i), found.taken.drop(i) ++ found.left)
      case None => (found.taken, found.left)
    }
    val waiting = rest ++ found.heldBack ++ found.outsideRun
    source.notTaken(waiting)
    firstSeen.offered(waiting, now)
    metricsNow.heldBack = found.heldBack.size
    metricsNow.outstanding(rest)
    // What the log held already (read before, changed or not) is done with, for a source that must know.
    val kept = (waiting ++ taken).map(_.path).toSet
    source.passedOver(offered.filterNot(f => kept(f.path)), state.lastBatchId, state.lastCommittedBatchId)
    if (taken.isEmpty) {
      cleaning.foreach(_.triggerEnds())
      start
    } else {
      state.logBatch(next, taken.map(f => tracked(f, next, now, firstSeen.take(f.path, now))))
      logged(next) = taken.toIndexedSeq
      schemas.foreach(d => discovered(next) = keep(d, taken.map(_.path).toSet))
      val takenPaths = taken.map(_.path).toSet
      metricsNow.readAgain += found.readAgain.count(f => takenPaths(f.path))
      source.logged(next, taken)
      next
    }
  }

  private def discover(files: IndexedSeq[ScanFile]): Discovered = {
    val started = System.nanoTime()
    val found = definition.discover(files, session)
    metricsNow.discoveryMillis = (System.nanoTime() - started) / 1000000
    found
  }

  // The index, in admission order, of the first file that brings what the schema lacks. Files of one shape
  // (schema and directories) are judged once: a trigger's thousand files have a few shapes.
  private def firstChange(found: Discovered): Option[Int] = {
    val verdicts = mutable.HashMap.empty[(StructType, Seq[String]), Boolean]
    val fileSchemas = evolution.fileSchemas(found)
    found.files.indices.find { i =>
      val f = fileSchemas(i)
      verdicts.getOrElseUpdate(
        (f.schema, shape(found.files(i))),
        evolution.brings(definition.version, f).nonEmpty
      )
    }
  }

  // What of a file's directories the tracker sees: their depth, or their hive keys.
  private def shape(f: ScanFile): Seq[String] =
    f.dirs.toSeq.map(d => d.substring(0, math.max(0, d.indexOf('='))))

  // The trigger's first file brings new columns: stop the query, after writing the next version when the
  // mode evolves the schema (existing columns keep their types; new ones follow, as the tracker orders them).
  private def stopFor(found: Discovered): Nothing = {
    val fileSchemas = evolution.fileSchemas(found)
    val first = found.files.head
    val names = evolution.brings(definition.version, fileSchemas.head)
    if (!mode.evolves) throw DrillErrors.streamNewColumns(first.displayPath, names, mode.name, None)
    val dir = location.get
    val next = evolution.next(definition.version, fileSchemas, first.displayPath).get
    // A restart after a crash between this write and the stop finds the version already there.
    val written = SchemaVersions.newest(dir, conf).filter(_.version >= next.version).getOrElse {
      SchemaVersions.write(dir, next, conf)
      next
    }
    throw DrillErrors.streamSchemaChanged(
      first.displayPath,
      names,
      definition.version.version,
      written.version,
      dir,
      added = written.added
    )
  }

  /** Starts an `AvailableNow` run: only the files there now are taken until the query stops. */
  def prepareAvailableNow(): Unit = availableNow = Some(source.all().map(f => relative(f.path)).toSet)

  /** The plan of batches `from` (exclusive) to `to`, None when they hold no file. */
  def plan(from: Long, to: Long, required: StructType): Option[QueryPlan] = {
    val files = (from + 1 to to).map(discoveredOf)
    if (files.forall(_.files.isEmpty)) {
      planned = None
      return None
    }
    val all = Discovered(files.flatMap(_.files), files.flatMap(_.schemas), noStats)
    val (plan, table) = definition.plan(all, required, session)
    // Spark may plan a micro-batch more than once: its columns are counted once.
    if (!planned.exists { case (f, t, _) => f == from && t == to })
      metricsNow.newColumnsIgnored += table.reports.map(_.dropped.size).sum
    // A JSON member past the sample stops the micro-batch: the readers are told how.
    val withLate = plan.copy(spec = plan.spec.copy(lateColumns = lateColumns))
    planned = Some((from, to, withLate))
    Some(withLate)
  }

  // A JSON member first met past the sample stops the micro-batch reading it, as a new column in a file's
  // sample stops the one before it (a defined schema, or one `columns` array, has no new columns).
  private val lateColumns =
    if (!mode.watches || definition.definedByUser || definition.version.columnsArray) None
    else Some(PastSampleColumns(location.get, definition.version, options))

  def commit(batch: Long): Unit = {
    state.commit(batch)
    source.committed(batch)
    logged.keys.filter(_ <= batch).toList.foreach(logged.remove)
    discovered.keys.filter(_ <= batch).toList.foreach(discovered.remove)
  }

  def stop(): Unit =
    try cleaning.foreach(_.close())
    finally
      try source.close()
      finally state.close()

  /** `StreamingQueryProgress.sources[].metrics` after the micro-batch `consumed` (-1: none yet). Spark asks
    * once a trigger is over, so cleaning goes on from here.
    */
  def metrics(consumed: Long): Map[String, String] = {
    cleaning.foreach(_.triggerEnds())
    // Once per micro-batch: a trigger that found nothing new reports the same consumed offset again.
    val inBatch = planned match {
      case Some((_, to, plan)) if to == consumed && consumed != reportedBatch =>
        reportedBatch = consumed
        plan.files.size.toLong
      case _ => 0L
    }
    metricsNow.asMap ++ source.metrics ++ Map(
      "numFilesTracked" -> state.numFilesTracked.toString,
      "stateBytes" -> state.stateBytes.toString,
      "schemaVersion" -> (if (definition.definedByUser) "defined" else definition.version.version.toString),
      "numFilesInBatch" -> inBatch.toString,
      // Cumulative over this run of the query (a restart counts from 0).
      "numFilesArchived" -> cleaner.fold(0L)(_.archived).toString,
      "numFilesDeleted" -> cleaner.fold(0L)(_.deleted).toString
    )
  }

  def outstandingFiles: Long = metricsNow.outstandingFiles

  private def tracked(f: ScanFile, batch: Long, now: Long, discovered: Long): TrackedFile =
    TrackedFile(relative(f.path), f.length, f.modificationTime, batch, now, Some(discovered))

  // A logged batch's files with their schemas, as this run admitted them, or rebuilt from the log and
  // discovered (after a restart, or when admission did not look at schemas).
  private def discoveredOf(batch: Long): Discovered =
    discovered.getOrElseUpdate(
      batch,
      discover(logged.getOrElse(batch, state.batch(batch).map(rebuilt).toIndexedSeq))
    )

  private def rebuilt(t: TrackedFile): ScanFile = {
    val full = StreamState.resolve(root, t.path)
    val name = new Path(full).getName
    val format = FormatRegistry
      .forFile(name, options)
      .map(_.name)
      .getOrElse(throw DrillErrors.internal(s"spark-drill: no format reads $full, logged by the stream"))
    ScanFile(full, t.length, t.modificationTime, dirsOf(t.path), format)
  }

  // The directories between the root and the file: a relative path's own directories.
  private def dirsOf(relative: String): Array[String] =
    if (relative.contains(":")) Array.empty else relative.split('/').dropRight(1).filter(_.nonEmpty)
}

private[sparkdrill] object StreamEngine {
  private val log = LoggerFactory.getLogger(classOf[StreamEngine])

  private val noStats = Discovered.none.stats

  // The files of `found` among `paths`, with their schemas, in order.
  private def keep(found: Discovered, paths: Set[String]): Discovered = {
    val kept = found.files.indices.filter(i => paths(found.files(i).path))
    Discovered(kept.map(found.files), kept.map(found.schemas), found.stats)
  }

  /** When the stream first saw files it offered and has not taken (held back, past the limits), so that a
    * file's `discovery_time` is the first trigger that offered it (SPEC 11.1): kept in memory for at most
    * [[FirstSeen.Max]] paths (some 150 bytes each), beyond which a file's discovery is its admission, as it is
    * after a restart.
    */
  private final class FirstSeen {
    private val times = new java.util.HashMap[String, java.lang.Long]()

    def offered(files: Seq[ScanFile], now: Long): Unit = {
      // Full: forget the files no longer offered (deleted, or taken by no one) before taking new ones.
      if (times.size >= FirstSeen.Max) times.keySet.retainAll(files.map(_.path).toSet.asJava)
      val it = files.iterator
      while (it.hasNext && times.size < FirstSeen.Max) times.putIfAbsent(it.next().path, now)
    }

    def take(path: String, now: Long): Long = {
      val seen = times.remove(path)
      if (seen == null) now else seen.longValue
    }
  }

  private object FirstSeen {
    val Max = 50000
  }

  /** What a trigger found, for `StreamingQueryProgress.sources[].metrics` (SPEC 11, "Progress"). */
  private final class StreamMetrics {
    var listed = 0
    var listingMillis = 0L
    var discoveryMillis = 0L
    var heldBack = 0
    var changedAfterRead = 0L
    var newColumnsIgnored = 0L
    var readAgain = 0L
    var outstandingFiles = 0L
    var outstandingBytes = 0L

    def outstanding(files: Seq[ScanFile]): Unit = {
      outstandingFiles = files.size.toLong
      outstandingBytes = files.map(_.length).sum
    }

    def asMap: Map[String, String] = Map(
      "numFilesOutstanding" -> outstandingFiles.toString,
      "numBytesOutstanding" -> outstandingBytes.toString,
      "numFilesListed" -> listed.toString,
      "listingTimeMs" -> listingMillis.toString,
      "discoveryTimeMs" -> discoveryMillis.toString,
      "numFilesHeldBack" -> heldBack.toString,
      "numFilesChangedAfterRead" -> changedAfterRead.toString,
      "numNewColumnsIgnored" -> newColumnsIgnored.toString,
      "numFilesReadAgain" -> readAgain.toString
    )
  }
}
