package sparkdrill.stream.state

import sparkdrill.errors.DrillErrors

import java.io.FileNotFoundException

import org.apache.hadoop.fs.{FileSystem, Path}

/** Reads of the state that need no lease: `batch(id)` and the `drill-state` listing, which runs while the
  * stream does. A compaction may delete a file between the listing and the read; the read then lists again.
  */
private[sparkdrill] object StateReader {
  private val Attempts = 5

  /** The files of batch `id`, from its batch file or the tier holding it. */
  def batch(fs: FileSystem, layout: StateLayout, id: Long): Seq[TrackedFile] = retrying {
    val listing = layout.list(fs)
    val file = listing.fileOf(id).getOrElse {
      throw new NoSuchElementException(
        s"batch $id is not in the stream state ${layout.dir} (its batches run to ${listing.lastBatchId})"
      )
    }
    val in = fs.open(file.path)
    val batches =
      try EntryCodec.readBatches(in, _ == id)
      finally in.close()
    batches.flatMap(_.files)
  }

  /** Up to `limit` files of batches `from` (from its `fromIndex`-th file) to `to`, in the log's order, each
    * with its place in its batch and its tier's commit time. Stops decoding once it has them: a round of
    * cleaning reads from where the previous one stopped, not the whole state.
    */
  def entries(
      fs: FileSystem,
      layout: StateLayout,
      from: Long,
      fromIndex: Int,
      to: Long,
      limit: Int
  ): Seq[StateEntry] = retrying {
    val out = Vector.newBuilder[StateEntry]
    var count = 0
    val files = layout.list(fs).live.filter(f => f.last >= from && f.first <= to)
    var inTier = false
    val sink = new EntryCodec.Sink {
      private var committedAt: Option[Long] = None
      private var index = 0
      override def batch(id: Long, files: Int, committed: Long): Unit = {
        if (id > to) throw Enough
        committedAt = if (committed == EntryCodec.Unknown) None else Some(committed)
        index = 0
      }
      def file(
          batchId: Long,
          path: Array[Byte],
          pathLength: Int,
          length: Long,
          mtime: Long,
          readAt: Long,
          discoveredAt: Long
      ): Unit = {
        if (batchId > from || (batchId == from && index >= fromIndex)) {
          if (count >= limit) throw Enough
          val discovered = if (discoveredAt == EntryCodec.Unknown) None else Some(discoveredAt)
          val name = new String(path, 0, pathLength, java.nio.charset.StandardCharsets.UTF_8)
          out += StateEntry(
            TrackedFile(name, length, mtime, batchId, readAt, discovered),
            index,
            committedAt,
            inTier
          )
          count += 1
        }
        index += 1
      }
    }
    val it = files.iterator
    var more = true
    while (more && it.hasNext) {
      val f = it.next()
      inTier = f.level > 0
      try EntryCodec.read(fs.open(f.path), sink)
      catch { case Enough => more = false }
    }
    out.result()
  }

  // Ends a read early: the entries asked for are in.
  private object Enough extends scala.util.control.ControlThrowable

  /** Everything the state holds, or None where no state was ever started. */
  def snapshot(fs: FileSystem, dir: Path): Option[StateSnapshot] = {
    val layout = new StateLayout(dir)
    StateMetadata.read(fs, layout).map { metadata =>
      retrying {
        val listing = layout.list(fs)
        val committed = listing.lastCommittedBatchId
        val markers = layout.commitTimes(fs)
        // A batch's commit time: its tier's, else (a batch file) the first marker's at or after it
        // (StateLayout); a format 1 tier has none.
        val timed = listing.live.flatMap { f =>
          val in = fs.open(f.path)
          val batches =
            try EntryCodec.readBatches(in)
            finally in.close()
          if (f.level > 0) batches
          else
            batches.map { b =>
              val it = markers.iteratorFrom(b.id)
              if (b.committedAt.isDefined || b.id > committed || !it.hasNext) b
              else b.copy(committedAt = Some(it.next()._2))
            }
        }
        StateSnapshot(dir, metadata, committed, timed, CleanLog.read(fs, layout).records)
      }
    }
  }

  private def retrying[T](read: => T): T = {
    var attempt = 1
    while (true)
      try return read
      catch { case _: FileNotFoundException if attempt < Attempts => attempt += 1 }
    throw DrillErrors.internal("unreachable")
  }
}

/** A state as read at one moment, for the `drill-state` listing. */
private[sparkdrill] final case class StateSnapshot(
    dir: Path,
    metadata: StateMetadata,
    lastCommittedBatchId: Long,
    batches: Seq[LoggedBatch],
    cleaned: Seq[CleanRecord]
)

/** A file of a logged batch, its place in the batch, and its batch's commit time where a tier holds it.
  *
  * @param inTier read from a tier (whose commit time, when None, is one an older spark-drill never wrote),
  *   not a batch file (timed by the commit markers)
  */
private[sparkdrill] final case class StateEntry(
    file: TrackedFile,
    index: Int,
    committedAt: Option[Long],
    inTier: Boolean
)
