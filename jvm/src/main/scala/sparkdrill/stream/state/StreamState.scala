package sparkdrill.stream.state

import sparkdrill.errors.DrillErrors

import java.nio.charset.StandardCharsets

import scala.collection.immutable.SortedMap

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileAlreadyExistsException, FileSystem, Path}

/** The durable memory of a file stream: which files each micro-batch read, which batches Spark committed,
  * and an index answering "was this file read?" for every file the stream ever read, in at most 64 bytes of
  * driver heap per file (PathIndex). The files' layout is in StateLayout, their format in EntryCodec, the
  * tiers in Compaction, the single-writer rule in Lease.
  *
  * One instance per running query, used by the source from Spark's micro-batch thread; `open` takes the
  * lease and `close` gives it back.
  */
private[sparkdrill] final class StreamState private (
    val stateDir: Path,
    fs: FileSystem,
    layout: StateLayout,
    writer: StateWriter,
    lease: Lease,
    metadata: StateMetadata,
    index: PathIndex,
    private var lastBatch: Long,
    private var lastCommitted: Long,
    private var times: SortedMap[Long, Long]
) {
  @volatile private var closed = false

  /** The input root stored at the first start: informative (see StateMetadata). */
  def storedInputRoot: String = metadata.inputRoot
  def includeExistingFiles: Boolean = metadata.includeExistingFiles

  def lastBatchId: Long = lastBatch
  def lastCommittedBatchId: Long = lastCommitted

  /** Whether `path` (relative form) was logged in any batch (committed or not). */
  def contains(path: String): Boolean = index.contains(path)

  /** One lookup for a listed file (a trigger makes one per file of the tree): `PathIndex.Absent` (never
    * logged), `Same`, or `Changed` since it was logged; a change is remembered (in memory only: after a
    * restart the stamp is the logged one again), so the next call with the same values says `Same`.
    */
  def seen(path: String, length: Long, modificationTime: Long): Int =
    index.restamp(path, PathIndex.stamp(length, modificationTime))

  /** As [[seen]], without remembering a change: a file changed after it was read stays `Changed` until a
    * batch logs it again (`allowOverwrites` reads it again, maybe a few triggers later).
    */
  def compare(path: String, length: Long, modificationTime: Long): Int =
    index.compare(path, PathIndex.stamp(length, modificationTime))

  /** Writes batch `batchId`'s file list durably (must be lastBatchId + 1; a second writer of the same id
    * fails), then adds its files to the in-memory index.
    */
  def logBatch(batchId: Long, files: Seq[TrackedFile]): Unit = {
    checkWritable()
    if (batchId != lastBatch + 1)
      throw DrillErrors.internal(
        s"Cannot log batch $batchId in the stream state $stateDir: the last logged batch is $lastBatch, so " +
          s"the next must be ${lastBatch + 1}"
      )
    files.find(_.batchId != batchId).foreach { f =>
      throw DrillErrors.internalArgument(s"${f.path} is marked batch ${f.batchId}, logged as batch $batchId")
    }
    writer.writeNew(layout.batchFile(batchId))(out => EntryCodec.write(out, Seq(LoggedBatch(batchId, files))))
    files.foreach(f => index.put(f.path, PathIndex.stamp(f.length, f.modificationTime)))
    lastBatch = batchId
  }

  /** The files of a logged batch, read from disk: a pure function of the state on disk (Spark may ask again
    * after a crash). Works for committed and compacted batches too.
    */
  def batch(batchId: Long): Seq[TrackedFile] = StateReader.batch(fs, layout, batchId)

  /** Spark committed `batchId` (and so every batch before): remembered durably by a marker holding the time,
    * then the committed batch files are compacted in tiers (which take the markers' times). A commit at or
    * below the last one is a no-op (Spark commits the last batch again after a restart).
    */
  def commit(batchId: Long, now: Long = System.currentTimeMillis()): Unit = {
    checkWritable()
    if (batchId > lastBatch)
      throw DrillErrors.internal(
        s"Cannot commit batch $batchId in the stream state $stateDir: the last logged batch is $lastBatch"
      )
    if (batchId > lastCommitted) {
      val previous = lastCommitted
      val marker = layout.commitMarker(batchId)
      // Written whole or not at all (a temporary file renamed), so a marker's time is never half there.
      try writer.writeNew(marker)(_.write(now.toString.getBytes(StandardCharsets.US_ASCII)))
      catch { case _: FileAlreadyExistsException => }
      times = times.updated(batchId, now)
      lastCommitted = batchId
      // A range becomes complete only when the commits cross a multiple of the fanout: list and merge then.
      if ((batchId + 1) / Compaction.Fanout > (previous + 1) / Compaction.Fanout) {
        Compaction.run(fs, writer, layout, batchId, commitTimeOf)
        times = StreamState.pruneMarkers(fs, writer, layout, times)
      }
    }
  }

  /** When Spark committed `batchId`, as the commit markers tell (the first at or after it); None when it is
    * not committed, or a tier holds it (the tier has its time: [[StateReader.entries]]).
    */
  def commitTimeOf(batchId: Long): Option[Long] =
    if (batchId > lastCommitted) None
    else {
      val it = times.iteratorFrom(batchId)
      if (it.hasNext) Some(it.next()._2) else None
    }

  /** The newest commit marker's batch id and time, if any. */
  def newestCommit: Option[(Long, Long)] = times.lastOption

  /** The file system, layout and writer of this state, for the cleaner's own files (CleanLog), which it
    * writes under this state's lease.
    */
  private[sparkdrill] def storage: (FileSystem, StateLayout, StateWriter) = {
    checkWritable()
    (fs, layout, writer)
  }

  /** Distinct paths in the index (a path logged twice counts once). */
  def numFilesTracked: Long = index.size.toLong

  /** Bytes of the state on disk: every file the file system lists under the state directory (Hadoop's
    * local file system hides its `.crc` checksum files, about 1% more).
    */
  def stateBytes: Long = {
    val files = fs.listFiles(stateDir, true)
    var total = 0L
    while (files.hasNext) total += files.next().getLen
    total
  }

  /** Driver heap the index holds (its array). */
  def heapBytes: Long = index.heapBytes

  /** Bytes this instance wrote to the state (batch files, tiers, metadata), for the amplification bound. */
  private[sparkdrill] def bytesWritten: Long = writer.bytesWritten

  private[sparkdrill] def heldLease: Lease = lease

  /** Releases the lease and stops its renewal thread. Idempotent. */
  def close(): Unit = if (!closed) {
    closed = true
    lease.release()
  }

  /** Fails when the state is closed or another query took the lease over. */
  private[sparkdrill] def checkWritable(): Unit = {
    if (closed) throw DrillErrors.internal(s"the stream state $stateDir is closed")
    lease.checkHeld()
  }
}

private[sparkdrill] object StreamState {

  /** Where a source keeps its state inside the directory Spark gives it (`<checkpoint>/sources/<n>`): a
    * directory of its own, so nothing else Spark or a later version puts there can clash with it, and so
    * `drill-state` knows a spark-drill stream's state by its metadata file.
    */
  def dirFor(sourceCheckpoint: Path): Path = new Path(sourceCheckpoint, "drill")

  /** Opens (creating at first start) the state in `stateDir` for the input root `inputRoot` (a fully
    * qualified path string). `includeExistingFiles` is stored at first start; a later open with a different
    * value fails. Takes the lease, then loads the index from the tiers and the tail of batch files.
    */
  def open(
      stateDir: Path,
      inputRoot: String,
      includeExistingFiles: Boolean,
      conf: Configuration
  ): StreamState = {
    val fs = stateDir.getFileSystem(conf)
    val dir = fs.makeQualified(stateDir)
    val layout = new StateLayout(dir)
    fs.mkdirs(dir)
    val lease = Lease.take(fs, layout.lease)
    try {
      val writer = new StateWriter(fs)
      val metadata = StateMetadata.read(fs, layout) match {
        case Some(stored) =>
          if (stored.includeExistingFiles != includeExistingFiles)
            throw DrillErrors.includeExistingFilesChanged(
              includeExistingFiles,
              stored.includeExistingFiles,
              dir.toString
            )
          stored
        case None =>
          val created =
            StateMetadata(
              StateMetadata.CurrentVersion,
              inputRoot,
              includeExistingFiles,
              System.currentTimeMillis()
            )
          StateMetadata.write(writer, layout, created)
          created
      }
      val listing = layout.list(fs)
      // We hold the lease: a temporary file is a crashed writer's, never a live one's.
      listing.leftovers.foreach(writer.delete)
      val index = new PathIndex()
      val sink = new EntryCodec.Sink {
        def file(
            batchId: Long,
            path: Array[Byte],
            pathLength: Int,
            length: Long,
            mtime: Long,
            readAt: Long,
            discoveredAt: Long
        ): Unit = index.put(path, 0, pathLength, PathIndex.stamp(length, mtime))
      }
      listing.live.foreach { f =>
        val in = fs.open(f.path)
        EntryCodec.read(in, sink)
      }
      val committed = listing.lastCommittedBatchId
      val markers = layout.commitTimes(fs)
      def timeOf(id: Long): Option[Long] = {
        val it = markers.iteratorFrom(id)
        if (it.hasNext) Some(it.next()._2) else None
      }
      // Finishes a compaction a crash cut short (and deletes the inputs it had merged).
      Compaction.run(fs, writer, layout, committed, timeOf)
      val times = pruneMarkers(fs, writer, layout, markers)
      new StreamState(
        dir,
        fs,
        layout,
        writer,
        lease,
        metadata,
        index,
        math.max(listing.lastBatchId, committed),
        committed,
        times
      )
    } catch {
      case e: Throwable =>
        lease.release()
        throw e
    }
  }

  /** Whether the state in `stateDir` was created with includeExistingFiles; None when there is no state
    * there yet (a first start). Takes no lease.
    */
  def createdWithIncludeExistingFiles(stateDir: Path, conf: Configuration): Option[Boolean] = {
    val fs = stateDir.getFileSystem(conf)
    StateMetadata.read(fs, new StateLayout(fs.makeQualified(stateDir))).map(_.includeExistingFiles)
  }

  /** Deletes the commit markers whose batches a tier holds with their times (a marker times the batches
    * after the previous marker, up to its own id), keeping the newest, which says how far Spark committed.
    * Returns the markers left.
    */
  private def pruneMarkers(
      fs: FileSystem,
      writer: StateWriter,
      layout: StateLayout,
      markers: SortedMap[Long, Long]
  ): SortedMap[Long, Long] = {
    val tiered = layout.list(fs).live.filter(_.level > 0).map(_.last).foldLeft(-1L)(math.max)
    val newest = if (markers.isEmpty) -1L else markers.lastKey
    val gone = markers.keys.filter(id => id < newest && id <= tiered).toSeq
    gone.foreach(id => writer.delete(layout.commitMarker(id)))
    markers -- gone
  }

  /** Back to the full path. */
  def resolve(inputRoot: String, stored: String): String = StreamPaths.resolve(inputRoot, stored)
}
