package sparkdrill.spark.stream

import java.util

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import org.apache.hadoop.fs.Path
import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReaderFactory}
import org.apache.spark.sql.connector.read.streaming._
import org.apache.spark.sql.types.StructType
import org.apache.spark.util.SerializableConfiguration
import org.slf4j.LoggerFactory

import sparkdrill.scan.{
  DirectoryMemo,
  FormatRegistry,
  QueryPlan,
  ScanFile,
  ScanOptions,
  StreamOptions,
  TableScan
}
import sparkdrill.scan.cache.CachedDiscovery
import sparkdrill.spark.{DrillInputPartition, DrillReaderFactory, ParallelDiscovery, SessionContext}

/** The stream of one started query (SPEC 11): each trigger lists the input, takes the files no micro-batch has
  * taken (oldest first, within the limits), writes them to the source's file log under the checkpoint and
  * only then hands Spark the new offset; a micro-batch is planned from the log alone, so Spark's replay of
  * an uncommitted batch after a crash reads the same files.
  *
  * @param required the columns to read: the stream's, or fewer should Spark push a projection into a stream
  * @param checkpoint the directory Spark gives this source, `<checkpoint>/sources/<n>`
  */
private[sparkdrill] final class DrillMicroBatchStream(
    definition: StreamDefinition,
    required: StructType,
    checkpoint: String
) extends MicroBatchStream
    with SupportsAdmissionControl
    with SupportsTriggerAvailableNow
    with ReportsSourceMetrics {
  import DrillMicroBatchStream._

  private val session = SparkSession.active
  private val conf = definition.conf
  private val options = definition.options
  private val root = definition.root
  private val maxFiles = options(StreamOptions.MaxFilesPerTrigger)
  private val maxBytes = options(StreamOptions.MaxBytesPerTrigger)
  private val minFileAge = options(StreamOptions.MinFileAge)
  private val includeExisting = options(StreamOptions.IncludeExistingFiles)

  // listChangedDirectoriesOnly: the directories a trigger listed, so that the next lists only those changed.
  private val directories =
    if (options(StreamOptions.ListChangedDirectoriesOnly)) Some(new DirectoryMemo(DirectorySettleMillis))
    else None

  private val relative = new StreamPaths.Relative(root)
  private val checkpointPath = new Path(checkpoint)
  // The query's checkpoint (two levels above the source's) and the schema versions are never input.
  private val ownDirs: Seq[Path] = Option(checkpointPath.getParent).flatMap(p => Option(p.getParent)).toSeq ++
    options.get(StreamOptions.SchemaLocation).map(new Path(_))

  private val mode = definition.evolutionMode

  // A DataFrame built on an older version than schemaLocation holds would read new files under the old
  // schema: refused before the query takes the lease or reads anything.
  if (!definition.definedByUser)
    options.get(StreamOptions.SchemaLocation).flatMap(SchemaVersions.newest(_, conf)).foreach { newest =>
      if (newest.version > definition.version.version)
        throw new StreamSchemaException(
          StreamSchemaException.Stale,
          s"this streaming DataFrame was built on schema version ${definition.version.version}, but " +
            s"schemaLocation ${options.get(StreamOptions.SchemaLocation).get} holds version ${newest.version}: " +
            "build the DataFrame again (spark.readStream...load(), or sd.read_stream) and start the query from it"
        )
    }

  private val state = StreamState.open(StreamState.dirFor(checkpointPath), root, includeExisting, conf)

  // The files of logged batches this run listed itself (replayed ones are rebuilt from the log).
  private val listedBatches = mutable.Map.empty[Long, IndexedSeq[ScanFile]]
  // AvailableNow: the files there when the run started; no other is taken in this run.
  private var availableNow: Option[Set[String]] = None
  private var current: Option[(Long, Long, QueryPlan)] = None

  private val metricsNow = new StreamMetrics
  private var lastOffset: Long = -1L
  private var reportedBatch: Long = -2L

  private lazy val broadcastConf: Broadcast[SerializableConfiguration] =
    session.sparkContext.broadcast(new SerializableConfiguration(conf))

  override def initialOffset(): Offset =
    if (includeExisting) StreamOffset(-1L)
    else {
      // First start without the files already there: they are logged as batch 0, which no micro-batch reads
      // (Spark starts after this offset), so no later trigger takes them.
      if (state.lastBatchId < 0) {
        val now = System.currentTimeMillis()
        val existing = listEligible()
        state.logBatch(0L, existing.map(f => tracked(f, 0L, now)))
        state.commit(0L)
      }
      StreamOffset(0L)
    }

  override def deserializeOffset(json: String): Offset = StreamOffset.parse(json)

  override def getDefaultReadLimit: ReadLimit = FilesAndBytes(maxFiles, maxBytes)

  override def latestOffset(): Offset =
    throw new UnsupportedOperationException("latestOffset(start, limit) is the entry point of this source")

  override def latestOffset(startOffset: Offset, limit: ReadLimit): Offset = {
    val start = StreamOffset.of(startOffset).batch
    val next = start + 1
    // Logged before a crash but never in Spark's offset log: that batch is the next one, as logged.
    if (state.lastBatchId >= next) {
      lastOffset = next
      return StreamOffset(next)
    }
    val (filesLimit, bytesLimit) = limits(limit)
    val now = System.currentTimeMillis()
    val listed = listEligible(directories)
    val fresh = mutable.ArrayBuffer.empty[ScanFile]
    // A file listed but not taken keeps its directory listed (DirectoryMemo).
    def notTaken(f: ScanFile): Unit = directories.foreach(_.unfinished(f.path))
    var heldBack = 0
    listed.foreach { f =>
      val key = relative(f.path)
      val seen = state.seen(key, f.length, f.modificationTime)
      if (seen != PathIndex.Absent) {
        if (seen == PathIndex.Changed) {
          metricsNow.changedAfterRead += 1
          log.warn(
            s"spark-drill: ${f.displayPath} changed after a micro-batch read it (now ${f.length} bytes, modified " +
              s"${new java.sql.Timestamp(f.modificationTime)}): it is not read again"
          )
        }
      } else if (availableNow.exists(run => !run(key))) notTaken(f) // arrived after this AvailableNow run
      else if (now - f.modificationTime < minFileAge) {
        heldBack += 1
        notTaken(f)
      } else fresh += f
    }
    val (admitted, left) = StreamFiles.admit(fresh.toSeq, filesLimit, bytesLimit)
    // The schema barrier: a micro-batch ends before the first file with columns the schema lacks.
    val cut = if (EvolutionMode.watches(mode)) firstChange(admitted.toIndexedSeq) else None
    val (taken, rest) = cut match {
      case Some((0, changes)) => stopFor(changes)
      case Some((i, _)) => (admitted.take(i), admitted.drop(i) ++ left)
      case None => (admitted, left)
    }
    rest.foreach(notTaken)
    metricsNow.heldBack = heldBack
    metricsNow.outstanding(rest)
    if (taken.isEmpty) {
      lastOffset = start
      StreamOffset(start)
    } else {
      state.logBatch(next, taken.map(f => tracked(f, next, now)))
      listedBatches(next) = taken.toIndexedSeq
      lastOffset = next
      StreamOffset(next)
    }
  }

  // The first of `files` (in admission order) that brings columns the schema lacks, and what each file from
  // it on brings. Discovery goes through the session's cache, which the micro-batch's planning then hits.
  private def firstChange(files: IndexedSeq[ScanFile]): Option[(Int, Seq[FileChange])] = {
    val readOptions = options.without(ScanOptions.Project)
    val (schemas, _) = CachedDiscovery.discover(files, readOptions, conf, ParallelDiscovery(session))
    val widening = mode == EvolutionMode.WithTypeWidening
    val changes = files.indices.flatMap { i =>
      schemas(i)
        .flatMap(s => SchemaChanges.of(definition.version, files(i), s, readOptions, widening))
        .map(i -> _)
    }
    changes.headOption.map { case (i, _) => i -> changes.map(_._2) }
  }

  // The trigger's first file brings new columns: stop the query, after writing the next version when the
  // mode evolves the schema (existing columns keep their types; new ones follow, first seen first).
  private def stopFor(changes: Seq[FileChange]): Nothing = {
    val first = changes.head
    val names = first.names.mkString(", ")
    if (!EvolutionMode.evolves(mode))
      throw new StreamSchemaException(
        StreamSchemaException.NewColumns,
        s"${first.file.displayPath} has columns the stream's schema lacks: $names. schemaEvolutionMode=$mode " +
          "stops here and keeps the schema: give a schema that has them (.schema(...), or a new version in " +
          "schemaLocation) or move the file away, then restart"
      )
    val location = options.get(StreamOptions.SchemaLocation).get
    val next = SchemaChanges.next(definition.version, changes, ScanOptions.discoveryFingerprint(options))
    // A restart after a crash between this write and the stop finds the version already there.
    val written = SchemaVersions.newest(location, conf).filter(_.version >= next.version).getOrElse {
      SchemaVersions.write(location, next, conf)
      next
    }
    throw new StreamSchemaException(
      StreamSchemaException.Changed,
      s"the stream's schema changed: ${first.file.displayPath} brings $names. Version ${written.version} " +
        s"(adding ${written.added.mkString(", ")}) is in schemaLocation $location, after version " +
        s"${definition.version.version}. Build the DataFrame again and restart the query from the same " +
        "checkpoint (sd.run_stream does both): it goes on from that file, with the new columns"
    )
  }

  override def reportLatestOffset(): Offset = StreamOffset(lastOffset, Some(metricsNow.outstandingFiles))

  override def prepareForTriggerAvailableNow(): Unit =
    availableNow = Some(listEligible().map(f => relative(f.path)).toSet)

  override def planInputPartitions(start: Offset, end: Offset): Array[InputPartition] = {
    val (from, to) = (StreamOffset.of(start).batch, StreamOffset.of(end).batch)
    val files = (from + 1 to to).flatMap(filesOf)
    if (files.isEmpty) {
      current = None
      return Array.empty
    }
    val table = definition.tableOf(files, session)
    val plan = table.plan(required, Nil, Long.MaxValue, SessionContext.splitSettings(session))
    metricsNow.discoveryMillis = table.times.discoveryMillis
    // Spark may plan a micro-batch more than once: its columns are counted once.
    if (!current.exists { case (f, t, _) => f == from && t == to })
      metricsNow.newColumnsIgnored += table.reports.map(_.dropped.size).sum
    current = Some((from, to, plan))
    plan.tasks.zipWithIndex.map { case (tasks, i) => DrillInputPartition(i, tasks): InputPartition }
  }

  override def createReaderFactory(): PartitionReaderFactory = current match {
    case Some((_, _, plan)) =>
      new DrillReaderFactory(plan.spec.copy(lateColumns = lateColumns), broadcastConf)
    case None => NoPartitions // an empty range has no partitions to read
  }

  // A JSON member first met past the sample stops the micro-batch reading it, as a new column in a file's
  // sample stops the one before it (a defined schema, or one `columns` array, has no new columns).
  private val lateColumns =
    if (!EvolutionMode.watches(mode) || definition.definedByUser || definition.version.columnsArray) None
    else
      Some(
        PastSampleColumns(
          options.get(StreamOptions.SchemaLocation).get,
          definition.version,
          mode,
          ScanOptions.discoveryFingerprint(options)
        )
      )

  override def commit(end: Offset): Unit = {
    val batch = StreamOffset.of(end).batch
    state.commit(batch)
    listedBatches.keys.filter(_ <= batch).toList.foreach(listedBatches.remove)
  }

  override def stop(): Unit = state.close()

  override def metrics(latestConsumedOffset: util.Optional[Offset]): util.Map[String, String] = {
    val consumed =
      if (latestConsumedOffset.isPresent) StreamOffset.of(latestConsumedOffset.get).batch else -1L
    // Once per micro-batch: a trigger that found nothing new reports the same consumed offset again.
    val inBatch = current match {
      case Some((_, to, plan)) if to == consumed && consumed != reportedBatch =>
        reportedBatch = consumed
        plan.files.size.toLong
      case _ => 0L
    }
    (metricsNow.asMap ++ Map(
      "numFilesTracked" -> state.numFilesTracked.toString,
      "stateBytes" -> state.stateBytes.toString,
      "schemaVersion" -> (if (definition.definedByUser) "defined" else definition.version.version.toString),
      "numFilesInBatch" -> inBatch.toString
    )).asJava
  }

  override def toString: String = s"DrillStream[${definition.path}]"

  // The listing, timed: the input's files minus the stream's own directories.
  private def listEligible(memo: Option[DirectoryMemo] = None): IndexedSeq[ScanFile] = {
    val started = System.nanoTime()
    // The input directory may not exist yet (a stream with a defined schema over a landing zone to be).
    val listed = TableScan.list(
      Seq(definition.path),
      options.updated(ScanOptions.IgnoreMissingFiles, true),
      conf,
      SessionContext.zone(session),
      memo
    )
    val eligible = StreamFiles.eligible(listed, ownDirs, conf)
    metricsNow.listed = eligible.size
    metricsNow.listingMillis = (System.nanoTime() - started) / 1000000
    eligible
  }

  private def tracked(f: ScanFile, batch: Long, now: Long): TrackedFile =
    TrackedFile(relative(f.path), f.length, f.modificationTime, batch, now)

  // A logged batch's files, as this run listed them or rebuilt from the log (after a restart).
  private def filesOf(batch: Long): IndexedSeq[ScanFile] =
    listedBatches.getOrElse(batch, state.batch(batch).map(rebuilt).toIndexedSeq)

  private def rebuilt(t: TrackedFile): ScanFile = {
    val full = StreamState.resolve(root, t.path)
    val name = new Path(full).getName
    val format = FormatRegistry
      .forFile(name, options)
      .map(_.name)
      .getOrElse(throw new IllegalStateException(s"spark-drill: no format reads $full, logged by the stream"))
    ScanFile(full, t.length, t.modificationTime, dirsOf(t.path), format)
  }

  // The directories between the root and the file: a relative path's own directories.
  private def dirsOf(relative: String): Array[String] =
    if (relative.contains(":")) Array.empty else relative.split('/').dropRight(1).filter(_.nonEmpty)

  private def limits(limit: ReadLimit): (Int, Long) = limit match {
    case _: ReadAllAvailable => (Int.MaxValue, Long.MaxValue)
    case l: FilesAndBytes => (l.maxFiles, l.maxBytes)
    case l: ReadMaxFiles => (l.maxFiles, Long.MaxValue)
    case l: CompositeReadLimit =>
      l.getReadLimits.map(limits).foldLeft((Int.MaxValue, Long.MaxValue)) { case ((f, b), (f2, b2)) =>
        (math.min(f, f2), math.min(b, b2))
      }
    case _ => (maxFiles, maxBytes)
  }
}

private[sparkdrill] object DrillMicroBatchStream {
  private val log = LoggerFactory.getLogger(classOf[DrillMicroBatchStream])

  /** listChangedDirectoriesOnly trusts a directory's time only once it is this far behind a listing. */
  private val DirectorySettleMillis = 30000L

  private object NoPartitions extends PartitionReaderFactory {
    override def createReader(
        partition: InputPartition
    ): org.apache.spark.sql.connector.read.PartitionReader[org.apache.spark.sql.catalyst.InternalRow] =
      throw new IllegalStateException(
        s"spark-drill: no partition to read in an empty micro-batch: $partition"
      )
  }

  /** What a trigger found, for `StreamingQueryProgress.sources[].metrics` (SPEC 11, "Progress"). */
  private final class StreamMetrics {
    var listed = 0
    var listingMillis = 0L
    var discoveryMillis = 0L
    var heldBack = 0
    var changedAfterRead = 0L
    var newColumnsIgnored = 0L
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
      "numNewColumnsIgnored" -> newColumnsIgnored.toString
    )
  }
}
