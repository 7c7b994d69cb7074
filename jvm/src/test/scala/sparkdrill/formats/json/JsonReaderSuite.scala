package sparkdrill.formats.json

import java.io.ByteArrayInputStream
import java.nio.charset.StandardCharsets.UTF_8

import scala.collection.mutable.ArrayBuffer
import scala.util.Random

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters
import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.reader.ScanException
import sparkdrill.scan.{ScanLifecycle, ScanTestKit, TableScan}

class JsonReaderSuite extends AnyFunSuite with TestFiles {
  private val conf = new Configuration()

  private def plan(options: (String, String)*): TableScan =
    ScanTestKit.open(Seq(root.toString), Seq(options: _*))

  /** Every row of a whole read, as Scala values (structs as Seqs), with the batch sizes. */
  private def read(p: TableScan): (Seq[Seq[Any]], Seq[Int]) = {
    val spec = ScanTestKit.query(p, p.schema).spec
    val lifecycle =
      new ScanLifecycle(spec, ScanTestKit.query(p, p.schema).tasks.flatten, conf)
    val rows = ArrayBuffer.empty[Seq[Any]]
    val sizes = ArrayBuffer.empty[Int]
    try
      while (lifecycle.next()) {
        val b = lifecycle.batch
        sizes += b.numRows
        for (r <- 0 until b.numRows) {
          val row = b.getRow(r)
          rows += spec.outputSchema.fields.indices.map(i => value(row, i, spec.outputSchema(i).dataType))
        }
      }
    finally lifecycle.close()
    (rows.toSeq, sizes.toSeq)
  }

  /** The schema and rows of one file under `root`, read alone. */
  private def readFile(name: String, options: (String, String)*): (String, Seq[Seq[Any]]) = {
    val p = ScanTestKit.open(Seq(root.resolve(name).toString), options)
    (p.schema.simpleString, read(p)._1)
  }

  private def value(g: SpecializedGetters, i: Int, t: DataType): Any = RowValues.value(g, i, t)

  test("random nested records survive many small batches and overflow, in order") {
    val rng = new Random(99)
    val expected = (0 until 3000).map { i =>
      val tags = Seq.fill(rng.nextInt(4))("t" * rng.nextInt(30))
      val grid = Seq.fill(rng.nextInt(3))(Seq.fill(rng.nextInt(4))(rng.nextInt(100).toLong))
      val items = Seq.fill(rng.nextInt(3))((s"k$i", Seq.fill(rng.nextInt(3))(rng.nextLong())))
      (i.toLong, tags, grid, items)
    }
    def js(s: String) = "\"" + s + "\""
    val text = expected.map { case (id, tags, grid, items) =>
      val itemJson = items.map { case (k, v) => s"""{"k": ${js(k)}, "v": [${v.mkString(",")}]}""" }
      s"""{"id": $id, "tags": [${tags.map(js).mkString(",")}], "grid": [${grid
          .map(_.mkString("[", ",", "]"))
          .mkString(",")}], "items": [${itemJson.mkString(",")}]}"""
    }
    write(
      "r.json" -> ("""{"id": -1, "tags": ["x"], "grid": [[1]], "items": [{"k": "a", "v": [1]}]}""" +
        "\n" + text.mkString("\n"))
    )
    val p = plan("batchRows" -> "64", "batchBytes" -> "2048")
    assert(
      p.schema.simpleString ==
        "struct<id:bigint,tags:array<string>,grid:array<array<bigint>>,items:array<struct<k:string,v:array<bigint>>>>"
    )
    val (rows, sizes) = read(p)
    assert(sizes.size > 3000 / 64 && sizes.forall(_ <= 64))
    assert(rows.size == 3001)
    rows.tail.zip(expected).foreach { case (row, (id, tags, grid, items)) =>
      assert(row == Seq(id, tags, grid, items.map { case (k, v) => Seq(k, v) }), s"record $id")
    }
  }

  test(
    "members in any order, escaped, repeated, missing or unknown go to their columns (the expected order)"
  ) {
    // Each record changes the order the one before had, so every path of the in-place name match runs:
    // the expected name, another known one, an escaped spelling, a duplicate (the last wins), a missing one,
    // a name the schema lacks, and a struct whose members move.
    write(
      "o.json" -> Seq(
        """{"a": 1, "b": "x", "s": {"p": 1, "q": 2}}""",
        """{"a": 2, "b": "y", "s": {"p": 3, "q": 4}}""",
        """{"b": "z", "a": 3, "s": {"q": 6, "p": 5}}""",
        "{\"\\u0061\": 4, \"b\": \"w\", \"s\": {\"p\": 7}}", // "a", escaped
        """{"a": 5, "a": 6, "extra": [1, {"a": 0}], "b": "v"}""",
        """{"s": {"q": 8, "p": 9, "q": 10}, "b": "u"}""",
        """{}""",
        """{"a": 7, "b": "t", "s": {"p": 11, "q": 12}}"""
      ).mkString("\n")
    )
    // The provided schema comes first; the columns discovery adds (`extra`) follow it.
    val p = plan("providedSchema" -> "a BIGINT, b STRING, s STRUCT<p: BIGINT, q: BIGINT>")
    assert(
      read(p)._1.map(_.take(3)) == Seq(
        Seq(1L, "x", Seq(1L, 2L)),
        Seq(2L, "y", Seq(3L, 4L)),
        Seq(3L, "z", Seq(5L, 6L)),
        Seq(4L, "w", Seq(7L, null)),
        Seq(6L, "v", null),
        Seq(null, "u", Seq(9L, 10L)),
        Seq(null, null, null),
        Seq(7L, "t", Seq(11L, 12L))
      )
    )
  }

  test("an object with more members than the expected order keeps is read whole") {
    val keys = (0 until 1500).map(i => s"k$i")
    val record = keys.zipWithIndex.map { case (k, i) => s""""$k": $i""" }.mkString("{", ", ", "}")
    write("wide.json" -> Seq(record, record.replace("\"k0\": 0", "\"k0\": -1")).mkString("\n"))
    val rows = read(plan("providedSchema" -> "k0 BIGINT, k1024 BIGINT, k1499 BIGINT"))._1
    assert(rows.map(_.size) == Seq(1500, 1500))
    assert(rows.map(_.take(3)) == Seq(Seq(0L, 1024L, 1499L), Seq(-1L, 1024L, 1499L)))
  }

  test("discovery: the schema of the first sampleRows records, nulls untyped until a value comes") {
    write(
      "s.json" -> "{\"a\": null, \"b\": [], \"C\": 1}\n{\"a\": 1, \"c\": 2.5}\n{\"a\": \"x\", \"b\": [true]}\n"
    )
    val sampled = plan("sampleRows" -> "2").fileSchemas.head
    assert(sampled.simpleString == "struct<a:bigint,b:array<void>,C:double>")
    assert(plan().fileSchemas.head.simpleString == "struct<a:string,b:array<boolean>,C:double>")
  }

  test("the tape finds the next line that starts like a record, keeping what it needs to quote") {
    val text = "{\"a\": 1,\n  \"b\": \n  [\n{\"a\": 2}\n"
    val tape = new RecordTape(new ByteArrayInputStream(text.getBytes(UTF_8)), 1 << 20, _ => fail("limit"))
    val buf = new Array[Byte](4)
    assert(tape.read(buf, 0, 4) == 4)
    val restart = tape.nextRecordLine(0L)
    assert(restart == text.indexOf("{\"a\": 2}").toLong)
    assert(new String(tape.slice(0L, restart), UTF_8) == "{\"a\": 1,\n  \"b\": \n  [\n")
    tape.restartAt(restart)
    assert(tape.position == restart)
    val rest = new String(tape.readAllBytes(), UTF_8)
    assert(rest == "{\"a\": 2}\n")
  }

  test("top-level values that are not objects are rows of the column value, typed by widening") {
    write(
      "lines.json" -> "1\n2\n",
      "string.json" -> "\"a\"\n",
      "nulls.json" -> "null\n3\n",
      "root.json" -> "[4, \"hello\"]",
      "fractions.json" -> "[1, 2.5]\n",
      "pretty.json" -> "[\n  [1, 2],\n  [3]\n]\n",
      "arrays.json" -> "[1, 2]\n[3]\n",
      "first.json" -> "5\n[6]\n"
    )
    assert(readFile("lines.json") == ("struct<value:bigint>", Seq(Seq(1L), Seq(2L))))
    assert(readFile("string.json") == ("struct<value:string>", Seq(Seq("a"))))
    assert(readFile("nulls.json") == ("struct<value:bigint>", Seq(Seq(null), Seq(3L))))
    // A file that is one array of scalars: its elements are the records.
    assert(readFile("root.json") == ("struct<value:string>", Seq(Seq("4"), Seq("hello"))))
    assert(readFile("fractions.json") == ("struct<value:double>", Seq(Seq(1.0), Seq(2.5))))
    assert(readFile("pretty.json") == ("struct<value:array<bigint>>", Seq(Seq(Seq(1L, 2L)), Seq(Seq(3L)))))
    // A stream of arrays, or arrays after a first value that is not one: each array is a record.
    assert(readFile("arrays.json") == ("struct<value:array<bigint>>", Seq(Seq(Seq(1L, 2L)), Seq(Seq(3L)))))
    assert(readFile("first.json") == ("struct<value:array<bigint>>", Seq(Seq(Seq(5L)), Seq(Seq(6L)))))
  }

  test("objects and other values in one file: keys to their columns, the rest to value") {
    write(
      "mixed.json" -> "{\"a\": 1}\n5\n{\"a\": 2}\n7\n",
      "key.json" -> "{\"Value\": 1}\n2\n",
      "array.json" -> "[{\"a\": 1}, 2, {\"a\": 3}]\n[4]\n"
    )
    assert(
      readFile("mixed.json") ==
        ("struct<a:bigint,value:bigint>", Seq(Seq(1L, null), Seq(null, 5L), Seq(2L, null), Seq(null, 7L)))
    )
    assert(readFile("key.json") == ("struct<Value:bigint>", Seq(Seq(1L), Seq(2L))))
    // A first array that starts with an object is a root array, and so is every later top-level array.
    assert(
      readFile("array.json") ==
        ("struct<a:bigint,value:bigint>", Seq(Seq(1L, null), Seq(null, 2L), Seq(3L, null), Seq(null, 4L)))
    )
  }

  test("a broken top-level value is one malformed record; reading goes on at the next line") {
    write("b.json" -> "1\n2x\n3\n")
    assert(
      readFile("b.json", "columnNameOfCorruptRecord" -> "_corrupt") ==
        ("struct<value:bigint,_corrupt:string>", Seq(Seq(1L, null), Seq(null, "2x"), Seq(3L, null)))
    )
    assert(readFile("b.json", "mode" -> "DROPMALFORMED")._2 == Seq(Seq(1L), Seq(3L)))
    val e = intercept[ScanException](readFile("b.json", "mode" -> "FAILFAST"))
    assert(e.line == 2L && e.offset == 2L, e.getMessage)
  }

  test("a record longer than maxRecordBytes fails in every mode, at discovery and at read, naming it") {
    val big = "{\"id\": 2, \"a\": [" + Seq.fill(3000)("12345").mkString(", ") + "]}"
    write("big.json" -> ("{\"id\": 1, \"a\": [1]}\n" + big + "\n{\"id\": 3, \"a\": []}\n"))
    val offset = big.length.toLong // not: the record starts after the first line
    for (mode <- Seq("PERMISSIVE", "DROPMALFORMED", "FAILFAST")) {
      val atLoad = intercept[ScanException](readFile("big.json", "mode" -> mode, "maxRecordBytes" -> "10000"))
      assert(atLoad.path.endsWith("big.json") && atLoad.line == 2, atLoad.getMessage)
      assert(atLoad.offset == "{\"id\": 1, \"a\": [1]}\n".length, atLoad.getMessage)
      assert(atLoad.getMessage.contains("a JSON record is larger than maxRecordBytes (10000 bytes)"))
      assert(atLoad.getMessage.contains("raise maxRecordBytes to read it"), atLoad.getMessage)
      assert(offset > 10000)
      // Past discovery (planned with a larger limit): the read fails the same way.
      val planned = ScanTestKit.open(Seq(root.resolve("big.json").toString), Seq("mode" -> mode))
      val limited = TableScan.parseOptions(Map("mode" -> mode, "maxRecordBytes" -> "10000"))
      val query = ScanTestKit.query(planned, planned.schema)
      val spec = query.spec.copy(options = limited)
      val atRead =
        intercept[ScanException](ScanTestKit.firstColumn(new ScanLifecycle(spec, query.tasks.flatten, conf)))
      assert(atRead.line == 2 && atRead.getMessage.contains("larger than maxRecordBytes"), atRead.getMessage)
    }
    val (_, rows) = readFile("big.json", "maxRecordBytes" -> "100000")
    assert(rows.map(_.head) == Seq(1L, 2L, 3L) && rows(1)(1).asInstanceOf[Seq[_]].size == 3000)
  }

  test("an error keeps a bounded part of a huge value: it travels from executor to driver") {
    val huge = "{\"a\": " + "[" * 10 + "\"" + "x" * 300000 + "\" oops\n"
    write("huge.json" -> huge)
    val e = intercept[ScanException](readFile("huge.json", "mode" -> "FAILFAST"))
    assert(e.value.get.length == ScanException.MaxKeptChars)
    assert(e.getMessage.contains(s"(${huge.trim.length} chars)"), e.getMessage.take(400))
  }

  test("validate=all converts unread struct, array and map columns too: count(*) agrees with * (fuzzing)") {
    write(
      "v.json" -> "{\"a\": {\"c\": 1}, \"m\": {\"k\": 1}}\n{\"a\": 5}\n{\"a\": {\"c\": \"x\"}}\n{\"m\": 3}\n"
    )
    val defined = Some(StructType.fromDDL("a STRUCT<c: BIGINT>, m MAP<STRING, BIGINT>"))
    def rows(validate: String, required: StructType => StructType): Int = {
      val options = Seq("mode" -> "DROPMALFORMED", "validate" -> validate)
      val p = ScanTestKit.open(Seq(root.resolve("v.json").toString), options, definedSchema = defined)
      val l = ScanTestKit.lifecycle(ScanTestKit.query(p, required(p.schema)))
      var n = 0
      try while (l.next()) n += l.batch.numRows
      finally l.close()
      n
    }
    assert(rows("all", identity) == 1)
    assert(rows("all", _ => new StructType()) == 1, "count(*) drops the same records")
    assert(rows("projected", _ => new StructType()) == 4, "without validate=all, count(*) converts nothing")
  }
}
