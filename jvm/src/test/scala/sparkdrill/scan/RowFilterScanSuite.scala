package sparkdrill.scan

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.reader.{RowFilter, ScanException}

/** Late materialization through the whole scan (issue 15): with a pushed row filter the CSV and JSON readers
  * judge each record on the filter's columns first and convert (and check) the others only for records that
  * may pass. Spark filters again after the scan, so the rows here are what the readers hand it: every row
  * that passes, and only those whose filter columns it can see.
  */
class RowFilterScanSuite extends AnyFunSuite with TestFiles {
  import RowFilter._
  import RowFilter.Op._

  /** Every row (output columns in order) of a read of the files under `root` with `filter`, and how many
    * records the readers rejected.
    */
  private def read(filter: Option[RowFilter], options: (String, String)*): (Seq[Seq[Any]], Long) = {
    val (rows, filtered, _) = readCounting(filter, options: _*)
    (rows, filtered)
  }

  /** `read`, with the values the readers dropped (keys no column has) as well. */
  private def readCounting(
      filter: Option[RowFilter],
      options: (String, String)*
  ): (Seq[Seq[Any]], Long, Long) = {
    val p = ScanTestKit.open(Seq(root.toString), options)
    val query = p.plan(p.schema, Nil, Long.MaxValue, ScanTestKit.OneTask, filter)
    val schema = query.spec.outputSchema
    val lifecycle = ScanTestKit.lifecycle(query)
    val rows = ArrayBuffer.empty[Seq[Any]]
    try {
      while (lifecycle.next()) {
        val b = lifecycle.batch
        for (r <- 0 until b.numRows) {
          val row = b.getRow(r)
          rows += schema.fields.indices.map(i => value(row, i, schema(i).dataType))
        }
      }
      (rows.toSeq, lifecycle.rowsFiltered, lifecycle.droppedValues)
    } finally lifecycle.close()
  }

  private def rows(filter: RowFilter, options: (String, String)*): Seq[Seq[Any]] =
    read(Some(filter), options: _*)._1

  private def failure(filter: Option[RowFilter], options: (String, String)*): ScanException =
    intercept[ScanException](read(filter, options: _*))

  private def value(g: SpecializedGetters, i: Int, t: DataType): Any =
    if (g.isNullAt(i)) null
    else
      t match {
        case IntegerType | DateType => g.getInt(i)
        case LongType => g.getLong(i)
        case DoubleType => g.getDouble(i)
        case BooleanType => g.getBoolean(i)
        case StringType => g.getUTF8String(i).toString
        case _: ArrayType => g.getArray(i).numElements() // the headerless `columns` array: its size
        case t: StructType =>
          val s = g.getStruct(i, t.size)
          t.fields.indices.map(j => value(s, j, t(j).dataType))
        case other => fail(s"type $other")
      }

  /** A row as a test expects it (no numeric widening between its values). */
  private def r(values: Any*): Seq[Any] = values

  private def utf8(s: String) = UTF8String.fromString(s)

  /** A file's text: one record a line. */
  private def lines(records: String*): String = records.mkString("", "\n", "\n")

  private val typed = Seq("header" -> "true", "providedSchema" -> "id INT, score DOUBLE")

  test("CSV: only the records that may pass come out, every column in its place") {
    write("a.csv" -> "id,score,name\n1,1.5,ann\n5,2.5,bob\n7,3.5,cy\n,4.5,dee\n9,5.5,bea\n")
    val (all, none) = read(None, typed: _*)
    assert(all.size == 5 && none == 0)
    val (kept, rejected) = read(Some(Compare("id", Greater, 2)), typed: _*)
    assert(kept == Seq(r(5, 2.5, "bob"), r(7, 3.5, "cy"), r(9, 5.5, "bea")))
    assert(rejected == 2) // 1, and the null id
    val both = And(Seq(Compare("id", Greater, 2), StartsWith("name", utf8("b"))))
    assert(rows(both, typed: _*) == Seq(r(5, 2.5, "bob"), r(9, 5.5, "bea")))
    val in = rows(In("name", Seq(utf8("cy"), utf8("dee"))), typed: _*)
    assert(in == Seq(r(7, 3.5, "cy"), r(null, 4.5, "dee")))
    assert(rows(IsNull("id"), typed: _*) == Seq(r(null, 4.5, "dee")))
    // Rejected rows between saved ones, across many small batches.
    assert(rows(Compare("id", Greater, 2), typed :+ ("batchRows" -> "1"): _*) == kept)
    val low = rows(Compare("score", LessOrEqual, 2.5), typed :+ ("batchRows" -> "2"): _*)
    assert(low.map(_.head) == Seq(1, 5))
  }

  test("CSV FAILFAST: a bad value in another column of a rejected record is not reported, of a kept one is") {
    write("a.csv" -> "id,score\n1,abc\n5,2.5\n")
    val failFast = typed :+ ("mode" -> "FAILFAST")
    assert(rows(Compare("id", Greater, 2), failFast: _*) == Seq(r(5, 2.5)))
    val kept = failure(Some(Compare("id", Greater, 0)), failFast: _*)
    assert(kept.column.contains("score") && kept.line == 2, kept.getMessage)
    assert(failure(None, failFast: _*).column.contains("score"))
    // validate=all judges every record by every column: the filter is off.
    val all = failure(Some(Compare("id", Greater, 2)), failFast :+ ("validate" -> "all"): _*)
    assert(all.column.contains("score"), all.getMessage)
  }

  test("CSV: a bad value in a filter column follows the mode as before") {
    write("a.csv" -> "id,score\nx,1.5\n5,2.5\n")
    val gt2 = Compare("id", Greater, 2)
    val e = failure(Some(gt2), typed :+ ("mode" -> "FAILFAST"): _*)
    assert(e.column.contains("id") && e.line == 2, e.getMessage)
    assert(rows(gt2, typed :+ ("mode" -> "DROPMALFORMED"): _*) == Seq(r(5, 2.5)))
    // PERMISSIVE: the bad value is null, which the filter then judges.
    assert(rows(gt2, typed: _*) == Seq(r(5, 2.5)))
    assert(rows(IsNull("id"), typed: _*) == Seq(r(null, 1.5)))
  }

  test("CSV DROPMALFORMED and PERMISSIVE with bad values in other columns") {
    write("a.csv" -> "id,score\n1,abc\n5,xyz\n7,2.5\n")
    val gt2 = Compare("id", Greater, 2)
    val (dropped, rejected) = read(Some(gt2), typed :+ ("mode" -> "DROPMALFORMED"): _*)
    assert(dropped == Seq(r(7, 2.5)) && rejected == 1)
    assert(rows(gt2, typed: _*) == Seq(r(5, null), r(7, 2.5)))
  }

  test("CSV: a file lacking the filter column keeps all its rows (the scan fills the column)") {
    write("a.csv" -> "id,name\n1,ann\n5,bob\n", "b.csv" -> "name\ncy\ndee\n")
    val gt2 = Compare("id", Greater, 2)
    val (kept, rejected) = read(Some(gt2), "header" -> "true", "providedSchema" -> "id INT")
    assert(kept == Seq(r(5, "bob"), r(null, "cy"), r(null, "dee")) && rejected == 1)
    val withDefault = rows(gt2, "header" -> "true", "providedSchema" -> "id INT NOT NULL DEFAULT 9")
    assert(withDefault == Seq(r(5, "bob"), r(9, "cy"), r(9, "dee")))
  }

  test("CSV: short rows are judged with their missing fields null") {
    write("a.csv" -> "id,score,name\n5\n1\n7,2.5\n")
    val typedName = Seq("header" -> "true", "providedSchema" -> "id INT, score DOUBLE")
    assert(rows(Compare("id", Greater, 2), typedName: _*) == Seq(r(5, null, null), r(7, 2.5, null)))
    assert(rows(And(Seq(IsNull("name"), Compare("id", Greater, 2))), typedName: _*).size == 2)
    assert(rows(Compare("score", Greater, 0.0), typedName: _*) == Seq(r(7, 2.5, null)))
    assert(rows(IsNull("score"), typedName: _*) == Seq(r(5, null, null), r(1, null, null)))
  }

  test("CSV without a header: fields bound by position are filtered; the columns array is not") {
    write("p.csv" -> "5,2.5\n1,3.5\n")
    val headerless = Seq("header" -> "false", "providedSchema" -> "id INT, score DOUBLE")
    val positional = rows(Compare("id", Greater, 2), headerless: _*)
    assert(positional.map(_.take(2)) == Seq(r(5, 2.5)))
    // The `columns` array is no scalar column: nothing to bind, every record comes out.
    val (plain, rejected) = read(Some(IsNull("columns")), "header" -> "false")
    assert(plain.size == 2 && rejected == 0)
  }

  test("CSV: a projected corrupt-record or rescued-data column turns the filter off") {
    write("a.csv" -> "id,score\n1,abc\n5,2.5,extra\n")
    val gt2 = Compare("id", Greater, 2)
    val (withCorrupt, r1) = read(Some(gt2), typed :+ ("columnNameOfCorruptRecord" -> "_bad"): _*)
    assert(withCorrupt.map(_.take(2)) == Seq(r(1, null), r(5, 2.5)) && r1 == 0)
    val (withRescued, r2) = read(Some(gt2), typed :+ ("rescuedDataColumn" -> "_rescued"): _*)
    assert(withRescued.map(_.take(2)) == Seq(r(1, null), r(5, 2.5)) && r2 == 0)
  }

  private val json = Seq("providedSchema" -> "id BIGINT, score DOUBLE")

  test("JSON: rejected records are not saved, and their other columns' bad values are not reported") {
    write(
      "a.json" -> lines(
        """{"score": "abc", "id": 1}""",
        """{"id": 5, "score": 2.5}""",
        """{"score": 1.0}""",
        """{"id": 1, "score": 3.0, "id": 10}"""
      )
    )
    val gt2 = Compare("id", Greater, 2L)
    val (failFast, rejected) = read(Some(gt2), json :+ ("mode" -> "FAILFAST"): _*)
    assert(failFast == Seq(r(5L, 2.5), r(10L, 3.0)) && rejected == 2) // the last value of a key counts
    assert(rows(gt2, json: _*) == failFast)
    assert(rows(IsNull("id"), json: _*) == Seq(r(null, 1.0))) // a missing key is null
    assert(failure(None, json :+ ("mode" -> "FAILFAST"): _*).column.contains("score"))
    val all = failure(Some(gt2), json ++ Seq("mode" -> "FAILFAST", "validate" -> "all"): _*)
    assert(all.column.contains("score"), all.getMessage)
  }

  test("JSON: a kept record's bad value follows the mode, wherever it stands in the record") {
    write("a.json" -> lines("""{"score": "abc", "id": 7}""", """{"id": 8, "score": 1.5}"""))
    val gt2 = Compare("id", Greater, 2L)
    val e = failure(Some(gt2), json :+ ("mode" -> "FAILFAST"): _*)
    assert(e.column.contains("score") && e.line == 1, e.getMessage)
    assert(rows(gt2, json :+ ("mode" -> "DROPMALFORMED"): _*) == Seq(r(8L, 1.5)))
    assert(rows(gt2, json: _*) == Seq(r(7L, null), r(8L, 1.5)))
  }

  test("JSON: a bad value in a filter column follows the mode as before") {
    write("a.json" -> lines("""{"id": "x", "score": 1.0}""", """{"id": 5, "score": 2.0}"""))
    val gt2 = Compare("id", Greater, 2L)
    val e = failure(Some(gt2), json :+ ("mode" -> "FAILFAST"): _*)
    assert(e.column.contains("id"), e.getMessage)
    assert(rows(gt2, json: _*) == Seq(r(5L, 2.0)))
    assert(rows(gt2, json :+ ("mode" -> "DROPMALFORMED"): _*) == Seq(r(5L, 2.0)))
  }

  test("JSON: a NOT NULL column a record lacks is judged by its default") {
    write("a.json" -> lines("""{"score": 1.0}""", """{"id": 1, "score": 2.0}"""))
    val schema = "providedSchema" -> "id BIGINT NOT NULL DEFAULT 9, score DOUBLE"
    assert(rows(Compare("id", Greater, 5L), schema) == Seq(r(9L, 1.0)))
    assert(rows(Compare("id", Less, 5L), schema) == Seq(r(1L, 2.0)))
  }

  test("JSON: strings, doubles and a projected corrupt-record column") {
    write(
      "a.json" -> lines(
        """{"id": 1, "score": -0.0, "name": "été"}""",
        """{"id": 2, "score": 0.5, "name": "ete"}""",
        """{"id": 3, "score": "NaN", "name": null}"""
      )
    )
    assert(rows(StartsWith("name", utf8("é")), json: _*).map(_.head) == Seq(1L))
    assert(rows(Compare("name", Greater, utf8("f")), json: _*).map(_.head) == Seq(1L)) // é (C3 A9) > f
    assert(rows(Compare("score", Equal, 0.0), json: _*).map(_.head) == Seq(1L, 3L)) // -0.0 = 0.0; NaN kept
    val corrupt = json :+ ("columnNameOfCorruptRecord" -> "_bad")
    val (all, rejected) = read(Some(Compare("id", Greater, 2L)), corrupt: _*)
    assert(all.size == 3 && rejected == 0)
  }

  test(
    "JSON: a record the filter's read keeps is read whole again, in any member order, nested and multi-line"
  ) {
    val nested =
      Seq("providedSchema" -> "id BIGINT, score DOUBLE, d STRUCT<x: INT, ys: ARRAY<STRING>>, s STRING")
    write(
      "a.json" -> lines(
        """{"s": "one", "id": 1, "d": {"ys": ["a"], "x": 1}, "score": 1.5}""",
        """{"id": 5, "d": {"x": 2, "ys": []}, "s": "two"}""",
        "{\n  \"d\": {\"x\": 3,\n  \"ys\": [\"b\", \"c\"]},\n  \"id\": 7, \"s\": \"x\\u00e9\"\n}",
        """{"d": null, "score": 4.0, "id": 11}"""
      ),
      "b.json" -> """[{"id": 9, "score": 2.0}, {"id": 2, "s": "no"}]"""
    )
    val all = rows(IsNotNull("id"), nested: _*)
    assert(all.map(_.head) == Seq(1L, 5L, 7L, 11L, 9L, 2L))
    val kept = rows(Compare("id", Greater, 2L), nested: _*)
    assert(kept == all.filter(_.head.asInstanceOf[Long] > 2L))
    assert(kept(1) == r(7L, null, Seq(3, 2), "xé")) // the struct: its x and its array's size
  }

  test("JSON: keys no column has are counted in the records the filter keeps, not in those it rejects") {
    // Discovery samples the first record: the keys after it have no column.
    write(
      "a.json" -> lines("""{"id": 0}""", """{"id": 1, "extra": 1, "more": 2}""", """{"id": 5, "extra": 3}""")
    )
    val sampled = Seq("sampleRows" -> "1")
    val (kept, rejected, dropped) = readCounting(Some(Compare("id", Greater, 2L)), sampled: _*)
    assert(kept == Seq(r(5L)) && rejected == 2 && dropped == 1)
    assert(readCounting(None, sampled: _*)._3 == 3)
  }

  test("JSON: invalid UTF-8 in a string the filter's read skips is broken JSON, as without a filter") {
    val bad = Array[Byte](0xff.toByte, 0xfe.toByte)
    val text =
      (lines("""{"id": 1, "s": "ok"}""").getBytes("UTF-8") ++ """  {"id": 5, "s": """".getBytes("UTF-8") ++
        bad ++ "\"}\n".getBytes("UTF-8") ++ lines("""{"id": 6, "s": "fine"}""").getBytes("UTF-8"))
    java.nio.file.Files.write(root.resolve("a.json"), text)
    val withS = Seq("providedSchema" -> "id BIGINT, s STRING")
    val gt2 = Compare("id", Greater, 2L)
    val e = failure(Some(gt2), withS :+ ("mode" -> "FAILFAST"): _*)
    assert(
      e.line == 2 && e.getMessage.contains("malformed JSON") && e.getMessage.contains("line 2, column"),
      e
    )
    assert(e.getMessage == failure(None, withS :+ ("mode" -> "FAILFAST"): _*).getMessage)
    assert(rows(gt2, withS :+ ("mode" -> "DROPMALFORMED"): _*) == Seq(r(6L, "fine")))
    assert(rows(gt2, withS: _*) == Seq(r(null, null), r(6L, "fine"))) // PERMISSIVE: a row of nulls
  }

  test("JSON: a kept record whose string is too long to decode, not to skip, is broken JSON on its line") {
    // Jackson checks a string's length (20,000,000 characters at most) as it decodes it, not as it skips it:
    // the filter's read passes the record, the whole read finds it broken.
    val long = "x" * 20000001
    write(
      "a.json" -> lines(
        """{"id": 1, "s": "ok"}""",
        s"""{"id": 5, "s": "$long"}""",
        """{"id": 6, "s": "fine"}"""
      )
    )
    val withS = Seq("providedSchema" -> "id BIGINT, s STRING")
    val gt2 = Compare("id", Greater, 2L)
    val e = failure(Some(gt2), withS :+ ("mode" -> "FAILFAST"): _*)
    assert(e.line == 2 && e.getMessage.contains("malformed JSON"), e.getMessage.take(300))
    // Jackson's own words: "String value length" from the Jackson of Spark 4, "String length" of Spark 3.5.
    assert(
      e.getMessage.matches("(?s).*String (value )?length \\(20000001\\) exceeds.*"),
      e.getMessage.take(300)
    )
    assert(
      e.getMessage == failure(None, withS :+ ("mode" -> "FAILFAST"): _*).getMessage
    ) // as one read tells it
    assert(rows(gt2, withS :+ ("mode" -> "DROPMALFORMED"): _*) == Seq(r(6L, "fine")))
    assert(rows(gt2, withS: _*) == Seq(r(null, null), r(6L, "fine"))) // PERMISSIVE: a row of nulls
  }

  test("JSON: the filter's read stops when most records pass and comes back when few do") {
    // 3000 records that all pass, then 3000 of which one in a hundred does: the same rows either way.
    val records = (1 to 6000).map { i =>
      val id = if (i <= 3000 || i % 100 == 0) 10 + i else i % 3
      s"""{"score": $i.5, "id": $id}"""
    }
    write("a.json" -> lines(records: _*))
    val gt2 = Compare("id", Greater, 2L)
    val (kept, rejected) = read(Some(gt2), json: _*)
    assert(kept == rows(IsNotNull("id"), json: _*).filter(_.head.asInstanceOf[Long] > 2L))
    assert(kept.size == 3030 && rejected == 2970)
  }
}
