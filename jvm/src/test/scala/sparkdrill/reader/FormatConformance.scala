package sparkdrill.reader

import java.io.ByteArrayOutputStream
import java.nio.charset.StandardCharsets
import java.nio.file.Files
import java.util.zip.GZIPOutputStream

import org.apache.spark.SparkThrowable
import org.apache.spark.sql.{DataFrame, Row}
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}

/** The conformance suite every format extends (docs/formats.md, "Writing a format"): the format says how to
  * write records of a table `id, name, score` in its syntax, and the suite checks, through `format("drill")`
  * on a real local Spark, every duty the record-reader template owns: modes and their counters, the corrupt-
  * record and rescued-data columns, fills, `validate`, `_line` and `_offset`, the row filter, projection and
  * count, partition columns, batch sizes, byte-range splits and compression.
  */
abstract class FormatConformance extends AnyFunSuite with TestFiles with LocalSpark {

  /** The options that select the format (`format`, its own options). */
  def formatOptions: Map[String, String]

  /** The suffix of the format's files. */
  def suffix: String

  /** A record of `id`, `name` and `score`; a null value is written as absent (the format's null). */
  def record(id: String, name: String, score: String): String

  /** A record the format cannot read (malformed). A FAILFAST error may come at planning (a format whose
    * discovery samples records meets it there) or from the job: either way it names the file and line.
    */
  def malformed: String

  /** A file's bytes from its text ([[preamble]] and records, a line each): UTF-8, or for a format whose files
    * are not text (a workbook) the file it writes from those lines.
    */
  def encode(text: String): Array[Byte] = text.getBytes(StandardCharsets.UTF_8)

  /** Whether a record of the format can be malformed (a workbook's rows cannot: its bad files are whole). */
  def malformedRecords: Boolean = true

  /** Whether the format knows each record's byte offset (`_offset`); a workbook knows rows only. */
  def offsets: Boolean = true

  /** What precedes the records of a file (a header line), if anything. */
  def preamble: String = ""

  /** Whether the file's split may be cut by byte range (the format is splittable). */
  def splittable: Boolean = true

  /** Whether the format's [[malformed]] record runs to the end of the file, so that the suite writes it last
    * (after two good records) rather than between them. CSV's only malformed record is a quote never closed,
    * whose text runs to the end of the file (docs/errors.md, "Text"). Every other check is the same.
    */
  def malformedEndsFile: Boolean = false

  /** The options under which the format types its columns by itself (the typed test), and the types `id` and
    * `score` then have, for records written by [[typedRecord]]. Text formats type a sample's strings with
    * `inferTypes=true`: int and double. A format whose syntax carries the types overrides all three (JSON:
    * numbers are bigint or double and `inferTypes` is a text option; docs/options.md, "JSON").
    */
  def inferOptions: Map[String, String] = Map("inferTypes" -> "true")
  def inferredTypes: (String, String) = ("int", "double")

  /** A record of typed values, for [[inferOptions]]: by default [[record]] of their text. */
  def typedRecord(id: Int, name: String, score: Double): String = record(id.toString, name, score.toString)

  private def put(name: String, text: String): Unit = {
    val p = root.resolve(name)
    Files.createDirectories(p.getParent)
    Files.write(p, encode(text))
  }

  private def file(records: String*): String = preamble + records.map(_ + "\n").mkString

  private val good = Seq(record("1", "ann", "1.5"), record("2", "bob", "2.5"), record("3", "cy", "3.5"))

  protected def read(options: (String, String)*): DataFrame =
    spark.read.format("drill").options(formatOptions ++ options).load(root.toString)

  private def rows(df: DataFrame): Seq[Seq[Any]] = df.collect().toSeq.map(_.toSeq)
  private val typed = "providedSchema" -> "id INT, name STRING, score DOUBLE"

  test("conformance: the columns and values, with a partition column from the directory") {
    put(s"2024/a.$suffix", file(good: _*))
    val df = read().select("id", "name", "score", "dir0")
    assert(
      rows(df.orderBy("id")) == Seq(
        Seq("1", "ann", "1.5", "2024"),
        Seq("2", "bob", "2.5", "2024"),
        Seq("3", "cy", "3.5", "2024")
      )
    )
  }

  test("conformance: typed by providedSchema and inferTypes; a filter on a typed column") {
    put(s"a.$suffix", file(good: _*))
    assert(
      rows(read(typed).where("id >= 2").select("id", "score").orderBy("id")) == Seq(Seq(2, 2.5), Seq(3, 3.5))
    )
    Files.delete(root.resolve(s"a.$suffix"))
    put(s"b.$suffix", file(typedRecord(1, "ann", 1.5), typedRecord(2, "bob", 2.5)))
    val inferred = read(inferOptions.toSeq: _*)
    assert(inferred.schema("id").dataType.simpleString == inferredTypes._1)
    assert(inferred.schema("score").dataType.simpleString == inferredTypes._2)
    assert(rows(inferred.select("name").orderBy("name")) == Seq(Seq("ann"), Seq("bob")))
  }

  if (malformedRecords)
    test(
      "conformance: a malformed record in each mode, with the corrupt-record column and FAILFAST's error"
    ) {
      val records =
        if (malformedEndsFile) Seq(good(0), good(1), malformed) else Seq(good(0), malformed, good(1))
      put(s"a.$suffix", file(records: _*))
      val permissive = read(typed, "columnNameOfCorruptRecord" -> "_corrupt")
      val kept = rows(permissive.select("id", "_corrupt").orderBy("id"))
      assert(kept == Seq(Seq(null, malformed), Seq(1, null), Seq(2, null)))
      assert(read().count() == 3)
      assert(rows(read("mode" -> "DROPMALFORMED").select("id").orderBy("id")) == Seq(Seq("1"), Seq("2")))
      val message = failure(read("mode" -> "FAILFAST"), "SPARK_DRILL_MALFORMED_RECORD")
      val line = lineOf(records.indexOf(malformed) + 1)
      assert(message.contains(s"a.$suffix") && message.contains(s"line $line"), message)
    }

  test("conformance: an unconvertible value in each mode, and the rescued-data column keeps its text") {
    put(s"a.$suffix", file(good(0), record("2", "bob", "oops")))
    assert(rows(read(typed).select("id", "score").orderBy("id")) == Seq(Seq(1, 1.5), Seq(2, null)))
    val rescued =
      read(typed, "rescuedDataColumn" -> "_rescued")
        .where("id = 2")
        .select("score", "_rescued")
        .head()
        .getString(1)
    assert(rescued.contains("\"score\":\"oops\"") && rescued.contains(s"a.$suffix"), rescued)
    assert(rows(read(typed, "mode" -> "DROPMALFORMED").select("id", "score")) == Seq(Seq(1, 1.5)))
    // The bad value is in a column the query does not read: counted unless validate=all judges every column.
    assert(read(typed, "mode" -> "DROPMALFORMED").select("id").count() == 2)
    assert(read(typed, "mode" -> "DROPMALFORMED", "validate" -> "all").select("id").count() == 1)
    val message = failure(read(typed, "mode" -> "FAILFAST"), "SPARK_DRILL_UNCONVERTIBLE_VALUE")
    assert(message.contains("column 'score'") && message.contains("value 'oops'"), message)
  }

  test("conformance: a column the table lacks goes to the rescued-data column, or is dropped") {
    put(s"a.$suffix", file(good(0)))
    val strict = Seq("providedSchema" -> "id INT, score DOUBLE", "strictSchema" -> "true")
    val row = read(strict :+ ("rescuedDataColumn" -> "_rescued"): _*).head()
    assert(row.getAs[Int]("id") == 1 && row.getAs[String]("_rescued").contains("\"name\":\"ann\""))
    assert(read(strict: _*).schema.fieldNames.toSeq == Seq("id", "score"))
  }

  test("conformance: an absent value is null, or a NOT NULL column's DEFAULT") {
    put(s"a.$suffix", file(record("1", null, "1.5"), record("2", "bob", null)))
    assert(rows(read(typed).select("name", "score").orderBy("id")) == Seq(Seq(null, 1.5), Seq("bob", null)))
    val filled = read("providedSchema" -> "id INT, name STRING NOT NULL DEFAULT 'n/a', score DOUBLE NOT NULL")
    assert(rows(filled.select("name", "score").orderBy("id")) == Seq(Seq("n/a", 1.5), Seq("bob", 0.0)))
  }

  test("conformance: _line and _offset, projection alone, and count") {
    val text = file(good: _*)
    put(s"a.$suffix", text)
    val df = read().select("_line", (if (offsets) Seq("_offset") else Nil) :+ "name": _*).orderBy("_line")
    val lines = text.split("\n", -1).toSeq
    val expected = good.map { r =>
      val i = lines.indexOf(r)
      val offset = lines.take(i).map(_.getBytes(StandardCharsets.UTF_8).length + 1).sum
      if (offsets) Seq((i + 1).toLong, offset.toLong) else Seq((i + 1).toLong)
    }
    assert(rows(df).map(_.take(expected.head.size)) == expected)
    assert(read().select("name").collect().map(_.getString(0)).sorted.toSeq == Seq("ann", "bob", "cy"))
    assert(read().count() == 3)
  }

  test("conformance: every batch size and byte-range split gives each record once, with its line") {
    val records = (1 to 500).map(i => record(i.toString, s"n$i", s"$i.5"))
    put(s"a.$suffix", file(records: _*))
    val expected = (1 to 500).map(i => Seq(i, s"n$i"))
    Seq("1", "7", "4096").foreach { batch =>
      assert(rows(read(typed, "batchRows" -> batch).select("id", "name").orderBy("id")) == expected, batch)
    }
    val size = Files.size(root.resolve(s"a.$suffix"))
    try {
      spark.conf.set("spark.sql.files.maxPartitionBytes", (size / 5).toString)
      spark.conf.set("spark.sql.files.openCostInBytes", "0")
      val split = read(typed)
      if (splittable) assert(split.rdd.getNumPartitions >= 5)
      assert(rows(split.select("id", "name").orderBy("id")) == expected)
      val withLines = split.select("id", "_line").collect().map(r => (r.getInt(0), r.getLong(1)))
      assert(withLines.forall { case (id, line) => line == lineOf(id) }, withLines.take(5).toSeq)
      assert(split.count() == 500)
    } finally {
      spark.conf.unset("spark.sql.files.maxPartitionBytes")
      spark.conf.unset("spark.sql.files.openCostInBytes")
    }
  }

  test("conformance: in a split past the first, an error and a rescued record name the file's line") {
    // The bad value sits in the last split; `_line` is not read, so the line is counted only for them.
    val records = (1 to 500).map(i => record(i.toString, s"n$i", if (i == 480) "oops" else s"$i.5"))
    put(s"a.$suffix", file(records: _*))
    val size = Files.size(root.resolve(s"a.$suffix"))
    try {
      spark.conf.set("spark.sql.files.maxPartitionBytes", (size / 5).toString)
      spark.conf.set("spark.sql.files.openCostInBytes", "0")
      val message = failure(read(typed, "mode" -> "FAILFAST"), ErrorClasses.UnconvertibleValue)
      assert(message.contains(s"line ${lineOf(480)},"), message)
      val rescued = read(typed, "rescuedDataColumn" -> "_rescued")
        .where("_rescued IS NOT NULL")
        .select("score", "_rescued")
        .head()
        .getString(1)
      assert(rescued.contains("\"_line\":" + lineOf(480)), rescued)
    } finally {
      spark.conf.unset("spark.sql.files.maxPartitionBytes")
      spark.conf.unset("spark.sql.files.openCostInBytes")
    }
  }

  test("conformance: a gzip file reads as the plain one") {
    val bytes = new ByteArrayOutputStream()
    val gz = new GZIPOutputStream(bytes)
    gz.write(encode(file(good: _*)))
    gz.close()
    Files.write(root.resolve(s"a.$suffix.gz"), bytes.toByteArray)
    assert(
      rows(read(typed).select("id", "name").orderBy("id")) == Seq(Seq(1, "ann"), Seq(2, "bob"), Seq(3, "cy"))
    )
  }

  if (malformedRecords) test("conformance: maxRecordTextBytes caps the corrupt-record text") {
    put(s"a.$suffix", file(good(0), malformed))
    val kept = read("columnNameOfCorruptRecord" -> "_corrupt", "maxRecordTextBytes" -> "4")
      .where("_corrupt IS NOT NULL")
      .head()
      .getAs[String]("_corrupt")
    assert(kept.startsWith(malformed.take(4)) && kept.contains("maxRecordTextBytes"), kept)
  }

  /** The messages of a read's failure, at planning (a format whose discovery samples records, as JSON's) or
    * when it runs, whose cause chain must hold spark-drill's error of `errorClass` (a task's SparkThrowable
    * reaches the driver as it is, or inside a SparkException, by Spark version).
    */
  protected def failure(df: => DataFrame, errorClass: String): String = {
    val e = intercept[Exception](df.collect())
    val chain = Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ != null).toSeq
    val message = chain.map(_.getMessage).mkString(" | ")
    val classes = chain.collect { case t: SparkThrowable => t.getErrorClass: @annotation.nowarn }
    assert(classes.contains(errorClass), message)
    message
  }

  /** The 1-based line of the `n`th record (1-based) of a file written by [[file]]. */
  protected def lineOf(n: Int): Long = preamble.count(_ == '\n') + n.toLong

  protected def rowOf(values: Any*): Row = Row(values: _*)
}
