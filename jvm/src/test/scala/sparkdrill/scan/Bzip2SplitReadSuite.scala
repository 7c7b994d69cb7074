package sparkdrill.scan

import java.nio.file.Files

import scala.collection.mutable.ArrayBuffer
import scala.util.Random

import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream
import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.LongType
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.reader.ScanException

/** A bzip2 file read in byte ranges (by compression block) gives exactly the rows of a whole read, or fails
  * with an error that says so when a quoted line end sits where a block begins: never different rows.
  */
class Bzip2SplitReadSuite extends AnyFunSuite with TestFiles {
  private val conf = new Configuration()

  private def randomCsv(rng: Random, bytes: Int, quotedNewlines: Int): String = {
    val sb = new StringBuilder("id,text,n\n")
    var i = 0
    while (sb.length < bytes) {
      val text = rng.nextInt(8) match {
        case 0 => "\"a, quoted \"\"one\"\"\""
        case k if k < quotedNewlines => "\"two\nlines\""
        case 2 => ""
        case _ => rng.alphanumeric.take(rng.nextInt(30)).mkString
      }
      sb.append(s"$i,$text,${rng.nextInt(1000)}")
      if (rng.nextInt(10) == 0) sb.append("\n") // blank lines are skipped
      sb.append(if (rng.nextBoolean()) "\n" else "\r\n")
      i += 1
    }
    sb.toString
  }

  // 100 kB blocks (bzip2 -1), so a few hundred kB of text has several blocks.
  private def writeBzip2(name: String, text: String): Unit = {
    val out = new BZip2CompressorOutputStream(Files.newOutputStream(root.resolve(name)), 1)
    try out.write(text.getBytes("UTF-8"))
    finally out.close()
  }

  private def plan(): TableScan =
    ScanTestKit.open(Seq(root.toString), Seq("header" -> "true"))

  private def read(p: TableScan, tasks: Seq[FileTask]): Seq[Seq[String]] = {
    val out = ArrayBuffer.empty[Seq[String]]
    tasks.foreach { t =>
      val lifecycle = new ScanLifecycle(ScanTestKit.query(p, p.schema).spec, Array(t), conf)
      try
        while (lifecycle.next()) {
          val b = lifecycle.batch
          for (r <- 0 until b.numRows)
            out += (0 until b.numCols)
              .map(c => if (b.column(c).isNullAt(r)) null else b.column(c).getUTF8String(r).toString)
        }
      finally lifecycle.close()
    }
    out.toSeq
  }

  private def ranges(p: TableScan, size: Long): Seq[FileTask] = {
    val file = p.files.head
    (0L until file.length by size).map { start =>
      val end = math.min(start + size, file.length)
      FileTask(file, start, if (end == file.length) Long.MaxValue else end, Some(p.fileSchemas.head))
    }
  }

  test("ranges of every size give the rows of a whole read") {
    val rng = new Random(3)
    for (round <- 0 until 3) {
      writeBzip2("f.csv.bz2", randomCsv(rng, 450000 + rng.nextInt(200000), quotedNewlines = 0))
      val p = plan()
      val whole = read(p, Seq(FileTask(p.files.head, 0L, Long.MaxValue, None)))
      val length = p.files.head.length
      assert(whole.size > 10000)
      for (size <- Seq(7919L, length / 5, length / 3 + rng.nextInt(1000), length / 2, length - 1)) {
        val tasks = ranges(p, size)
        assert(read(p, tasks) == whole, s"round $round, range size $size of $length")
        // The rows really come from several ranges, each reading its own blocks.
        if (size <= length / 2) assert(tasks.count(t => read(p, Seq(t)).nonEmpty) > 1, s"range size $size")
      }
    }
  }

  test("a quoted line end where a block begins fails the read instead of changing rows") {
    val rng = new Random(11)
    var failures = 0
    var agreements = 0
    for (_ <- 0 until 6) {
      writeBzip2("f.csv.bz2", randomCsv(rng, 500000, quotedNewlines = 7))
      val p = plan()
      val whole = read(p, Seq(FileTask(p.files.head, 0L, Long.MaxValue, None)))
      try {
        assert(read(p, ranges(p, p.files.head.length / 4)) == whole)
        agreements += 1
      } catch {
        case e: ScanException =>
          assert(e.getMessage.contains("bzip2 file was split") && e.getMessage.contains("multiLine=true"))
          assert(!e.getMessage.contains(", line "), "a bzip2 range cannot name the file's line")
          failures += 1
      }
    }
    assert(
      failures > 0 && agreements > 0,
      s"both outcomes occur ($failures failures, $agreements agreements)"
    )
  }

  test("a range cannot give _line, so asking for it there is refused") {
    writeBzip2("f.csv.bz2", randomCsv(new Random(5), 300000, quotedNewlines = 0))
    val p = plan()
    val line = ScanTestKit.metadataField("_line", LongType)
    val spec = ScanTestKit.query(p, p.schema.add(line)).spec
    assert(spec.readsRecordPositions)
    val task = ranges(p, p.files.head.length / 2).last
    val e = intercept[Exception](new ScanLifecycle(spec, Array(task), conf).next())
    assert(e.getMessage.contains("_line and _offset cannot be read from a range of a bzip2 file"))
  }
}
