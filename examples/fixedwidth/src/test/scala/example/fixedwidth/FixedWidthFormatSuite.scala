package example.fixedwidth

import org.apache.spark.sql.DataFrame
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}

/** The example fixed-width format, read through `format("drill")` on a real local Spark (this project's
  * classpath has it): the scan gives it partition and implicit columns, projection, missing columns, batches
  * and modes, and never names it.
  */
class FixedWidthFormatSuite extends AnyFunSuite with TestFiles with LocalSpark {
  private val layout = "id:3,name:6,score:5"

  private def writeSample(): Unit =
    write(
      "2024/a.fwf" -> "  1ann     1.5\n  2bob     2.0extra\n",
      "b.fwf" -> "  3cy      abc\n\n  4dee        \n",
      "ignored.txt" -> "not a fixed-width file\n"
    )

  private def read(options: (String, String)*): DataFrame =
    spark.read.format("drill").options((("widths" -> layout) +: options).toMap).load(root.toString)

  private def rows(df: DataFrame): Seq[Seq[Any]] = df.collect().toSeq.map(_.toSeq)

  test("wildcard: declared columns, the late column, dir0; files of other suffixes are skipped") {
    writeSample()
    val df = read()
    assert(df.schema.fieldNames.toSeq == Seq("id", "name", "score", "rest", "dir0"))
    assert(
      rows(df.orderBy("id")) == Seq(
        Seq("1", "ann", "1.5", null, "2024"),
        Seq("2", "bob", "2.0", "extra", "2024"),
        Seq("3", "cy", "abc", null, null),
        Seq("4", "dee", null, null, null)
      )
    )
  }

  test("implicit columns, projection and count(*)") {
    writeSample()
    val df = read()
    assert(
      rows(df.select("name", "filename", "_line", "suffix").orderBy("name")) == Seq(
        Seq("ann", "a.fwf", 1L, "fwf"),
        Seq("bob", "a.fwf", 2L, "fwf"),
        Seq("cy", "b.fwf", 1L, "fwf"),
        Seq("dee", "b.fwf", 3L, "fwf")
      )
    )
    assert(df.count() == 4)
    assert(rows(df.where("dir0 = '2024'").select("id")) == Seq(Seq("1"), Seq("2")))
  }

  test("a provided schema types the columns; a bad value follows the mode") {
    writeSample()
    val typed = Seq("providedSchema" -> "id INT, score DOUBLE", "columnNameOfCorruptRecord" -> "_bad")
    val permissive = read(typed: _*)
    assert(permissive.schema("id").dataType.simpleString == "int")
    assert(
      rows(permissive.select("id", "score", "_bad").orderBy("id")) == Seq(
        Seq(1, 1.5, null),
        Seq(2, 2.0, null),
        Seq(3, null, "  3cy      abc"),
        Seq(4, null, null)
      )
    )
    val dropped = read(typed :+ ("mode" -> "DROPMALFORMED"): _*)
    assert(rows(dropped.select("id", "score").orderBy("id")).map(_.head) == Seq(1, 2, 4))
    // validate=projected (the default): an unread column's bad value does not count; validate=all: it does.
    assert(rows(dropped.select("id").orderBy("id")) == Seq(Seq(1), Seq(2), Seq(3), Seq(4)))
    val all = read(typed ++ Seq("mode" -> "DROPMALFORMED", "validate" -> "all"): _*)
    assert(rows(all.select("id").orderBy("id")) == Seq(Seq(1), Seq(2), Seq(4)))
    val e = intercept[Exception](read(typed :+ ("mode" -> "FAILFAST"): _*).collect())
    val message =
      Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ != null).map(_.getMessage).mkString(" | ")
    assert(message.contains("b.fwf") && message.contains("line 1") && message.contains("'score'"), message)
    assert(message.contains("value 'abc'"), message)
  }

  test("a short line is a malformed record in every mode") {
    write("c.fwf" -> "  5eve     1.0\n  6x\n")
    assert(
      rows(read("columnNameOfCorruptRecord" -> "_bad").select("id", "_bad")) == Seq(
        Seq("5", null),
        Seq(null, "  6x")
      )
    )
    assert(read("mode" -> "DROPMALFORMED").count() == 1)
    val e = intercept[Exception](read("mode" -> "FAILFAST").collect())
    assert(Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ != null).exists { t =>
      String.valueOf(t.getMessage).contains("line 2")
    })
  }

  test("small batches give the same rows; a defined schema keeps dir0 selectable") {
    write((1 to 50).map(i => s"d${i % 3}/f$i.fwf" -> f"$i%3dn$i%-5s$i%5d\n"): _*)
    val whole = rows(read().select("id", "name", "score", "dir0").orderBy("id"))
    val small =
      rows(read("batchRows" -> "2", "batchBytes" -> "64").select("id", "name", "score", "dir0").orderBy("id"))
    assert(whole.size == 50 && small == whole)
    val defined = spark.read
      .format("drill")
      .schema("id INT, score INT")
      .option("widths", layout)
      .load(root.toString)
    assert(defined.schema.fieldNames.toSeq == Seq("id", "score"))
    assert(defined.where("dir0 = 'd1'").count() == 17)
    assert(rows(defined.select("id", "dir0").where("id = 7")) == Seq(Seq(7, "d1")))
  }

  test("an unknown option fails at planning with the nearest name") {
    writeSample()
    val e = intercept[IllegalArgumentException](read("widht" -> "x:1"))
    assert(e.getMessage.contains("did you mean widths?"), e.getMessage)
  }

  test("bare widths name the columns _c0, _c1, ...; format=fixedwidth reads files of any suffix") {
    write("a.txt" -> "  1ann  \n  2bob  \n")
    val df = spark.read
      .format("drill")
      .option("format", "fixedwidth")
      .option("widths", "3,name:5")
      .load(root.toString)
    assert(df.schema.fieldNames.toSeq == Seq("_c0", "name"))
    assert(rows(df.orderBy("_c0")) == Seq(Seq("1", "ann"), Seq("2", "bob")))
  }

  test("a bad layout fails at planning, naming the option") {
    writeSample()
    Seq("3,x", "id:0", ":3", "").foreach { layout =>
      val e = intercept[IllegalArgumentException](
        spark.read.format("drill").option("widths", layout).load(root.toString)
      )
      assert(e.getMessage.contains("option 'widths'"), s"$layout: ${e.getMessage}")
    }
  }

  test("a stream meets the late column past the sample: it stops with a new version, then reads it") {
    // The template's one loop stops a stream whose schema evolves at a late column the table lacks, as JSON's
    // stops at a member past its sample; before, a fixed-width `rest` there was dropped and counted.
    val src = root.resolve("in")
    val schemas = root.resolve("schemas")
    def land(name: String, text: String, age: Long): Unit = {
      val f = src.resolve(name)
      java.nio.file.Files.createDirectories(src)
      java.nio.file.Files.write(f, text.getBytes("UTF-8"))
      f.toFile.setLastModified(System.currentTimeMillis() - age)
    }
    def stream(): DataFrame =
      spark.readStream
        .format("drill")
        .options(Map("widths" -> layout, "schemaLocation" -> schemas.toString, "sampleRows" -> "1"))
        .option("maxFilesPerTrigger", "1")
        .load(src.toString)
    def run(df: DataFrame): Option[String] = {
      val query = df.writeStream
        .format("json")
        .option("checkpointLocation", root.resolve("chk").toString)
        .trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow())
        .start(root.resolve("out").toString)
      try query.awaitTermination(120000L)
      catch { case _: org.apache.spark.sql.streaming.StreamingQueryException => () }
      query.exception.map(e =>
        Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ != null).map(_.getMessage).mkString(" | ")
      )
    }
    land("a.fwf", "  1ann     1.5\n", 3600000L)
    val first = stream()
    assert(first.columns.toSeq == Seq("id", "name", "score"))
    land("b.fwf", "  2bob     2.0\n  3cy      3.0late\n", 3500000L)
    val error = run(first).getOrElse(fail("the stream ended without meeting the late column"))
    assert(error.contains("SPARK_DRILL_STREAM_SCHEMA_CHANGED") && error.contains("b.fwf"), error)
    assert(error.contains("line 2") && error.contains("rest"), error)
    val again = stream()
    assert(again.columns.toSeq == Seq("id", "name", "score", "rest"))
    assert(run(again).isEmpty)
    val out = spark.read.schema("id STRING, rest STRING").json(root.resolve("out").toString)
    assert(rows(out.orderBy("id")) == Seq(Seq("1", null), Seq("2", null), Seq("3", "late")))
  }
}
