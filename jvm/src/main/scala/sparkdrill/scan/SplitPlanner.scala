package sparkdrill.scan

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.types.StructType

/** Cuts files into byte ranges and packs them into tasks the way Spark packs file splits: ranges of at most
  * `maxSplitBytes`, largest first, each task filled up to that size counting `openCostInBytes` per range.
  */
private[sparkdrill] object SplitPlanner {

  /** Spark's `spark.sql.files.*` settings, and the parallelism that spreads small inputs. */
  final case class Settings(maxPartitionBytes: Long, openCostInBytes: Long, minPartitions: Int)

  def maxSplitBytes(files: Seq[ScanFile], s: Settings): Long = {
    val totalBytes = files.map(_.length + s.openCostInBytes).sum
    val bytesPerCore = totalBytes / math.max(1, s.minPartitions)
    math.min(s.maxPartitionBytes, math.max(s.openCostInBytes, bytesPerCore))
  }

  /** The tasks: each an array of file ranges. `splittable` says whether a file may be cut. */
  def plan(
      files: IndexedSeq[ScanFile],
      fileSchemas: IndexedSeq[StructType],
      splittable: ScanFile => Boolean,
      s: Settings
  ): Array[Array[FileTask]] = {
    val maxBytes = maxSplitBytes(files, s)
    val ranges = files.indices.flatMap { i =>
      val file = files(i)
      if (file.length <= maxBytes || !splittable(file)) Seq(FileTask(file, 0L, Long.MaxValue, None))
      else
        (0L until file.length by maxBytes).map { start =>
          val end = math.min(start + maxBytes, file.length)
          // Later ranges start past the header, so they carry the header schema found at discovery.
          val schema = if (start == 0L) None else Some(fileSchemas(i))
          FileTask(file, start, if (end == file.length) Long.MaxValue else end, schema)
        }
    }
    pack(ranges, maxBytes, s.openCostInBytes)
  }

  private def rangeLength(t: FileTask): Long =
    (if (t.end == Long.MaxValue) t.file.length else t.end) - t.start

  private def pack(ranges: Seq[FileTask], maxBytes: Long, openCost: Long): Array[Array[FileTask]] = {
    val tasks = ArrayBuffer.empty[Array[FileTask]]
    val current = ArrayBuffer.empty[FileTask]
    var size = 0L
    def close(): Unit = if (current.nonEmpty) {
      // Within a task, read ranges in path order so that rows come out in a stable order.
      tasks += current.sortBy(t => (t.file.path, t.start)).toArray
      current.clear()
      size = 0L
    }
    ranges.sortBy(t => -rangeLength(t)).foreach { t =>
      if (size + rangeLength(t) > maxBytes) close()
      size += rangeLength(t) + openCost
      current += t
    }
    close()
    tasks.toArray
  }
}
