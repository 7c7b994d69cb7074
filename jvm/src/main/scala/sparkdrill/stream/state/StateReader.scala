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

  /** Everything the state holds, or None where no state was ever started. */
  def snapshot(fs: FileSystem, dir: Path): Option[StateSnapshot] = {
    val layout = new StateLayout(dir)
    StateMetadata.read(fs, layout).map { metadata =>
      retrying {
        val listing = layout.list(fs)
        val batches = listing.live.flatMap { f =>
          val in = fs.open(f.path)
          try EntryCodec.readBatches(in)
          finally in.close()
        }
        StateSnapshot(dir, metadata, listing.lastCommittedBatchId, batches)
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
    batches: Seq[LoggedBatch]
)
