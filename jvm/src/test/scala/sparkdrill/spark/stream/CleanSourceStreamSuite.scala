package sparkdrill.spark.stream

import java.nio.file.Files

import org.apache.spark.sql.streaming.Trigger
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}

/** `cleanSource` under Spark's own micro-batch execution (SPEC 11.1): Spark calls the source's commit and each
  * trigger's latestOffset, and files move once their batch committed and the retention passed.
  */
class CleanSourceStreamSuite extends AnyFunSuite with TestFiles with LocalSpark {
  private def land(rel: String, text: String): Unit = {
    write(s"in/$rel" -> text)
    root.resolve(s"in/$rel").toFile.setLastModified(System.currentTimeMillis() - 3600000L)
  }

  private def eventually(what: String, seconds: Int = 60)(condition: => Boolean): Unit = {
    val deadline = System.currentTimeMillis() + seconds * 1000L
    while (!condition) {
      if (System.currentTimeMillis() > deadline) fail(s"not within $seconds s: $what")
      Thread.sleep(100)
    }
  }

  test("a running query archives each file a second after its micro-batch committed, keeping its path") {
    land("2026/a.csv", "id\n1\n")
    val chk = root.resolve("chk").toString
    val df = spark.readStream
      .format("drill")
      .option("header", "true")
      .option("schemaLocation", root.resolve("schemas").toString)
      .option("cleanSource", "archive")
      .option("cleanSourceArchiveDir", root.resolve("archive").toString)
      .option("cleanSourceRetention", "1s")
      .load(root.resolve("in").toString)
    val q = df.writeStream
      .format("parquet")
      .option("checkpointLocation", chk)
      .trigger(Trigger.ProcessingTime(200))
      .start(root.resolve("out").toString)
    try {
      eventually("batch 0 read")(q.lastProgress != null && q.lastProgress.numInputRows > 0)
      // Read, not yet committed for a second: still in place.
      assert(Files.exists(root.resolve("in/2026/a.csv")))
      land("2026/b.csv", "id\n2\n")
      eventually("a.csv archived")(Files.exists(root.resolve("archive/2026/a.csv")))
      assert(!Files.exists(root.resolve("in/2026/a.csv")))
      eventually("b.csv archived")(Files.exists(root.resolve("archive/2026/b.csv")))
      eventually("counted") {
        val p = q.recentProgress.flatMap(_.sources.map(_.metrics.get("numFilesArchived"))).map(_.toInt)
        p.nonEmpty && p.max == 2
      }
    } finally q.stop()
    assert(spark.read.parquet(root.resolve("out").toString).count() == 2)
    val state = spark.read.format("drill-state").load(chk).orderBy("path").collect().toSeq
    assert(state.map(_.getAs[String]("archive_mode")) == Seq("archive", "archive"))
  }
}
