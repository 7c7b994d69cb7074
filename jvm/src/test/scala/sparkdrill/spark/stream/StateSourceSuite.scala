package sparkdrill.spark.stream

import sparkdrill.stream.state._

import java.sql.Timestamp

import java.nio.file.Files

import scala.jdk.CollectionConverters._

import org.apache.hadoop.fs.Path
import org.apache.spark.sql.Row
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}
import sparkdrill.stream.StreamEngine
import sparkdrill.stream.state.StreamStateFixtures._

class StateSourceSuite extends AnyFunSuite with TestFiles with LocalSpark {
  private def checkpoint: String = "file:" + root.resolve("checkpoint")

  private def expected(f: TrackedFile, committed: Boolean): Row =
    Row(
      StreamState.resolve(inputRoot, f.path),
      f.length,
      new Timestamp(f.modificationTime),
      f.batchId,
      new Timestamp(f.readAtMillis),
      committed
    )

  test("drill-state lists every file the stream read, committed or not, while the stream holds the lease") {
    val outside = TrackedFile("s3a://other/x.csv", 5L, 1000L, 12L, 2000L)
    val state = build(new Path(s"$checkpoint/sources/0/drill"), batches = 12, perBatch = 3, commitUpTo = 10)
    try {
      state.logBatch(12, Seq(outside))
      val df = spark.read.format("drill-state").load(checkpoint)
      assert(df.schema == StateTable.schema)
      assert(
        df.schema.fieldNames.toSeq.drop(6) ==
          Seq("discovery_time", "commit_time", "archive_time", "archive_mode", "archive_path")
      )
      val all = df.orderBy("batchId", "path").collect().toSeq
      val rows = all.map(r => Row(r.toSeq.take(6): _*))
      val want = (0 until 12).flatMap(b => files(b.toLong, b * 3, 3).map(expected(_, b <= 10))) :+
        expected(outside, committed = false)
      assert(rows == want.sortBy(r => (r.getLong(3), r.getString(0))))
      assert(rows.head.getString(0).startsWith("file:/data/landing/2026/"))
      // A committed batch has its commit time (the markers', or its tier's), an uncommitted one none; no file
      // was cleaned, and the fixtures' files have no discovery time (as a format 1 state's).
      assert(all.forall(r => r.isNullAt(7) == !r.getBoolean(5)))
      assert(all.forall(r => (6 to 10).filterNot(_ == 7).forall(r.isNullAt)))
      // The source's directory and the state directory work too.
      assert(spark.read.format("drill-state").load(s"$checkpoint/sources/0").count() == 37)
      assert(spark.read.format("drill-state").load(s"$checkpoint/sources/0/drill").count() == 37)
    } finally state.close()
  }

  test("drill-state reads every spark-drill source of a checkpoint") {
    build(new Path(s"$checkpoint/sources/0/drill"), batches = 2, perBatch = 2).close()
    build(new Path(s"$checkpoint/sources/1/drill"), batches = 3, perBatch = 2).close()
    assert(spark.read.format("drill-state").load(checkpoint).count() == 10)
  }

  test("drill-state on a directory without a stream state fails naming where it looked") {
    val e = intercept[IllegalArgumentException](spark.read.format("drill-state").load(checkpoint).collect())
    assert(e.getMessage.contains(s"No spark-drill stream state under $checkpoint"))
    assert(e.getMessage.contains("sources/<n>/drill"))
  }

  // SPEC 11.1's columns after a real stream (the engine, real files) archived them.
  test("drill-state shows each file's discovery, commit and archive time, mode and archive path") {
    def land(rel: String): Unit = {
      write(s"in/$rel" -> "id\n1\n")
      root.resolve(s"in/$rel").toFile.setLastModified(System.currentTimeMillis() - 3600000L)
    }
    land("2026/a.csv")
    land("b.csv")
    val chk = root.resolve("chk").toString
    def run(options: Map[String, String]): Unit = {
      val map = new org.apache.spark.sql.util.CaseInsensitiveStringMap(
        (Map(
          "path" -> root.resolve("in").toString,
          "schemaLocation" -> root.resolve("schemas").toString,
          "header" -> "true",
          "cleanSourceRetention" -> "1s"
        ) ++ options).asJava
      )
      val d =
        StreamTable.open(map, sparkdrill.spark.DrillTable.readOptions(map, spark), defined = None).definition
      val e = new StreamEngine(d, s"$chk/sources/0", StreamTable.streamSession(spark))
      try {
        val start = e.initialBatch()
        val end = e.latestBatch(start, 1000, Long.MaxValue)
        if (end > start) e.commit(end)
        Thread.sleep(1100)
        e.latestBatch(end, 1000, Long.MaxValue)
      } finally e.stop()
    }
    val before = System.currentTimeMillis()
    run(Map("cleanSource" -> "archive", "cleanSourceArchiveDir" -> root.resolve("archive").toString))
    assert(Files.exists(root.resolve("archive/2026/a.csv")))
    val rows = spark.read.format("drill-state").load(chk).orderBy("path").collect().toSeq
    assert(rows.size == 2)
    rows.foreach { r =>
      val discovery = r.getAs[Timestamp]("discovery_time").getTime
      val committed = r.getAs[Timestamp]("commit_time").getTime
      val archived = r.getAs[Timestamp]("archive_time").getTime
      assert(before <= discovery && discovery <= committed && committed + 1000 <= archived, r)
      assert(r.getAs[String]("archive_mode") == "archive")
    }
    assert(
      rows.map(_.getAs[String]("archive_path")) ==
        Seq("file:" + root.resolve("archive/2026/a.csv"), "file:" + root.resolve("archive/b.csv"))
    )
  }
}
