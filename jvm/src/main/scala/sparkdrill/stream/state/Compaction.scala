package sparkdrill.stream.state

import org.apache.hadoop.fs.FileSystem

/** Merges committed batch files into tiers, LSM style, so a restart reads a few files and not one per batch
  * ever run, while no entry is rewritten more than once per level.
  *
  * A level-k tier holds the Fanout^k batch ids of an aligned range (level 1: ids 0-9, 10-19, ...; level 2:
  * 0-99, ...). Once every id of a level-k range is committed, the live files inside it (batch files or
  * lower tiers) are merged into its tier, levels bottom up. So each entry is written once as a batch file
  * and once per level, log_Fanout(batches) + 1 times in all: 4 times over 1,000 batches, and the bytes
  * written stay within 5 times the final state (CompactionSuite measures it). Rewriting the whole history
  * every few batches, as Spark's own file source log does, would write O(batches) times the state.
  *
  * Uncommitted batches stay as batch files: after a crash Spark asks for them again (StreamState.batch).
  * A merge writes its tier whole under its final name first, then deletes its inputs; a crash in between
  * leaves files the tier covers, which loading ignores (StateLayout) and the next compaction deletes.
  */
private[sparkdrill] object Compaction {
  val Fanout = 10

  /** Merges every fully committed range (ids up to `committed`), deleting what the tiers cover. A batch
    * without its commit time (a batch file, or a format 1 tier) takes `commitTime`'s, the commit markers'.
    */
  def run(
      fs: FileSystem,
      writer: StateWriter,
      layout: StateLayout,
      committed: Long,
      commitTime: Long => Option[Long]
  ): Unit = {
    val listing = layout.list(fs)
    listing.covered.foreach(f => writer.delete(f.path))
    var live = listing.live
    var level = 1
    var span = Fanout.toLong
    while (committed >= 0 && span - 1 <= committed && span > 0) {
      val candidates = live.filter(f => f.last - f.first + 1 < span && f.last <= committed)
      val groups = candidates.groupBy(_.first / span).toSeq.sortBy(_._1)
      groups.foreach { case (group, inputs) =>
        val first = group * span
        val last = first + span - 1
        if (last <= committed) {
          val target = layout.tierFile(level, first, last)
          val sorted = inputs.sortBy(_.first)
          val batches = sorted
            .flatMap { f =>
              val in = fs.open(f.path)
              try EntryCodec.readBatches(in)
              finally in.close()
            }
            .map(b => if (b.committedAt.isDefined) b else b.copy(committedAt = commitTime(b.id)))
          writer.writeNew(target)(out => EntryCodec.write(out, batches))
          sorted.foreach(f => writer.delete(f.path))
          live = (live.filterNot(sorted.contains) :+ DataFile(target, level, first, last)).sortBy(_.first)
        }
      }
      level += 1
      span = if (span > Long.MaxValue / Fanout) -1L else span * Fanout
    }
  }
}
