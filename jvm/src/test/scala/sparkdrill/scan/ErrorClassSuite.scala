package sparkdrill.scan

import java.nio.file.Files

import scala.jdk.CollectionConverters._

import org.apache.spark.SparkThrowable
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.stream.StreamOptions
import sparkdrill.errors.{ErrorClasses, ErrorContext, OptionException, ScanException, SchemaException}

/** Every kind of error a scan raises carries its error class (a condition Spark, PySpark and Spark Connect
  * hand on) and the named parameters `sd.ScanError` is built from, and leads its message with `[CLASS]`.
  */
class ErrorClassSuite extends AnyFunSuite with TestFiles {
  private def open(options: (String, String)*): TableScan = ScanTestKit.open(Seq(root.toString), options)

  private def readAll(scan: TableScan): Unit = {
    val l = ScanTestKit.lifecycle(ScanTestKit.query(scan, scan.schema))
    try while (l.next()) {}
    finally l.close()
  }

  /** The class through Spark's interface (3.5 and 4 answer getErrorClass), and the parameters. */
  private def classAndParameters(e: Throwable): (String, Map[String, String]) = {
    val t = e.asInstanceOf[SparkThrowable]
    val errorClass = t.getErrorClass: @annotation.nowarn
    (errorClass, t.getMessageParameters.asScala.toMap)
  }

  private def check(e: Throwable, errorClass: String, parameters: (String, String)*): Map[String, String] = {
    val (got, params) = classAndParameters(e)
    assert(got == errorClass, e.getMessage)
    assert(e.getMessage.startsWith(s"[$errorClass] spark-drill: "), e.getMessage)
    assert(params.get("reason").exists(_.nonEmpty), params)
    parameters.foreach { case (k, v) => assert(params.get(k).contains(v), s"$k in $params") }
    assert(e.getMessage.contains(params("reason")), e.getMessage)
    params
  }

  test("a malformed record: file, line, offset and the mode's advice") {
    write("q.csv" -> "a,b\n1,ok\n2,\"never closed\n")
    val e = intercept[ScanException](readAll(open("header" -> "true", "mode" -> "FAILFAST")))
    val p = check(
      e,
      ErrorClasses.MalformedRecord,
      "file" -> s"$root/q.csv",
      "line" -> "3",
      "offset" -> "9",
      "reason" -> "malformed record: a quoted field is never closed"
    )
    assert(p("option").startsWith("mode=FAILFAST") && !p.contains("column"), p)
  }

  test("malformed JSON is a malformed record too") {
    write("a.json" -> "{\"id\": 1}\n{\"id\": 2,}\n")
    val e = intercept[ScanException](readAll(open("mode" -> "FAILFAST")))
    val p = check(e, ErrorClasses.MalformedRecord, "line" -> "2", "offset" -> "10", "value" -> "{\"id\": 2,}")
    assert(p("reason").startsWith("malformed JSON ("), p)
  }

  test(
    "an unconvertible value keeps its text exactly, quotes and parentheses included, shortened only in text"
  ) {
    val odd = "it's (odd) \"x\""
    write("bad.csv" -> s"id,name\n1,ann\n$odd,fred\n")
    val e = intercept[ScanException](
      readAll(open("header" -> "true", "providedSchema" -> "id INT", "mode" -> "FAILFAST"))
    )
    check(
      e,
      ErrorClasses.UnconvertibleValue,
      "column" -> "id",
      "value" -> odd,
      "line" -> "3",
      "reason" -> "cannot convert the value to int"
    )
    write("long.json" -> s"""{"n": "${"x" * 5000}"}\n""")
    Files.delete(root.resolve("bad.csv"))
    val long = intercept[ScanException](
      readAll(open("providedSchema" -> "n INT", "mode" -> "FAILFAST"))
    )
    val (_, p) = classAndParameters(long)
    assert(p("value") == "x" * ScanException.MaxKeptChars, "the kept value, not the message's 80 characters")
    assert(p("reason") == "cannot convert the JSON value to int" && p("column") == "n", p)
  }

  test("a record larger than maxRecordBytes") {
    write("big.json" -> s"""{"s": "${"y" * 3000}"}\n""")
    val e = intercept[ScanException](readAll(open("maxRecordBytes" -> "1024")))
    check(e, ErrorClasses.RecordTooLarge, "line" -> "1", "offset" -> "0")
  }

  test("a file gone since planning, and one that cannot be read") {
    write("a.csv" -> "x\n1\n", "b.csv" -> "x\n2\n")
    val scan = open("header" -> "true")
    Files.delete(root.resolve("b.csv"))
    val gone = intercept[ScanException](readAll(scan))
    val p = check(
      gone,
      ErrorClasses.MissingFile,
      "file" -> s"$root/b.csv",
      "option" -> "ignoreMissingFiles=true skips it"
    )
    assert(!p.contains("line") && !p.contains("offset"), p)
    Files.delete(root.resolve("a.csv"))
    Files.write(root.resolve("c.csv.gz"), "not gzip at all".getBytes("UTF-8"))
    val corrupt = intercept[ScanException](open("header" -> "true"))
    check(corrupt, ErrorClasses.UnreadableFile, "file" -> s"$root/c.csv.gz")
  }

  test("a reader's error without a kind: unconvertible with a column, malformed without") {
    val at = ErrorContext("/f")
    assert(at.error("x", column = "c").errorClass == ErrorClasses.UnconvertibleValue)
    assert(at.error("x").errorClass == ErrorClasses.MalformedRecord)
    assert(at.error("x", kind = ErrorClasses.SplitBoundary).errorClass == ErrorClasses.SplitBoundary)
    val blind = at.withoutPositions.error("x", line = 3, offset = 4, kind = ErrorClasses.RecordTooLarge)
    assert(classAndParameters(blind)._2 == Map("reason" -> "x", "file" -> "/f"))
  }

  test("option errors: unknown, without a counterpart, a bad value, two spellings that disagree") {
    def failure(options: (String, String)*) =
      intercept[OptionException](TableScan.parseOptions(options.toMap))
    check(failure("inferTyps" -> "true"), ErrorClasses.UnknownOption, "option" -> "inferTyps")
    assert(!classAndParameters(failure("inferTyps" -> "true"))._2.contains("value"))
    check(failure("samplingRatio" -> "0.5"), ErrorClasses.UnsupportedOption, "option" -> "samplingRatio")
    check(
      failure("recursiveFileLookup" -> "false"),
      ErrorClasses.UnsupportedOption,
      "option" -> "recursiveFileLookup"
    )
    check(
      failure("batchRows" -> "it's (many)"),
      ErrorClasses.BadOptionValue,
      "option" -> "batchRows",
      "value" -> "it's (many)"
    )
    check(
      failure("schemaMode" -> "loose"),
      ErrorClasses.BadOptionValue,
      "option" -> "schemaMode",
      "value" -> "loose"
    )
    check(failure("sep" -> ";", "delimiter" -> ","), ErrorClasses.BadOptionValue, "value" -> ",")
    val streamOnly = TableScan.parseOptions(Map("schemaLocation" -> "/x"), StreamOptions.all)
    val scope = intercept[OptionException](StreamOptions.checkScope(streamOnly, streaming = false))
    check(scope, ErrorClasses.UnsupportedOption, "option" -> "schemaLocation")
  }

  test(
    "schema errors: a conflict between files, a bad provided schema, a projection the table cannot serve"
  ) {
    write("a.json" -> "{\"x\": 1}\n", "b.json" -> "{\"x\": \"s\"}\n")
    check(intercept[SchemaException](open("typeConflict" -> "fail")), ErrorClasses.SchemaConflict)
    check(
      intercept[SchemaException](open("providedSchema" -> "x INT, x INT")),
      ErrorClasses.BadOptionValue,
      "option" -> "providedSchema"
    )
    check(intercept[SchemaException](open("project" -> "x[0]")), ErrorClasses.BadProjection)
  }
}
