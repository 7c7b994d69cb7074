package sparkdrill.spark.stream

import sparkdrill.stream.state._

import java.sql.Timestamp

import org.apache.hadoop.fs.Path
import org.apache.spark.sql.Row
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}
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
      val rows = df.orderBy("batchId", "path").collect().toSeq
      val want = (0 until 12).flatMap(b => files(b.toLong, b * 3, 3).map(expected(_, b <= 10))) :+
        expected(outside, committed = false)
      assert(rows == want.sortBy(r => (r.getLong(3), r.getString(0))))
      assert(rows.head.getString(0).startsWith("file:/data/landing/2026/"))
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
}
