package sparkdrill.stream.state

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path

/** Typical stream files and states for the stream state suites. */
object StreamStateFixtures {
  val conf = new Configuration()
  val inputRoot = "file:/data/landing"
  private val Base = 1795000000000L // 2026-11-18

  /** Batch `batchId`'s `count` files, numbered on from `first`: `2026/11/27/events-000123.csv`. */
  def files(batchId: Long, first: Int, count: Int): Seq[TrackedFile] =
    (first until first + count).map { i =>
      val day = 1 + (i / 5000) % 28
      val month = 1 + (i / 140000) % 12
      TrackedFile(
        f"2026/$month%02d/$day%02d/events-$i%06d.csv",
        // Lengths and times as irregular as real ones (a regular series would flatter the compression).
        length = 1000L + java.lang.Math.floorMod(Murmur3.mix(i.toLong), 5000000L),
        modificationTime = Base + i * 900L + java.lang.Math.floorMod(Murmur3.mix(~i.toLong), 60000L),
        batchId = batchId,
        readAtMillis = Base + batchId * 60000L + 17L
      )
    }

  def open(dir: Path, includeExisting: Boolean = false): StreamState =
    StreamState.open(dir, inputRoot, includeExisting, conf)

  /** Logs and commits `batches` batches of `perBatch` files each, from a fresh state. */
  def build(dir: Path, batches: Int, perBatch: Int, commitUpTo: Long = Long.MaxValue): StreamState = {
    val state = open(dir)
    (0 until batches).foreach { b =>
      state.logBatch(b.toLong, files(b.toLong, b * perBatch, perBatch))
      if (b <= commitUpTo) state.commit(b.toLong)
    }
    state
  }
}
