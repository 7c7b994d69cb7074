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

  test("describe names the sheets of each file that brought each column") {
    put(
      "a.xlsx",
      xlsx(Seq(sheet("Jan", Seq("id", "name"), Seq(1, "ann")), sheet("Feb", Seq("id", "total"), Seq(2, 1.5))))
    )
    put("b.xlsx", xlsx(Seq(sheet("Mar", Seq("id"), Seq(3)))))
    val report = spark.read.format("drill-describe").option("sheet", "*").load(root.toString)
    val got = rows(report.select("file", "column", "seen_in").orderBy("file", "column")).map {
      case Seq(f: String, c, s) => Seq(f.substring(f.lastIndexOf('/') + 1), c, s)
      case other => other
    }
    assert(
      got == Seq(
        Seq("a.xlsx", "id", "sample, sheets 'Jan', 'Feb'"),
        Seq("a.xlsx", "name", "sample, sheet 'Jan'"),
        Seq("a.xlsx", "total", "sample, sheet 'Feb'"),
        Seq("b.xlsx", "id", "sample, sheet 'Mar'")
      )
    )
    // Where a column was found is the report's, never the table's.
    assert(read("sheet" -> "*").schema.forall(_.metadata.json == "{}"))
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

  test("an error cell's text is kept in the rescued-data column, by its column's name") {
    put(
      "e.xlsx",
      xlsx(Seq(sheet("s", Seq("id", "ratio"), Seq(1, Formula("1/0")), Seq(2, 0.5), Seq(3, Error("#N/A")))))
    )
    val df = read("rescuedDataColumn" -> "_rescued", "providedSchema" -> "id INT, ratio DOUBLE")
    val got = rows(df.select("id", "ratio", "_rescued").orderBy("id"))
    assert(got.map(_.take(2)) == Seq(Seq(1, null), Seq(2, 0.5), Seq(3, null)))
    assert(got(0)(2).asInstanceOf[String].contains("\"ratio\":\"#DIV/0!\""), got(0))
    assert(got(0)(2).asInstanceOf[String].contains("\"_line\":2"), got(0))
    assert(got(1)(2) == null)
    assert(got(2)(2).asInstanceOf[String].contains("\"ratio\":\"#N/A\""), got(2))
    // Without the column an error cell is null in every mode: no error, no row lost.
    assert(read("mode" -> "FAILFAST").count() == 3)
  }

  test("the hidden sheet column names each row's sheet; null for other formats; a data column wins") {
    put(
      "w.xlsx",
      xlsx(Seq(sheet("Jan", Seq("id"), Seq(1)), sheet("Feb", Seq("id"), Seq(2), Seq(3))))
    )
    put("c.csv", "id\n4\n".getBytes("UTF-8"))
    put("j.json", "{\"id\": 5}\n".getBytes("UTF-8"))
    val df = read("sheet" -> "*", "header" -> "true", "providedSchema" -> "id INT")
    assert(!df.columns.contains("sheet"))
    assert(
      rows(df.select("id", "sheet", "filename").orderBy("id")) == Seq(
        Seq(1, "Jan", "w.xlsx"),
        Seq(2, "Feb", "w.xlsx"),
        Seq(3, "Feb", "w.xlsx"),
        Seq(4, null, "c.csv"),
        Seq(5, null, "j.json")
      )
    )
    assert(rows(df.where("sheet = 'Feb'").select("id").orderBy("id")) == Seq(Seq(2), Seq(3)))
    assert(
      rows(df.groupBy("sheet").count().orderBy("sheet")) == Seq(Seq(null, 2L), Seq("Feb", 2L), Seq("Jan", 1L))
    )
    Files.delete(root.resolve("c.csv"))
    Files.delete(root.resolve("j.json"))
    put("w.xlsx", xlsx(Seq(sheet("Jan", Seq("id", "sheet"), Seq(1, "mine")))))
    assert(rows(read().select("id", "sheet")) == Seq(Seq(1L, "mine")))
  }

  test(
    ".xls workbooks read as .xlsx ones, by suffix, beside them; one past maxWorkbookBytes fails naming it"
  ) {
    val cells = Seq(
      sheet(
        "s",
        Seq("id", "name", "score", "ok", "day", "sum", "bad"),
        Seq(1, "ann", 1.5, true, Dated.day(LocalDate.of(2024, 3, 1)), Formula("A2+C2"), Formula("1/0")),
        null,
        Seq(2, "bob", 2, false, Dated.day(LocalDate.of(2024, 3, 2)), Formula("A4+C4"), Error("#N/A"))
      )
    )
    put("old.xls", xls(cells))
    val old = read()
    assert(
      old.schema.map(f => f.name -> f.dataType.simpleString) == Seq(
        "id" -> "bigint",
        "name" -> "string",
        "score" -> "double",
        "ok" -> "boolean",
        "day" -> "date",
        "sum" -> "double",
        "bad" -> "string"
      )
    )
    val expected = Seq(
      Seq(1L, "ann", 1.5, true, Date.valueOf("2024-03-01"), 2.5, null, 2L, "s"),
      Seq(2L, "bob", 2.0, false, Date.valueOf("2024-03-02"), 4.0, null, 4L, "s")
    )
    assert(rows(old.select("*", "_line", "sheet").orderBy("id")) == expected)
    put("new.xlsx", xlsx(cells))
    val both = rows(read().select("*", "_line", "sheet", "filename").orderBy("filename", "id"))
    assert(both == expected.map(_ :+ "new.xlsx") ++ expected.map(_ :+ "old.xls"))
    assert(
      rows(read("allTextMode" -> "true").select("score").orderBy("score")) == Seq.fill(2)(Seq("1.5")) ++ Seq
        .fill(2)(Seq("2"))
    )
    Seq("PERMISSIVE", "FAILFAST").foreach { mode =>
      val message = failure(read("mode" -> mode, "maxWorkbookBytes" -> "1000"))
      assert(message.contains("old.xls") && message.contains("maxWorkbookBytes"), message)
    }
    // The limit is .xls's only: an .xlsx sheet is streamed.
    Files.delete(root.resolve("old.xls"))
    assert(read("maxWorkbookBytes" -> "1000").count() == 2)
  }

  test("a number cell that holds no number is a malformed record, named by its cell, per mode") {
    val good = xlsx(Seq(sheet("s", Seq("id", "score"), Seq(1, 1.5), Seq(2, 2.5))))
    put("n.xlsx", rewrite(good, "xl/worksheets/sheet1.xml", _.replace("<v>2.5</v>", "<v>2.x5</v>")))
    val permissive =
      read("columnNameOfCorruptRecord" -> "_corrupt", "providedSchema" -> "id INT, score DOUBLE")
    assert(
      rows(permissive.select("id", "score", "_corrupt").orderBy("score")) ==
        Seq(Seq(null, null, "s!A3=2.0, s!B3=2.x5"), Seq(1, 1.5, null))
    )
    assert(rows(read("mode" -> "DROPMALFORMED").select("id", "score")) == Seq(Seq(1L, 1.5)))
    // A cell the query does not read is not converted, so not judged (SPEC 4).
    assert(rows(read("mode" -> "DROPMALFORMED").select("id").orderBy("id")) == Seq(Seq(1L), Seq(2L)))
    val message = failure(read("mode" -> "FAILFAST"))
    assert(message.contains("n.xlsx") && message.contains("cell s!B3") && message.contains("2.x5"), message)
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
      ("text.xlsx", "id\n1\n".getBytes("UTF-8"), "not a workbook"),
      ("cut.xlsx", good.take(good.length / 2), "damaged"),
      ("locked.xlsx", Encrypted.of(good), "encrypted"),
      ("locked.xls", Encrypted.of(good), "encrypted"),
      ("bomb.xlsx", bomb(good), "zip bomb")
    )
    bad.foreach { case (name, bytes, why) =>
      put(name, bytes)
      assert(rows(read()) == Seq(Seq(1L)), name)
      assert(rows(read("mode" -> "DROPMALFORMED")) == Seq(Seq(1L)), name)
      val message = failure(read("mode" -> "FAILFAST"))
      assert(message.contains(name) && message.contains(why), message)
      assert(rows(read("mode" -> "FAILFAST", "ignoreCorruptFiles" -> "true")) == Seq(Seq(1L)), name)
      Files.delete(root.resolve(name))
    }
  }

  // The workbook with its first sheet's XML padded by 64 MiB of blanks before its first row: a ratio of
  // compressed to uncompressed size far below POI's floor (1%), as a zip bomb has.
  private def bomb(workbook: Array[Byte]): Array[Byte] =
    rewrite(workbook, "xl/worksheets/sheet1.xml", xml => xml.patch(xml.indexOf("<row"), " " * (64 << 20), 0))

  // The workbook with part `name`'s XML changed by `change`.
  private def rewrite(workbook: Array[Byte], name: String, change: String => String): Array[Byte] = {
    val in = new java.util.zip.ZipInputStream(new java.io.ByteArrayInputStream(workbook))
    val bytes = new java.io.ByteArrayOutputStream()
    val out = new java.util.zip.ZipOutputStream(bytes)
    Iterator.continually(in.getNextEntry).takeWhile(_ != null).foreach { e =>
      val data = in.readAllBytes()
      out.putNextEntry(new java.util.zip.ZipEntry(e.getName))
      out.write(if (e.getName == name) change(new String(data, "UTF-8")).getBytes("UTF-8") else data)
      out.closeEntry()
    }
    out.close()
    bytes.toByteArray
  }
}
