package sparkdrill.formats.excel

import java.nio.file.Files
import java.sql.{Date, Timestamp}
import java.time.{LocalDate, LocalDateTime}

import org.apache.spark.SparkThrowable
import org.apache.spark.sql.DataFrame
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}
import sparkdrill.formats.excel.Workbooks._

/** `format=excel` against SPEC 13, on workbooks POI writes in each test, read through `format("drill")`. */
class ExcelFormatSuite extends AnyFunSuite with TestFiles with LocalSpark {

  private def put(name: String, bytes: Array[Byte]): Unit = {
    val p = root.resolve(name)
    Files.createDirectories(p.getParent)
    Files.write(p, bytes)
  }

  private def read(options: (String, String)*): DataFrame =
    spark.read.format("drill").options(options.toMap).load(root.toString)

  private def rows(df: DataFrame): Seq[Seq[Any]] = df.collect().toSeq.map(_.toSeq)

  private def failure(df: => DataFrame): String = {
    val e = intercept[Exception](df.collect())
    val chain = Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ != null).toSeq
    assert(chain.exists(_.isInstanceOf[SparkThrowable]), e)
    chain.map(_.getMessage).mkString(" | ")
  }

  test(
    "rows of the first sheet by default, typed by their cells, blank rows skipped, _line as the sheet row"
  ) {
    put(
      "a.xlsx",
      xlsx(
        Seq(
          sheet(
            "data",
            Seq("id", "name", "score", "ok"),
            Seq(1, "ann", 1.5, true),
            null,
            Seq(2, "bob", 2, false)
          ),
          sheet("other", Seq("x"), Seq("not read"))
        )
      )
    )
    val df = read()
    assert(
      df.schema.map(f => f.name -> f.dataType.simpleString) ==
        Seq("id" -> "bigint", "name" -> "string", "score" -> "double", "ok" -> "boolean")
    )
    assert(rows(df.orderBy("id")) == Seq(Seq(1L, "ann", 1.5, true), Seq(2L, "bob", 2.0, false)))
    assert(rows(df.select("name", "_line").orderBy("_line")) == Seq(Seq("ann", 2L), Seq("bob", 4L)))
    assert(read().count() == 2)
  }

  test("sheet by name, glob and *: columns union by name across sheets and workbooks") {
    put(
      "a.xlsx",
      xlsx(Seq(sheet("2024-01", Seq("id", "name"), Seq(1, "ann")), sheet("notes", Seq("memo"), Seq("m"))))
    )
    put(
      "b.xlsx",
      xlsx(
        Seq(
          sheet("2024-02", Seq("ID", "country", "name"), Seq(2, "fr", "bob")),
          sheet("2023-12", Seq("id"), Seq(0))
        )
      )
    )
    val globbed = read("sheet" -> "2024-*")
    assert(globbed.columns.toSeq == Seq("id", "name", "country"))
    assert(rows(globbed.orderBy("id")) == Seq(Seq(1L, "ann", null), Seq(2L, "bob", "fr")))
    assert(rows(read("sheet" -> "NOTES").select("memo")) == Seq(Seq("m")))
    assert(read("sheet" -> "*").count() == 4)
    assert(rows(read("sheet" -> "*").select("id").orderBy("id")).map(_.head) == Seq(null, 0L, 1L, 2L))
    // A named sheet a workbook lacks: no rows from it, the others read.
    assert(rows(read("sheet" -> "2023-12").select("id")) == Seq(Seq(0L)))
  }

  test("dates from number formats, in the 1900 and the 1904 date systems; dates without a time are dates") {
    val day = LocalDate.of(2024, 3, 1)
    val at = LocalDateTime.of(2024, 3, 1, 13, 45, 30)
    val rowsOf = Seq(
      Seq("day", "us", "at", "num"),
      Seq(Dated.day(day), Dated.day(day, "m/d/yy"), Dated(at, "yyyy-mm-dd hh:mm:ss"), 45352),
      Seq(
        Dated.day(day.plusDays(1)),
        Dated.day(day.plusDays(1), "d-mmm-yy"),
        Dated(at.plusHours(1), "h:mm AM/PM"),
        7
      )
    )
    put("d1900.xlsx", xlsx(Seq(sheet("s", rowsOf: _*))))
    put("sub/d1904.xlsx", xlsx(Seq(sheet("s", rowsOf: _*)), date1904 = true))
    val df = read().select("day", "us", "at", "num") // and dir0, of sub/
    assert(df.schema.map(_.dataType.simpleString) == Seq("date", "date", "timestamp", "bigint"))
    val got = rows(df.orderBy("day", "num"))
    val expected = Seq(
      Seq(Date.valueOf(day), Date.valueOf(day), Timestamp.valueOf(at), 45352L),
      Seq(Date.valueOf(day), Date.valueOf(day), Timestamp.valueOf(at), 45352L),
      Seq(
        Date.valueOf(day.plusDays(1)),
        Date.valueOf(day.plusDays(1)),
        Timestamp.valueOf(at.plusHours(1)),
        7L
      ),
      Seq(
        Date.valueOf(day.plusDays(1)),
        Date.valueOf(day.plusDays(1)),
        Timestamp.valueOf(at.plusHours(1)),
        7L
      )
    )
    assert(got == expected)
  }

  test("formulas give their cached values; error cells are null; allTextMode gives the text Excel shows") {
    put(
      "f.xlsx",
      xlsx(
        Seq(
          sheet(
            "s",
            Seq("a", "b", "sum", "label", "ratio"),
            Seq(2, 3, Formula("A2+B2"), Formula("\"n=\"&A2"), Formula("A2/0")),
            Seq(1.25, 3, Formula("A3+B3"), Formula("\"n=\"&A3"), Error("#N/A"))
          )
        )
      )
    )
    val df = read()
    // A column of errors only has no type of its own: string, as a column seen only as null.
    assert(df.schema.map(_.dataType.simpleString) == Seq("double", "bigint", "double", "string", "string"))
    assert(
      rows(df.select("sum", "label", "ratio").orderBy("sum")) == Seq(
        Seq(4.25, "n=1.25", null),
        Seq(5.0, "n=2", null)
      )
    )
    val text = read("allTextMode" -> "true")
    assert(text.schema.map(_.dataType.simpleString).take(4) == Seq("string", "string", "string", "string"))
    assert(rows(text.select("a", "sum").orderBy("sum")) == Seq(Seq("1.25", "4.25"), Seq("2", "5")))
  }

  test("merged cells hold the value in their first cell; empty rows and columns; header rules") {
    put(
      "m.xlsx",
      xlsx(
        Seq(
          sheet("s", Seq("id", null, "id", " "), Seq(1, null, "x", "y"), null, null, Seq(2, null, null, "z"))
        ),
        merges = Seq(Merge("s", "C2:C5"))
      )
    )
    val df = read()
    assert(df.columns.toSeq == Seq("id", "_c1", "id_2", "_c3"))
    assert(
      rows(df.select("id", "id_2", "_c3", "_line").orderBy("id")) == Seq(
        Seq(1L, "x", "y", 2L),
        Seq(2L, null, "z", 5L)
      )
    )
  }

  test(
    "without a header, columns are _c0, _c1, ... by position; a header-only sheet and an empty sheet give no rows"
  ) {
    put(
      "h.xlsx",
      xlsx(
        Seq(
          sheet("data", Seq("a", 1), Seq("b", 2, true)),
          sheet("head", Seq("only", "names")),
          sheet("empty")
        )
      )
    )
    val df = read("header" -> "false")
    assert(df.columns.toSeq == Seq("_c0", "_c1", "_c2"))
    assert(rows(df.orderBy("_c0")) == Seq(Seq("a", 1L, null), Seq("b", 2L, true)))
    // With the header (the default), the first row names the columns, a number as Excel shows it; the cell
    // past the header (true) is an extra, dropped.
    val all = read("sheet" -> "*")
    assert(all.columns.toSeq == Seq("a", "1", "only", "names"))
    assert(rows(all.select("a", "1")) == Seq(Seq("b", 2L)))
    assert(read("sheet" -> "empty").count() == 0)
    assert(read("sheet" -> "head").columns.toSeq == Seq("only", "names"))
  }

  test("dataAddress reads one range, of the sheet it names or of every sheet read") {
    val rowsOf = Seq(
      Seq("title of the report"),
      null,
      Seq(null, "id", "name", "skip"),
      Seq(null, 1, "ann", "x"),
      Seq(null, 2, "bob", "y"),
      Seq(null, 3, "cy", "z")
    )
    put("r.xlsx", xlsx(Seq(sheet("first", Seq("q")), sheet("Q3 sales", rowsOf: _*))))
    val df = read("dataAddress" -> "'Q3 sales'!B3:C5")
    assert(df.columns.toSeq == Seq("id", "name"))
    assert(
      rows(df.select("id", "name", "_line").orderBy("id")) == Seq(Seq(1L, "ann", 4L), Seq(2L, "bob", 5L))
    )
    assert(read("sheet" -> "Q3 sales", "dataAddress" -> "B3:C").count() == 3)
    val e = intercept[Exception](read("dataAddress" -> "B3:A"))
    assert(e.getMessage.contains("dataAddress"), e.getMessage)
  }

  test("a bad value in a column the query does not read is never converted") {
    put("p.xlsx", xlsx(Seq(sheet("s", Seq("id", "score"), Seq(1, 1.5), Seq(2, "oops")))))
    val typed = Seq("providedSchema" -> "id INT, score DOUBLE", "mode" -> "DROPMALFORMED")
    assert(read(typed: _*).select("id").count() == 2)
    assert(rows(read(typed: _*).select("id", "score")) == Seq(Seq(1, 1.5)))
  }

  test("a file that is not a workbook, a damaged archive, an encrypted workbook: malformed files per mode") {
    put("good.xlsx", xlsx(Seq(sheet("s", Seq("id"), Seq(1)))))
    val good = Files.readAllBytes(root.resolve("good.xlsx"))
    val bad = Seq(
      "text.xlsx" -> "id\n1\n".getBytes("UTF-8"),
      "cut.xlsx" -> good.take(good.length / 2),
      "locked.xlsx" -> Encrypted.of(good)
    )
    bad.foreach { case (name, bytes) =>
      put(name, bytes)
      assert(rows(read()) == Seq(Seq(1L)), name)
      assert(rows(read("mode" -> "DROPMALFORMED")) == Seq(Seq(1L)), name)
      val message = failure(read("mode" -> "FAILFAST"))
      assert(message.contains(name) && message.contains("workbook"), message)
      assert(rows(read("mode" -> "FAILFAST", "ignoreCorruptFiles" -> "true")) == Seq(Seq(1L)), name)
      Files.delete(root.resolve(name))
    }
  }
}
