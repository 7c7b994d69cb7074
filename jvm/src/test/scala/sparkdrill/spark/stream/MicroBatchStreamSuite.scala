package sparkdrill.spark.stream

import sparkdrill.stream._

import java.nio.file.{Files, Path => JPath}

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.connector.read.InputPartition
import org.apache.spark.sql.connector.read.streaming.ReadLimit
import org.apache.spark.sql.types.{IntegerType, StringType, StructField, StructType}
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}
import sparkdrill.spark.DrillTable
import sparkdrill.stream.schema.SchemaVersions
import sparkdrill.reader.ScanException

/** The source as Spark drives it, one call at a time, on a real local Spark: what a crash between two calls
  * leaves (a batch logged but not in Spark's offset log, a file deleted between listing and reading), and a
  * projection pushed into a stream, which Spark itself never does yet.
  */
class MicroBatchStreamSuite extends AnyFunSuite with TestFiles with LocalSpark {
  private def definition(options: (String, String)*): StreamDefinition = {
    val all =
      Map(
        "path" -> root.resolve("in").toString,
        "schemaLocation" -> root.resolve("schemas").toString,
        "header" -> "true"
      ) ++ options
    val map = new CaseInsensitiveStringMap(all.asJava)
    StreamTable.open(map, DrillTable.readOptions(map, spark), defined = None).definition
  }

  private def source(d: StreamDefinition, required: StructType = null): DrillMicroBatchStream =
    new DrillMicroBatchStream(d, Option(required).getOrElse(d.schema), root.resolve("chk/sources/0").toString)

  // Reads a micro-batch's partitions as Spark's executors would, on this thread.
  private def rows(
      s: DrillMicroBatchStream,
      from: Long,
      to: Long,
      factoryFirst: Boolean = false
  ): Seq[Seq[Any]] = {
    val early = if (factoryFirst) Some(s.createReaderFactory()) else None
    val parts: Array[InputPartition] = s.planInputPartitions(StreamOffset(from), StreamOffset(to))
    val factory = early.getOrElse(s.createReaderFactory())
    parts.toSeq.flatMap { p =>
      val reader = factory.createColumnarReader(p)
      try {
        val out = Seq.newBuilder[Seq[Any]]
        while (reader.next()) {
          val batch = reader.get()
          batch.rowIterator().asScala.foreach { r =>
            out += (0 until batch.numCols()).map { i =>
              if (r.isNullAt(i)) null
              else
                batch.column(i).dataType() match {
                  case IntegerType => r.getInt(i)
                  case StringType => r.getUTF8String(i).toString
                  case _ => r.get(i, batch.column(i).dataType())
                }
            }
          }
        }
        out.result()
      } finally reader.close()
    }
  }

  private def file(rel: String, text: String, ageMillis: Long = 3600000L): JPath = {
    write(rel -> text)
    val p = root.resolve(rel)
    Files.setLastModifiedTime(
      p,
      java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - ageMillis)
    )
    p
  }

  private val all: ReadLimit = ReadLimit.allAvailable()

  test("a batch logged but never in Spark's offset log is the next batch after a restart, with its files") {
    file("in/a.csv", "id\n1\n")
    val d = definition()
    val first = source(d)
    assert(first.latestOffset(first.initialOffset(), all) == StreamOffset(0))
    first.stop() // a crash before Spark wrote offsets/0
    file("in/b.csv", "id\n2\n")
    val second = source(d)
    // Spark asks again from its last offset: the logged batch comes back as it was, b.csv waits for the next.
    assert(second.latestOffset(second.initialOffset(), all) == StreamOffset(0))
    assert(rows(second, -1, 0) == Seq(Seq("1")))
    second.commit(StreamOffset(0))
    assert(second.latestOffset(StreamOffset(0), all) == StreamOffset(1))
    assert(rows(second, 0, 1) == Seq(Seq("2")))
    second.stop()
  }

  test("the reader factory is made once per query: asked for before planning, it reads each micro-batch") {
    file("in/d=1/a.csv", "id\n1\n")
    val d = definition("partitionStyle" -> "hive")
    val s = source(d)
    assert(s.createReaderFactory() eq s.createReaderFactory())
    s.latestOffset(s.initialOffset(), all)
    assert(rows(s, -1, 0, factoryFirst = true) == Seq(Seq("1", "1")))
    s.commit(StreamOffset(0))
    file("in/d=2/b.csv", "id\n2\n")
    assert(s.latestOffset(StreamOffset(0), all) == StreamOffset(1))
    assert(rows(s, 0, 1, factoryFirst = true) == Seq(Seq("2", "2")))
    s.stop()
  }

  test("planning a micro-batch is a pure function of the log: a replay reads the same files") {
    file("in/a.csv", "id\n1\n")
    val d = definition()
    val s = source(d)
    s.latestOffset(s.initialOffset(), all)
    file("in/c.csv", "id\n3\n") // listed by no trigger yet: not in batch 0
    val once = rows(s, -1, 0)
    s.stop()
    val again = source(d)
    assert(rows(again, -1, 0) == once)
    assert(once == Seq(Seq("1")))
    again.stop()
  }

  test(
    "a file deleted between listing and reading: skipped under ignoreMissingFiles, else an error naming it"
  ) {
    file("in/a.csv", "id\n1\n")
    val d = definition()
    file("in/gone.csv", "id\n2\n")
    val s = source(d)
    s.latestOffset(s.initialOffset(), all)
    Files.delete(root.resolve("in/gone.csv"))
    val e = intercept[ScanException](rows(s, -1, 0))
    assert(e.getMessage.contains("gone.csv"), e.getMessage)
    s.stop()

    val lenient = source(definition("ignoreMissingFiles" -> "true"))
    assert(rows(lenient, -1, 0) == Seq(Seq("1")))
    lenient.stop()
  }

  test("if a Spark pushes the columns it needs into a stream, only those are read") {
    file("in/x/a.csv", "id,name\n1,ann\n")
    val d = definition()
    assert(d.schema.fieldNames.toSeq == Seq("id", "name", "dir0"))
    val builder = new StreamScanBuilder(d)
    builder.pruneColumns(StructType(Seq(StructField("dir0", StringType), StructField("id", StringType))))
    val scan = builder.build()
    assert(scan.readSchema().fieldNames.toSeq == Seq("dir0", "id"))
    val s =
      scan.toMicroBatchStream(root.resolve("chk/sources/0").toString).asInstanceOf[DrillMicroBatchStream]
    s.latestOffset(s.initialOffset(), all)
    assert(rows(s, -1, 0) == Seq(Seq("x", "1")))
    s.stop()

    // Spark's own path today: no pruning, the stream's whole schema.
    val whole = new StreamScanBuilder(d).build()
    assert(whole.readSchema() == d.schema)
  }

  test("version 0 keeps whether the input binds by position; a restart reads it there, listing nothing") {
    // JSON files, headerless CSV's options: the files there decide (not positional), as in a batch read.
    file("in/a.json", "{\"id\": 1}\n")
    val first = definition("header" -> "false")
    assert(!first.byPosition)
    assert(SchemaVersions.newest(root.resolve("schemas").toString, first.conf).get.byPosition.contains(false))
    // With the input emptied, a listing would find no file and fall back on the options (headerless CSV is
    // positional): the version decides instead.
    Files.delete(root.resolve("in/a.json"))
    assert(!definition("header" -> "false").byPosition)
  }

  test("a second stream on the same checkpoint fails at start") {
    file("in/a.csv", "id\n1\n")
    val d = definition()
    val s = source(d)
    val e = intercept[IllegalStateException](source(d))
    assert(e.getMessage.contains("lease"), e.getMessage)
    s.stop()
    source(d).stop() // released by stop()
  }

  test("admission: oldest first then by path, files and bytes, at least one file") {
    import sparkdrill.scan.ScanFile
    def f(name: String, time: Long, length: Long) =
      ScanFile(s"file:/in/$name", length, time, Array.empty, "csv")
    val files = Seq(f("c", 2, 10), f("a", 2, 10), f("b", 1, 10), f("d", 3, 100))
    def names(s: Seq[ScanFile]) = s.map(_.path.stripPrefix("file:/in/"))
    assert(names(StreamFiles.admit(files, 2, Long.MaxValue)._1) == Seq("b", "a"))
    assert(names(StreamFiles.admit(files, 10, 25)._1) == Seq("b", "a"))
    assert(names(StreamFiles.admit(files, 10, 30)._1) == Seq("b", "a", "c"))
    assert(names(StreamFiles.admit(Seq(f("d", 3, 100)), 10, 5)._1) == Seq("d"))
    val (taken, rest) = StreamFiles.admit(files, 3, Long.MaxValue)
    assert(names(taken) == Seq("b", "a", "c") && names(rest) == Seq("d"))
  }

  test("offsets are a batch number in a few bytes, and another source's offset is refused") {
    assert(StreamOffset(41).json() == """{"batch":41}""")
    assert(StreamOffset.parse("""{"batch":41}""") == StreamOffset(41))
    assert(StreamOffset.parse("""{"batch":-1,"outstandingFiles":3}""") == StreamOffset(-1))
    intercept[IllegalArgumentException](StreamOffset.parse("""{"logOffset":3}"""))
  }
}
