package sparkdrill.stream.state

import java.io.IOException
import java.nio.file.{Files => JFiles}

import org.apache.hadoop.fs.{FileAlreadyExistsException, Path}
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.stream.state.StreamStateFixtures._

class StreamStateSuite extends AnyFunSuite with TestFiles {
  private def stateDir: Path = new Path("file:" + root.resolve("checkpoint/sources/0/drill"))

  private def withState[T](state: StreamState)(body: StreamState => T): T =
    try body(state)
    finally state.close()

  private def names(sub: String): Set[String] = {
    val d = root.resolve(s"checkpoint/sources/0/drill/$sub")
    if (!JFiles.isDirectory(d)) Set.empty
    else {
      val s = JFiles.list(d)
      try
        s.toArray
          .map(_.asInstanceOf[java.nio.file.Path].getFileName.toString)
          .filterNot(_.endsWith(".crc"))
          .toSet
      finally s.close()
    }
  }

  test("a fresh state has no batches") {
    withState(open(stateDir)) { s =>
      assert(s.lastBatchId == -1 && s.lastCommittedBatchId == -1 && s.numFilesTracked == 0)
      assert(!s.contains("a.csv"))
      assert(s.storedInputRoot == inputRoot)
    }
  }

  test("logBatch then batch gives the same files back, in order, unicode and odd paths included") {
    val odd = Seq(
      TrackedFile("ünï/ファイル.json", 0L, 0L, 0L, 5L),
      TrackedFile("file:/elsewhere/x.csv", Long.MaxValue, -1L, 0L, 5L),
      TrackedFile("./a:/b.csv", 3L, Long.MinValue, 0L, 4L),
      TrackedFile("", 1L, 2L, 0L, 3L)
    )
    withState(open(stateDir)) { s =>
      s.logBatch(0, odd)
      s.logBatch(1, files(1, 0, 100))
      s.logBatch(2, Nil)
      assert(s.batch(0) == odd)
      assert(s.batch(1) == files(1, 0, 100))
      assert(s.batch(2).isEmpty)
      assert(s.lastBatchId == 2 && s.numFilesTracked == 104)
      assert(odd.forall(f => s.contains(f.path)))
      assert(intercept[NoSuchElementException](s.batch(3)).getMessage.contains("batch 3 is not in"))
    }
  }

  test("a batch id that is not the next one fails, so a second logBatch of the same id fails") {
    withState(open(stateDir)) { s =>
      s.logBatch(0, files(0, 0, 3))
      val again = intercept[IllegalStateException](s.logBatch(0, files(0, 10, 3)))
      assert(again.getMessage.contains("the last logged batch is 0, so the next must be 1"))
      intercept[IllegalStateException](s.logBatch(2, files(2, 10, 3)))
      intercept[IllegalArgumentException](s.logBatch(1, files(7, 10, 3)))
      assert(s.batch(0) == files(0, 0, 3))
      assert(!s.contains(files(0, 10, 3).head.path))
    }
  }

  test("a batch file another writer already made on disk is not overwritten: logBatch fails") {
    withState(open(stateDir)) { s =>
      s.logBatch(0, files(0, 0, 3))
      val fs = stateDir.getFileSystem(conf)
      fs.create(new Path(stateDir, "batches/1"), false).close()
      intercept[FileAlreadyExistsException](s.logBatch(1, files(1, 3, 3)))
      assert(s.lastBatchId == 0)
      assert(!names("batches").exists(StateLayout.isTemp))
    }
  }

  test("seen compares with the logged length and time, and remembers the new ones") {
    withState(open(stateDir)) { s =>
      val f = files(0, 0, 1).head
      s.logBatch(0, Seq(f))
      assert(s.seen(f.path, f.length, f.modificationTime) == PathIndex.Same)
      assert(s.seen(f.path, f.length + 1, f.modificationTime) == PathIndex.Changed)
      assert(s.seen(f.path, f.length + 1, f.modificationTime) == PathIndex.Same)
      assert(s.seen(f.path, f.length + 1, f.modificationTime + 1) == PathIndex.Changed)
      assert(s.seen("never/read.csv", 1, 1) == PathIndex.Absent)
      assert(!s.contains("never/read.csv"))
    }
  }

  test("commits compact in tiers; every batch stays readable, and a reopen finds every file") {
    val perBatch = 7
    withState(build(stateDir, batches = 235, perBatch = perBatch, commitUpTo = 231)) { s =>
      assert(s.lastBatchId == 234 && s.lastCommittedBatchId == 231)
      // Tiers 0-99 and 100-199 (level 2), 200-209 and 210-219 and 220-229 (level 1); batches 230 to 234.
      assert(names("tiers") == Set("2-0-99", "2-100-199", "1-200-209", "1-210-219", "1-220-229"))
      assert(names("batches") == (230 to 234).map(_.toString).toSet)
      // Markers stay until a tier holds their batches' commit times; the newest always (229 was the newest
      // when 220-229 merged).
      assert(names("commits") == Set("229", "230", "231"))
      (0 until 235).foreach(b => assert(s.batch(b.toLong) == files(b.toLong, b * perBatch, perBatch), b))
    }
    withState(open(stateDir)) { s =>
      assert(s.lastBatchId == 234 && s.lastCommittedBatchId == 231 && s.numFilesTracked == 235L * perBatch)
      assert((0 until 235 * perBatch).forall(i => s.contains(files(0, i, 1).head.path)))
      assert(!s.contains(files(0, 235 * perBatch, 1).head.path))
      // Committing the rest merges 230-239 only once 239 is committed; a repeated commit is a no-op.
      s.commit(234)
      s.commit(233)
      assert(s.lastCommittedBatchId == 234)
      assert(names("batches") == (230 to 234).map(_.toString).toSet)
      (235 until 240).foreach(b => s.logBatch(b.toLong, files(b.toLong, b * perBatch, perBatch)))
      s.commit(239)
      assert(names("tiers").contains("1-230-239") && names("batches").isEmpty)
      assert((0 until 240).forall(b => s.batch(b.toLong).size == perBatch))
      intercept[IllegalStateException](s.commit(240))
    }
  }

  test("a crash between a merge and the deletes of its inputs loads without duplicates, and is cleaned up") {
    withState(build(stateDir, batches = 10, perBatch = 5, commitUpTo = 8)) { s =>
      assert(names("batches").size == 10 && names("tiers").isEmpty)
    }
    // What commit(9) would write before its deletes, by hand: the tier, with batch files 0-9 still there.
    val fs = stateDir.getFileSystem(conf)
    val layout = new StateLayout(fs.makeQualified(stateDir))
    fs.create(layout.commitMarker(9), false).close()
    val merged = (0 until 10).map(b => LoggedBatch(b.toLong, files(b.toLong, b * 5, 5)))
    new StateWriter(fs).writeNew(layout.tierFile(1, 0, 9))(out => EntryCodec.write(out, merged))
    // And a half-written file of a crashed writer.
    val temp = StateLayout.tempFor(layout.batchFile(10), "crashed")
    val out = fs.create(temp, false)
    out.write(Array[Byte](1, 2, 3))
    out.close()

    val listing = layout.list(fs)
    assert(listing.live.map(_.path.getName) == Seq("1-0-9"))
    assert(listing.covered.size == 10 && listing.leftovers == Seq(temp))
    val read = StateReader.snapshot(fs, layout.dir).get
    assert(read.batches.flatMap(_.files).size == 50 && read.lastCommittedBatchId == 9)

    withState(open(stateDir)) { s =>
      assert(s.numFilesTracked == 50 && s.lastBatchId == 9 && s.lastCommittedBatchId == 9)
      assert(names("batches").isEmpty && names("tiers") == Set("1-0-9"))
      assert(!fs.exists(temp))
      assert(s.batch(3) == files(3, 15, 5))
      s.logBatch(10, files(10, 50, 5))
    }
  }

  test("overlapping ranges that do not nest are refused rather than read twice") {
    val a = DataFile(new Path("/t/1-0-9"), 1, 0, 9)
    val b = DataFile(new Path("/t/x"), 1, 5, 14)
    assert(
      intercept[IllegalStateException](StateLayout.widestFirst(Seq(a, b))).getMessage.contains("overlapping")
    )
    val (live, covered) = StateLayout.widestFirst(Seq(DataFile(new Path("/b/3"), 0, 3, 3), a))
    assert(live == Seq(a) && covered.map(_.first) == Seq(3L))
  }

  test("a truncated or foreign state file fails to read, naming the problem") {
    val bytes = new java.io.ByteArrayOutputStream()
    EntryCodec.write(bytes, Seq(LoggedBatch(0, files(0, 0, 50))))
    val whole = bytes.toByteArray
    val truncated = java.util.Arrays.copyOf(whole, whole.length - 6)
    intercept[IOException](EntryCodec.readBatches(new java.io.ByteArrayInputStream(truncated)))
    assert(EntryCodec.readBatches(new java.io.ByteArrayInputStream(whole)).head.files == files(0, 0, 50))
  }

  test(
    "includeExistingFiles cannot change after the first start; the error names the option, both values, the dir"
  ) {
    assert(StreamState.createdWithIncludeExistingFiles(stateDir, conf).isEmpty)
    withState(open(stateDir, includeExisting = true))(_ => ())
    assert(StreamState.createdWithIncludeExistingFiles(stateDir, conf).contains(true))
    val e = intercept[IllegalArgumentException](open(stateDir, includeExisting = false))
    assert(e.getMessage.contains("The option includeExistingFiles is false for this query"))
    assert(e.getMessage.contains("created with includeExistingFiles=true"))
    assert(e.getMessage.contains(stateDir.toUri.getPath))
    // The failed open gave the lease back.
    withState(open(stateDir, includeExisting = true))(s => assert(s.includeExistingFiles))
  }

  test("another input root is stored nowhere new and does not fail: paths are relative, the tree may move") {
    withState(open(stateDir))(_.logBatch(0, files(0, 0, 2)))
    withState(StreamState.open(stateDir, "file:/moved/landing", false, conf)) { s =>
      assert(s.storedInputRoot == inputRoot)
      assert(s.contains(files(0, 0, 2).head.path))
    }
  }

  test("relativize and resolve: under the root relative, elsewhere the full URI, both ways") {
    val r = "file:/data/in"
    def relativize(root: String, p: String) = new StreamPaths.Relative(root)(p)
    assert(relativize(r, "file:/data/in/2026/a.csv") == "2026/a.csv")
    assert(relativize("file:///data/in/", "file:/data/in/2026/a.csv") == "2026/a.csv")
    assert(relativize(r, "file:///data/in/2026/a.csv") == "2026/a.csv") // another spelling: the slow path
    assert(relativize(r, "file:/data/inbox/a.csv") == "file:/data/inbox/a.csv")
    assert(relativize(r, "s3a://b/in/a.csv") == "s3a://b/in/a.csv")
    assert(relativize(r, "file:/data/in/a:/b.csv") == "./a:/b.csv")
    assert(relativize(r, "file:/data/in/a-b:c/b.csv") == "./a-b:c/b.csv")
    assert(relativize(r, "file:/data/in/x y:/b.csv") == "x y:/b.csv") // a space: no scheme
    Seq("file:/data/in/2026/a.csv", "file:/data/inbox/a.csv", "s3a://b/in/a.csv", "file:/data/in/a:/b.csv")
      .foreach(p => assert(StreamState.resolve(r, relativize(r, p)) == p, p))
    assert(StreamState.resolve("file:/moved/in", "2026/a.csv") == "file:/moved/in/2026/a.csv")
  }

  test("dirFor puts the state in a drill directory of the source's checkpoint directory") {
    assert(StreamState.dirFor(new Path("/ck/sources/0")) == new Path("/ck/sources/0/drill"))
  }

  test("after close, writes fail") {
    val s = open(stateDir)
    s.close()
    s.close()
    intercept[IllegalStateException](s.logBatch(0, Nil))
  }
}
