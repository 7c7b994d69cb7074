package sparkdrill.stream.state

import org.apache.hadoop.fs.Path
import org.scalatest.Tag
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.stream.state.StreamStateFixtures._

/** The issue's numbers: bytes on disk per file, bytes written over a stream's life against its final state,
  * and the restart's load of 100,000 files (printed, not asserted: timing depends on the machine). The two
  * 1,000-batch states take some 13 s each to build (Hadoop's local file system creates a file in ~6 ms
  * here), so those tests are Slow: `make test` runs them, `make test-fast` does not.
  */
class CompactionSuite extends AnyFunSuite with TestFiles {
  private object Slow extends Tag("sparkdrill.tags.Slow")
  private def stateDir: Path = new Path("file:" + root.resolve("checkpoint/sources/0/drill"))

  /** Bytes of the data files alone (batches and tiers, no checksums, metadata or lease). */
  private def dataBytes: Long = {
    val fs = stateDir.getFileSystem(conf)
    val listing = new StateLayout(fs.makeQualified(stateDir)).list(fs)
    (listing.live ++ listing.covered).map(f => fs.getFileStatus(f.path).getLen).sum
  }

  test("10,000 typical files over 100 committed batches take at most 64 bytes each on disk") {
    val s = build(stateDir, batches = 100, perBatch = 100)
    try {
      val perFile = s.stateBytes.toDouble / s.numFilesTracked
      val dataPerFile = dataBytes.toDouble / s.numFilesTracked
      info(
        f"on disk: ${s.stateBytes} bytes for ${s.numFilesTracked} files = $perFile%.1f bytes/file " +
          f"(data files alone $dataPerFile%.1f); e.g. ${files(0, 123, 1).head.path}"
      )
      assert(s.numFilesTracked == 10000)
      assert(perFile <= 64.0)
    } finally s.close()
  }

  test("over 1,000 batches of 100 files, the bytes written stay within 5 times the final state", Slow) {
    val s = build(stateDir, batches = 1000, perBatch = 100)
    try {
      val ratio = s.bytesWritten.toDouble / dataBytes
      info(
        f"written ${s.bytesWritten} bytes; final data files $dataBytes bytes (${s.stateBytes} with the " +
          f"metadata and lease): amplification $ratio%.2f"
      )
      assert(s.numFilesTracked == 100000)
      assert(ratio <= 5.0)
      // Never the whole history each few batches: the one tier of 0-999 is all there is.
      assert(
        new StateLayout(stateDir).list(stateDir.getFileSystem(conf)).live.map(_.path.getName) == Seq(
          "3-0-999"
        )
      )
    } finally s.close()
  }

  test(
    "a restart loads 100,000 files in 1,000 batches from the tiers and the tail (load time printed)",
    Slow
  ) {
    build(stateDir, batches = 1000, perBatch = 100, commitUpTo = 994).close()
    // Warm the classes once, so the time printed is the load's.
    open(new Path(stateDir.getParent, "warm")).close()
    val started = System.nanoTime()
    val s = open(stateDir)
    val millis = (System.nanoTime() - started) / 1e6
    try {
      val listing = new StateLayout(s.stateDir).list(stateDir.getFileSystem(conf))
      info(
        f"restart: $millis%.0f ms to load ${s.numFilesTracked} files from ${listing.live.size} files " +
          s"(${listing.live.map(_.path.getName).mkString(", ")}); heap ${s.heapBytes} bytes"
      )
      assert(s.numFilesTracked == 100000)
      assert(s.lastBatchId == 999 && s.lastCommittedBatchId == 994)
      assert((0 until 100000).forall(i => s.contains(files(0, i, 1).head.path)))
      assert(listing.live.size == 9 + 9 + 5 + 5)
      assert(s.batch(997) == files(997, 99700, 100))
      assert(s.batch(123) == files(123, 12300, 100))
    } finally s.close()
  }
}
