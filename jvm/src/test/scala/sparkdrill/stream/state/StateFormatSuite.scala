package sparkdrill.stream.state

import java.nio.file.{Files => JFiles, Paths, StandardCopyOption}

import org.apache.hadoop.fs.Path
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.stream.state.StreamStateFixtures._

/** Format 2 of the state (SPEC 11.1): a file's discovery time, a batch's commit time (in its marker until a
  * tier holds it), and format 1 states, which an older spark-drill wrote, still read.
  *
  * `stream-state-v1/` in the test resources is a state written by spark-drill at e91242f (format 1, before
  * this change), by `build(dir, batches = 13, perBatch = 2, commitUpTo = 11)` of StreamStateFixtures: tier
  * 1-0-9, batch files 10 to 12, the one empty marker 11.
  */
class StateFormatSuite extends AnyFunSuite with TestFiles {
  private def stateDir: Path = new Path("file:" + root.resolve("checkpoint/sources/0/drill"))
  private val day = 86400000L

  private def withState[T](state: StreamState)(body: StreamState => T): T =
    try body(state)
    finally state.close()

  private def snapshot = {
    val fs = stateDir.getFileSystem(conf)
    StateReader.snapshot(fs, fs.makeQualified(stateDir)).get
  }

  private def copyV1(): Unit = {
    val from = Paths.get(getClass.getResource("/stream-state-v1/drill").toURI)
    val to = root.resolve("checkpoint/sources/0/drill")
    JFiles.walk(from).forEach { p =>
      val target = to.resolve(from.relativize(p).toString)
      if (JFiles.isDirectory(p)) JFiles.createDirectories(target)
      else JFiles.copy(p, target, StandardCopyOption.REPLACE_EXISTING)
    }
  }

  test("discovery and commit times go through the log, the markers and the tiers") {
    val withDiscovery = (b: Long) =>
      files(b, b.toInt * 3, 3).zipWithIndex.map { case (f, i) =>
        f.copy(discoveredAtMillis = Some(f.readAtMillis - i * 1000L))
      }
    withState(open(stateDir)) { s =>
      (0 until 12).foreach { b =>
        s.logBatch(b.toLong, withDiscovery(b.toLong))
        if (b <= 10) s.commit(b.toLong, now = 5 * day + b * 1000L)
      }
      // Batches 0-9 went into a tier with their times; markers 0-8 went with them, 9 (the newest then) and 10
      // stay.
      assert(s.commitTimeOf(10) == Some(5 * day + 10000L) && s.commitTimeOf(11).isEmpty)
      assert(s.batch(4) == withDiscovery(4))
    }
    val read = snapshot
    assert(read.batches.map(_.committedAt) == (0 until 11).map(b => Some(5 * day + b * 1000L)) :+ None)
    assert(read.batches.flatMap(_.files) == (0 until 12).flatMap(b => withDiscovery(b.toLong)))
    val fs = stateDir.getFileSystem(conf)
    val layout = new StateLayout(fs.makeQualified(stateDir))
    assert(layout.list(fs).live.map(_.path.getName) == Seq("1-0-9", "10", "11"))
    assert(layout.commitTimes(fs) == Map(9L -> (5 * day + 9000L), 10L -> (5 * day + 10000L)))
  }

  test("a batch Spark committed together with the next takes the next one's commit time") {
    withState(open(stateDir)) { s =>
      (0 until 3).foreach(b => s.logBatch(b.toLong, files(b.toLong, b, 1)))
      s.commit(0, now = 1000L)
      s.commit(2, now = 3000L) // 1 never committed on its own
      assert((0 to 2).map(b => s.commitTimeOf(b.toLong)) == Seq(Some(1000L), Some(3000L), Some(3000L)))
    }
    assert(snapshot.batches.map(_.committedAt) == Seq(Some(1000L), Some(3000L), Some(3000L)))
  }

  test("a format 1 state reads, without discovery or tier commit times, and goes on in format 2") {
    copyV1()
    val marker = root.resolve("checkpoint/sources/0/drill/commits/11")
    JFiles.setLastModifiedTime(marker, java.nio.file.attribute.FileTime.fromMillis(7 * day))
    val before = snapshot
    assert(before.batches.map(_.id) == (0 to 12) && before.lastCommittedBatchId == 11)
    assert(before.batches.flatMap(_.files) == (0 until 13).flatMap(b => files(b.toLong, b * 2, 2)))
    assert(before.batches.flatMap(_.files).forall(_.discoveredAtMillis.isEmpty))
    // The tier has no commit times; batches 10 and 11 take the empty marker's file time.
    assert(before.batches.map(_.committedAt) == Seq.fill(10)(None) ++ Seq(Some(7 * day), Some(7 * day), None))
    withState(open(stateDir)) { s =>
      assert(s.numFilesTracked == 26 && s.lastCommittedBatchId == 11 && s.commitTimeOf(10) == Some(7 * day))
      s.commit(12, now = 8 * day)
      (13 until 20).foreach { b =>
        s.logBatch(b.toLong, files(b.toLong, b * 2, 2).map(_.copy(discoveredAtMillis = Some(9 * day))))
        s.commit(b.toLong, now = 9 * day + b)
      }
    }
    val after = snapshot
    // 10-19 merged in format 2, with the times the markers gave; 0-9 still the format 1 tier.
    assert(
      after.batches.map(_.committedAt).slice(10, 14) == Seq(
        Some(7 * day),
        Some(7 * day),
        Some(8 * day),
        Some(9 * day + 13)
      )
    )
    assert(after.batches.take(10).forall(_.committedAt.isEmpty))
    assert(after.batches.flatMap(_.files).count(_.discoveredAtMillis.contains(9 * day)) == 14)
  }

  test("format 2 costs about a byte per file: a tier of 10,000 typical files stays within 12 bytes each") {
    val fs = stateDir.getFileSystem(conf)
    withState(open(stateDir)) { s =>
      (0 until 100).foreach { b =>
        val batch =
          files(b.toLong, b * 100, 100).map(f => f.copy(discoveredAtMillis = Some(f.readAtMillis - 1500L)))
        s.logBatch(b.toLong, batch)
        s.commit(b.toLong, now = 1795000000000L + b * 60000L + 2000L)
      }
      val tier = new StateLayout(fs.makeQualified(stateDir)).list(fs).live
      assert(tier.map(_.path.getName) == Seq("2-0-99"))
      val perFile = fs.getFileStatus(tier.head.path).getLen.toDouble / 10000
      info(f"$perFile%.2f bytes per file")
      assert(perFile <= 12.0)
    }
  }

  test("cleaning rounds merge in tiers of ten; the records read back in order with the newest cursor") {
    withState(open(stateDir)) { s =>
      val (fs, layout, writer) = s.storage
      def round(r: Int) = CleanRound(
        CleanCursor(r.toLong, 1),
        Some((3L, 7L)),
        Seq(
          CleanRecord(
            s"f$r.csv",
            r.toLong,
            5L,
            6L,
            CleanLog.Archive,
            Some(s"file:/archive/f$r.csv"),
            Some(r * 10L)
          )
        )
      )
      (0 until 25).foreach(r => CleanLog.writeDone(writer, layout, r.toLong, round(r)))
      val names = fs.listStatus(layout.cleaned).map(_.getPath.getName).filterNot(_.startsWith(".")).toSet
      assert(names == Set("1-0-9", "1-10-19") ++ (20 until 25).map(r => s"0-$r-$r"))
      val all = CleanLog.read(fs, layout)
      assert(all.records == (0 until 25).flatMap(r => round(r).records))
      assert(all.cursor == CleanCursor(24, 1) && all.legacy.contains((3L, 7L)))
      assert(CleanLog.position(fs, layout) == (round(24).copy(records = Nil), 24L))
      (25 until 100).foreach(r => CleanLog.writeDone(writer, layout, r.toLong, round(r)))
      assert(
        fs.listStatus(layout.cleaned).map(_.getPath.getName).filterNot(_.startsWith(".")).toSeq == Seq(
          "2-0-99"
        )
      )
      assert(CleanLog.read(fs, layout).records.size == 100)
    }
  }
}
