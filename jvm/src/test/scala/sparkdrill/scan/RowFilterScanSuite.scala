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
      (rows.toSeq, lifecycle.rowsFiltered)
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
}
