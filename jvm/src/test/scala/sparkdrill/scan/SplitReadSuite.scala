package sparkdrill.scan

import scala.collection.mutable.ArrayBuffer
import scala.util.Random

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.reader.ScanException
import sparkdrill.tags.Slow

/** A file read in byte-range splits gives exactly the rows of a whole read, or (when a quoted line end sits
  * on a split boundary) fails with an error that says so: never different rows.
  */
@Slow
class SplitReadSuite extends AnyFunSuite with TestFiles {
  private val conf = new Configuration()

  private def randomCsv(rng: Random, rows: Int, quotedNewlines: Boolean): String = {
    val sb = new StringBuilder("id,text,n\n")
    for (i <- 0 until rows) {
      val text = rng.nextInt(6) match {
        case 0 => "\"a, quoted \"\"one\"\"\""
        case 1 if quotedNewlines => "\"two\nlines\""
        case 2 => ""
        case _ => rng.alphanumeric.take(rng.nextInt(12)).mkString
      }
      sb.append(s"$i,$text,${rng.nextInt(1000)}")
      if (rng.nextInt(10) == 0) sb.append("\n") // blank lines are skipped
      sb.append(if (rng.nextBoolean()) "\n" else "\r\n")
    }
    sb.toString
  }

  private def read(p: TableScan, tasks: Seq[FileTask], withLines: Boolean): Seq[Seq[Any]] = {
    val required = if (withLines) p.schema.add(lineField) else p.schema
    val out = ArrayBuffer.empty[Seq[Any]]
    tasks.foreach { t =>
      val lifecycle = new ScanLifecycle(ScanTestKit.query(p, required).spec, Array(t), conf)
      try
        while (lifecycle.next()) {
          val b = lifecycle.batch
          for (r <- 0 until b.numRows)
            out += (0 until b.numCols).map { c =>
              val v = b.column(c)
              if (v.isNullAt(r)) null
              else if (required.fields(c).dataType == org.apache.spark.sql.types.LongType) v.getLong(r)
              else v.getUTF8String(r).toString
            }
        }
      finally lifecycle.close()
    }
    out.toSeq
  }

  private val lineField = org.apache.spark.sql.types
    .StructField(
      "_line",
      org.apache.spark.sql.types.LongType,
      nullable = true,
      new org.apache.spark.sql.types.MetadataBuilder()
        .putString(sparkdrill.projection.SparkProjection.MetadataColumnKey, "_line")
        .build()
    )

  private def splits(p: TableScan, size: Long): Seq[FileTask] = {
    val file = p.files.head
    (0L until file.length by size).map { start =>
      val end = math.min(start + size, file.length)
      FileTask(file, start, if (end == file.length) Long.MaxValue else end, Some(p.fileSchemas.head))
    }
  }

  private def plan(): TableScan =
    ScanTestKit.open(Seq(root.toString), Seq("header" -> "true"))

  test("splits of every size give the rows and line numbers of a whole read") {
    val rng = new Random(42)
    for (round <- 0 until 20) {
      write("f.csv" -> randomCsv(rng, 30 + rng.nextInt(60), quotedNewlines = false))
      val p = plan()
      val whole = read(p, Seq(FileTask(p.files.head, 0L, Long.MaxValue, None)), withLines = true)
      for (size <- Seq(1L, 2L, 7L, 13L, 50L, 64L + rng.nextInt(200)))
        assert(read(p, splits(p, size), withLines = true) == whole, s"round $round, split size $size")
    }
  }

  test("a quoted line end on a split boundary fails the read instead of changing rows") {
    val rng = new Random(7)
    var failures = 0
    var agreements = 0
    for (_ <- 0 until 20) {
      write("f.csv" -> randomCsv(rng, 40, quotedNewlines = true))
      val p = plan()
      val whole = read(p, Seq(FileTask(p.files.head, 0L, Long.MaxValue, None)), withLines = false)
      for (size <- Seq(3L, 11L, 29L, 97L))
        try {
          assert(read(p, splits(p, size), withLines = false) == whole)
          agreements += 1
        } catch {
          case e: ScanException =>
            assert(e.getMessage.contains("multiLine=true"), e.getMessage)
            failures += 1
        }
    }
    assert(
      failures > 0 && agreements > 0,
      s"both outcomes occur ($failures failures, $agreements agreements)"
    )
  }

  test("multiLine=true keeps a file whole") {
    write("f.csv" -> "a\n\"x\ny\"\n")
    val p = ScanTestKit.open(Seq(root.toString), Seq("header" -> "true", "multiLine" -> "true"))
    val tasks = p.plan(p.schema, Nil, Long.MaxValue, SplitPlanner.Settings(2, 0, 1)).tasks
    assert(tasks.flatten.toSeq.map(t => (t.file, t.start, t.end)) == Seq((p.files.head, 0L, Long.MaxValue)))
    val split = ScanTestKit.open(Seq(root.toString), Seq("header" -> "true"))
    assert(
      split.plan(split.schema, Nil, Long.MaxValue, SplitPlanner.Settings(2, 0, 1)).tasks.flatten.size > 1
    )
  }
}
