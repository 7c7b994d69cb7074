package sparkdrill.stream

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path => JPath}

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{Path => HPath}
import org.apache.spark.sql.types.StructType
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.errors.{DrillException, ErrorClasses, SparkDrillError}
import sparkdrill.scan.TableScan
import sparkdrill.stream.state._

/** `cleanSource` (SPEC 11.1) on the real engine and real local files, triggers driven as Spark drives them
  * (latestBatch, plan, commit, metrics): when a file is archived or deleted, where it goes, what the state
  * records, what a crash in the middle of a round leaves to the next run, and that a round waits while a
  * trigger runs.
  */
class CleanSourceSuite extends AnyFunSuite with TestFiles {
  import StreamTestKit._

  private val conf = new Configuration()
  private val hour = 3600000L

  private def in(rel: String): JPath = root.resolve("in").resolve(rel)
  private def archived(rel: String): JPath = root.resolve("archive").resolve(rel)
  private def checkpoint: String = root.resolve("chk/sources/0").toString

  private def land(rel: String, text: String): JPath = {
    val p = in(rel)
    Files.createDirectories(p.getParent)
    Files.write(p, text.getBytes(UTF_8))
    p.toFile.setLastModified(System.currentTimeMillis() - hour)
    p
  }

  private def definition(options: (String, String)*): StreamDefinition = {
    val all = Map("schemaLocation" -> root.resolve("schemas").toString, "header" -> "true") ++ options
    StreamDefinition.load(
      Seq(root.resolve("in").toString),
      TableScan.parseOptions(all, StreamOptions.all),
      None,
      conf,
      session
    )
  }

  private def archiveOptions(retention: String = "1s") = Seq(
    "cleanSource" -> "archive",
    "cleanSourceArchiveDir" -> root.resolve("archive").toString,
    "cleanSourceRetention" -> retention
  )

  private def engine(d: StreamDefinition): StreamEngine = new StreamEngine(d, checkpoint, session)

  // One micro-batch as Spark runs it: the trigger, planning, the commit. Returns the batch.
  private def microBatch(e: StreamEngine, start: Long): Long = {
    val end = e.latestBatch(start, 1000, Long.MaxValue)
    if (end > start) {
      e.plan(start, end, StructType(Nil))
      e.commit(end)
    }
    end
  }

  // Polls `condition` for up to 30 s, asking for the metrics as Spark does once a trigger is over (which
  // records a round that finished): a round runs on a thread of its own.
  private def until(e: StreamEngine, what: String)(condition: => Boolean): Unit = {
    val deadline = System.nanoTime() + 30L * 1000000000L
    while ({ e.metrics(-1); !condition }) {
      if (System.nanoTime() > deadline) fail(s"$what: not within 30 s")
      Thread.sleep(20)
    }
  }

  private def stateFs = new HPath(checkpoint).getFileSystem(conf)
  private def layout = new StateLayout(stateFs.makeQualified(StreamState.dirFor(new HPath(checkpoint))))
  private def records: Seq[CleanRecord] = CleanLog.read(stateFs, layout).records

  test(
    "archive: once the batch committed and the retention passed, files move under the archive dir, keeping their path"
  ) {
    land("2026/11/a.csv", "id\n1\n")
    land("b.csv", "id\n2\n")
    val e = engine(definition(archiveOptions(): _*))
    try {
      val start = e.initialBatch()
      val batch = e.latestBatch(start, 1000, Long.MaxValue)
      assert(batch == 0)
      // Logged, not committed: a trigger cleans nothing, however old the files.
      Thread.sleep(1100)
      assert(e.latestBatch(start, 1000, Long.MaxValue) == 0)
      assert(Files.exists(in("2026/11/a.csv")) && Files.exists(in("b.csv")))
      e.plan(start, batch, StructType(Nil))
      e.commit(batch)
      // Committed just now: the retention (1s) has not passed.
      val committedAt = System.currentTimeMillis()
      assert(e.latestBatch(batch, 1000, Long.MaxValue) == batch)
      assert(System.currentTimeMillis() - committedAt < 1000, "the machine was too slow to check this")
      assert(Files.exists(in("2026/11/a.csv")) && !Files.exists(archived("2026/11/a.csv")))
      assert(e.metrics(batch)("numFilesArchived") == "0")
      Thread.sleep(1100)
      land("c.csv", "id\n3\n") // a file of the next batch, not committed: stays
      assert(e.latestBatch(batch, 1000, Long.MaxValue) == 1)
      // The round is planned, but waits while the trigger runs (until Spark reports its progress).
      Thread.sleep(500)
      assert(Files.exists(in("2026/11/a.csv")) && Files.exists(in("b.csv")) && records.isEmpty)
      until(e, "archived")(e.metrics(1)("numFilesArchived") == "2")
      assert(!Files.exists(in("2026/11/a.csv")) && !Files.exists(in("b.csv")))
      assert(new String(Files.readAllBytes(archived("2026/11/a.csv")), UTF_8) == "id\n1\n")
      assert(Files.exists(archived("b.csv")) && Files.exists(in("c.csv")) && !Files.exists(archived("c.csv")))
      val m = e.metrics(1)
      assert(m("numFilesArchived") == "2" && m("numFilesDeleted") == "0")
      val r = records.sortBy(_.path)
      assert(r.map(_.path) == Seq("2026/11/a.csv", "b.csv") && r.forall(_.mode == "archive"))
      assert(r.head.archivePath.contains(new HPath("file:" + archived("2026/11/a.csv")).toString))
      assert(r.forall(_.at.exists(_ >= committedAt + 1000)))
    } finally e.stop()
  }

  test("delete: files are deleted after the retention, and recorded without an archive path") {
    land("a.csv", "id\n1\n")
    val e = engine(definition("cleanSource" -> "delete", "cleanSourceRetention" -> "1s"))
    try {
      val batch = microBatch(e, e.initialBatch())
      assert(e.latestBatch(batch, 1000, Long.MaxValue) == batch)
      assert(Files.exists(in("a.csv")))
      Thread.sleep(1100)
      e.latestBatch(batch, 1000, Long.MaxValue) // nothing new: the trigger is over, the round runs
      until(e, "deleted")(e.metrics(batch)("numFilesDeleted") == "1")
      assert(!Files.exists(in("a.csv")))
      assert(records.map(r => (r.path, r.mode, r.archivePath)) == Seq(("a.csv", "delete", None)))
    } finally e.stop()
  }

  test("the default retention (30 days) cleans nothing of a batch committed now") {
    land("a.csv", "id\n1\n")
    val e = engine(definition("cleanSource" -> "delete"))
    try {
      val batch = microBatch(e, e.initialBatch())
      e.latestBatch(batch, 1000, Long.MaxValue)
      assert(Files.exists(in("a.csv")) && records.isEmpty)
    } finally e.stop()
  }

  test(
    "a file changed since it was read is not cleaned (another version); nor are files the stream never read"
  ) {
    land("old.csv", "id\n0\n")
    val first = engine(
      definition("includeExistingFiles" -> "false", "cleanSource" -> "delete", "cleanSourceRetention" -> "1s")
    )
    val batch =
      try {
        val b0 = first.initialBatch() // old.csv is logged as batch 0, unread
        land("a.csv", "id\n1\n")
        land("b.csv", "id\n2\n")
        microBatch(first, b0)
      } finally first.stop()
    assert(batch == 1)
    // a.csv is written again (a new version no batch read): it stays.
    Files.write(in("a.csv"), "id\n1\n11\n".getBytes(UTF_8))
    Thread.sleep(1100)
    val again = engine(
      definition("includeExistingFiles" -> "false", "cleanSource" -> "delete", "cleanSourceRetention" -> "1s")
    )
    try {
      triggersUntil(again, batch, "b.csv deleted")(again.metrics(batch)("numFilesDeleted") == "1")
      assert(Files.exists(in("old.csv")) && Files.exists(in("a.csv")) && !Files.exists(in("b.csv")))
      assert(records.map(_.path) == Seq("b.csv"))
    } finally again.stop()
  }

  test("a crash in the middle of a round: the next run records what moved and moves the rest") {
    land("x/a.csv", "id\n1\n")
    land("x/b.csv", "id\n2\n")
    land("x/c.csv", "id\n3\n")
    val first = engine(definition(archiveOptions(): _*))
    val batch =
      try microBatch(first, first.initialBatch())
      finally first.stop()
    Thread.sleep(1100)
    // What a round writes before it moves anything, then the crash after it moved a.csv: by hand.
    val logged = {
      val s =
        StreamState.open(StreamState.dirFor(new HPath(checkpoint)), "file:" + root.resolve("in"), true, conf)
      try s.batch(batch)
      finally s.close()
    }
    assert(logged.map(_.path).sorted == Seq("x/a.csv", "x/b.csv", "x/c.csv"))
    val plan = CleanRound(
      CleanCursor(batch, 3),
      None,
      logged.sortBy(_.path).map { f =>
        val target = new HPath("file:" + archived(f.path)).toString
        CleanRecord(f.path, f.batchId, f.length, f.modificationTime, "archive", Some(target), None)
      }
    )
    CleanLog.writePlan(new StateWriter(stateFs), layout, 0, plan)
    Files.createDirectories(archived("x"))
    Files.move(in("x/a.csv"), archived("x/a.csv"))

    val next = engine(definition(archiveOptions(): _*))
    try {
      // The plan is the first round: a.csv (already moved) is recorded, b.csv and c.csv are moved now.
      triggersUntil(next, batch, "the plan finished")(next.metrics(batch)("numFilesArchived") == "3")
      assert(
        Seq("a.csv", "b.csv", "c.csv").forall(n =>
          !Files.exists(in(s"x/$n")) && Files.exists(archived(s"x/$n"))
        )
      )
      assert(
        records.map(_.path).sorted == Seq("x/a.csv", "x/b.csv", "x/c.csv") && records.forall(_.at.isDefined)
      )
      assert(next.metrics(batch)("numFilesArchived") == "3")
      assert(Files.notExists(root.resolve("chk/sources/0/drill/cleaning/0")))
      // The cursor is past the batch: a later trigger does not look at them again.
      next.latestBatch(batch, 1000, Long.MaxValue)
      assert(records.size == 3 && next.metrics(batch)("numFilesArchived") == "3")
    } finally next.stop()
  }

  test("a crash after a delete plan: a file already gone is recorded, the rest deleted") {
    land("a.csv", "id\n1\n")
    land("b.csv", "id\n2\n")
    val options = Seq("cleanSource" -> "delete", "cleanSourceRetention" -> "1s")
    val first = engine(definition(options: _*))
    val batch =
      try microBatch(first, first.initialBatch())
      finally first.stop()
    val logged = {
      val s =
        StreamState.open(StreamState.dirFor(new HPath(checkpoint)), "file:" + root.resolve("in"), true, conf)
      try s.batch(batch)
      finally s.close()
    }
    val plan = CleanRound(
      CleanCursor(batch, 2),
      None,
      logged.map(f => CleanRecord(f.path, f.batchId, f.length, f.modificationTime, "delete", None, None))
    )
    CleanLog.writePlan(new StateWriter(stateFs), layout, 0, plan)
    Files.delete(in("a.csv"))
    val next = engine(definition(options: _*))
    try {
      triggersUntil(next, batch, "the plan finished")(next.metrics(batch)("numFilesDeleted") == "2")
      assert(!Files.exists(in("b.csv")))
      assert(records.map(_.path).sorted == Seq("a.csv", "b.csv"))
    } finally next.stop()
  }

  test("an archive directory under the input, or in the checkpoint, is refused at start naming both") {
    land("a.csv", "id\n1\n")
    val under = root.resolve("in/archive").toString
    val e = intercept[DrillException](
      engine(definition("cleanSource" -> "archive", "cleanSourceArchiveDir" -> under))
    )
    assert(e.errorClass == ErrorClasses.StreamArchiveDirInside)
    assert(
      e.parameters("archiveDir") == "file:" + under && e.parameters("path") == "file:" + root.resolve("in")
    )
    assert(e.getMessage.contains(under) && e.getMessage.contains("input"), e.getMessage)
    val inCheckpoint = root.resolve("chk/archive").toString
    val c = intercept[DrillException](
      engine(definition("cleanSource" -> "archive", "cleanSourceArchiveDir" -> inCheckpoint))
    )
    assert(c.parameters("of") == "checkpoint" && c.parameters("path") == "file:" + root.resolve("chk"))
    // Refused before the stream took its lease or wrote any state.
    assert(!Files.exists(root.resolve("chk/sources/0/drill")))
  }

  test(
    "cleanSource=archive without cleanSourceArchiveDir fails naming the option; a bad mode names the choices"
  ) {
    land("a.csv", "id\n1\n")
    val e = intercept[DrillException](definition("cleanSource" -> "archive"))
    assert(
      e.errorClass == ErrorClasses.StreamNeedsArchiveDir && e.getMessage.contains("cleanSourceArchiveDir")
    )
    val bad = intercept[IllegalArgumentException](definition("cleanSource" -> "move"))
    assert(bad.asInstanceOf[SparkDrillError].errorClass == ErrorClasses.BadOptionValue)
    assert(bad.getMessage.contains("off, archive, delete"), bad.getMessage)
    assert(
      definition("cleanSource" -> "delete", "cleanSourceRetention" -> "7d").settings.clean ==
        CleanSettings(CleanMode.Delete, None, 7 * 86400000L)
    )
    assert(definition().settings.clean == CleanSettings(CleanMode.Off, None, 30 * 86400000L))
  }

  test("a file's discovery time is the first trigger that offered it, held back or not") {
    land("a.csv", "id\n1\n")
    val young = in("young.csv")
    Files.write(young, "id\n2\n".getBytes(UTF_8)) // modified now: held back by minFileAge
    val e = engine(definition("minFileAge" -> "2s"))
    try {
      val firstTrigger = System.currentTimeMillis()
      val b0 = microBatch(e, e.initialBatch())
      Thread.sleep(2100)
      val b1 = microBatch(e, b0)
      assert(b1 == b0 + 1)
      val s = StateReader.snapshot(stateFs, layout.dir).get
      val f = s.batches.flatMap(_.files).map(f => f.path -> f).toMap
      assert(f("young.csv").batchId == b1 && f("young.csv").readAtMillis >= firstTrigger + 2000)
      assert(f("young.csv").discoveredAtMillis.exists(d => d >= firstTrigger && d < firstTrigger + 1000))
      assert(f("a.csv").discoveredAtMillis.contains(f("a.csv").readAtMillis))
    } finally e.stop()
  }

  test("a trigger cleans at most MaxFilesPerRound files; the next goes on from there") {
    val n = SourceCleaner.MaxFilesPerRound + 5
    (0 until n).foreach(i => land(f"d/f$i%05d.csv", "id\n1\n"))
    val e = engine(definition("cleanSource" -> "delete", "cleanSourceRetention" -> "1s"))
    try {
      val b0 = microBatch(e, e.initialBatch())
      val b1 = microBatch(e, b0) // maxFilesPerTrigger (1000): the last five files
      assert(b1 == b0 + 1)
      Thread.sleep(1100)
      e.latestBatch(b1, 1000, Long.MaxValue)
      def left = Files.list(in("d")).count()
      until(e, "a round")(e.metrics(b1)("numFilesDeleted") == SourceCleaner.MaxFilesPerRound.toString)
      assert(left == 5)
      triggersUntil(e, b1, "the rest")(left == 0 && records.size == n)
    } finally e.stop()
  }

  test("triggers back to back: a round waits, then runs beside a trigger after StarvedAfter triggers") {
    land("a.csv", "id\n1\n")
    val e = engine(definition("cleanSource" -> "delete", "cleanSourceRetention" -> "0s"))
    try {
      // Each trigger finds a new file, and no progress is reported between them (no metrics call): no gap.
      var b = microBatch(e, e.initialBatch()) // the first trigger: a.csv read and committed
      (2 to CleaningBetweenTriggers.StarvedAfter + 1).foreach { i =>
        land(s"n$i.csv", "id\n2\n")
        b = microBatch(e, b) // the second plans the round for a.csv, which waits through the others
      }
      Thread.sleep(500)
      assert(Files.exists(in("a.csv")), "cleaned while triggers ran")
      land("last.csv", "id\n3\n")
      microBatch(e, b) // the round got no time in StarvedAfter triggers: this one lets it run beside it
      val deadline = System.nanoTime() + 30L * 1000000000L
      while (Files.exists(in("a.csv")) && System.nanoTime() < deadline) Thread.sleep(20)
      assert(!Files.exists(in("a.csv")), "not cleaned within 30 s")
    } finally e.stop()
  }

  test("a query stopped between triggers (AvailableNow at its end) finishes the round in flight first") {
    val n = 300
    (0 until n).foreach(i => land(f"d/f$i%03d.csv", "id\n1\n"))
    val e = engine(definition("cleanSource" -> "delete", "cleanSourceRetention" -> "0s"))
    try {
      val b0 = microBatch(e, e.initialBatch())
      assert(e.latestBatch(b0, 1000, Long.MaxValue) == b0) // plans the round, which starts: nothing new
    } finally e.stop()
    assert(Files.list(in("d")).count() == 0 && records.size == n)
    assert(Files.notExists(root.resolve("chk/sources/0/drill/cleaning/0")))
  }

  test(
    "an older batch's entry does not clean a newer version of its path, which its own entry cleans later"
  ) {
    land("a.csv", "id\n1\n")
    val inputRoot = "file:" + root.resolve("in")
    val stateDir = StreamState.dirFor(new HPath(checkpoint))
    val d = definition("cleanSource" -> "delete", "cleanSourceRetention" -> "1s")
    val v1 = Files.getLastModifiedTime(in("a.csv")).toMillis
    // Batch 0 read a.csv, committed an hour ago; then a.csv was written again and batch 1 read it again (as
    // allowOverwrites would), not committed yet.
    Files.write(in("a.csv"), "id\n1\n2\n".getBytes(UTF_8))
    in("a.csv").toFile.setLastModified(v1 + 60000L)
    val s = StreamState.open(stateDir, inputRoot, true, conf)
    try {
      s.logBatch(0, Seq(TrackedFile("a.csv", 5L, v1, 0, v1)))
      s.commit(0, now = System.currentTimeMillis() - hour)
      s.logBatch(1, Seq(TrackedFile("a.csv", 7L, v1 + 60000L, 1, v1 + 60000L)))
    } finally s.close()
    val e = engine(d)
    try {
      assert(e.latestBatch(0, 1000, Long.MaxValue) == 1) // batch 1 comes back, as logged
      assert(Files.exists(in("a.csv")) && records.isEmpty)
      e.commit(1)
      Thread.sleep(1100)
      triggersUntil(e, 1, "a.csv deleted")(!Files.exists(in("a.csv")) && records.nonEmpty)
      assert(records.map(r => (r.path, r.batchId, r.length)) == Seq(("a.csv", 1L, 7L)))
    } finally e.stop()
  }

  test("an archive on another file system: copied then deleted; a crash after a partial copy copies again") {
    // `other:` is the local disk under another scheme: a second file system as Hadoop sees it.
    conf.set("fs.other.impl", classOf[OtherLocalFileSystem].getName)
    conf.setBoolean("fs.other.impl.disable.cache", true)
    try {
      land("x/a.csv", "id\n1\n")
      land("x/b.csv", "id\n2\n")
      val options = Seq(
        "cleanSource" -> "archive",
        "cleanSourceArchiveDir" -> s"other://${root.resolve("archive")}",
        "cleanSourceRetention" -> "1s"
      )
      val first = engine(definition(options: _*))
      val batch =
        try microBatch(first, first.initialBatch())
        finally first.stop()
      Thread.sleep(1100)
      // The crash: the plan written, a.csv half copied, nothing deleted.
      val logged = {
        val s = StreamState.open(
          StreamState.dirFor(new HPath(checkpoint)),
          "file:" + root.resolve("in"),
          true,
          conf
        )
        try s.batch(batch)
        finally s.close()
      }
      val a = logged.find(_.path == "x/a.csv").get
      val target = s"other:${archived("x/a.csv")}"
      val plan = CleanRound(
        CleanCursor(batch, 1),
        None,
        Seq(CleanRecord(a.path, a.batchId, a.length, a.modificationTime, "archive", Some(target), None))
      )
      CleanLog.writePlan(new StateWriter(stateFs), layout, 0, plan)
      Files.createDirectories(archived("x"))
      Files.write(archived("x/a.csv"), "id".getBytes(UTF_8))
      val next = engine(definition(options: _*))
      try {
        triggersUntil(next, batch, "the plan finished")(next.metrics(batch)("numFilesArchived") == "1")
        assert(!Files.exists(in("x/a.csv")))
        assert(new String(Files.readAllBytes(archived("x/a.csv")), UTF_8) == "id\n1\n")
        assert(records.map(_.archivePath) == Seq(Some(target)))
        // b.csv, in the next round, by a copy too.
        triggersUntil(next, batch, "b.csv archived")(next.metrics(batch)("numFilesArchived") == "2")
        assert(!Files.exists(in("x/b.csv")) && Files.exists(archived("x/b.csv")))
        assert(records.map(_.path) == Seq("x/a.csv", "x/b.csv"))
        assert(records(1).archivePath.contains(s"other:${archived("x/b.csv")}"))
      } finally next.stop()
    } finally conf.unset("fs.other.impl")
  }
}

/** The local file system under the scheme `other:`, so that a test has two file systems. */
class OtherLocalFileSystem extends org.apache.hadoop.fs.RawLocalFileSystem {
  override def getUri: java.net.URI = java.net.URI.create("other:///")
  override def getScheme: String = "other"
}
