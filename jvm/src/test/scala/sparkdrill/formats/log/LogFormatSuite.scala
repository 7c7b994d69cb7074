package sparkdrill.formats.log

import org.apache.spark.sql.DataFrame
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.{LocalSpark, TestFiles}

/** What `format=log` adds to the template's duties (SPEC 12): the presets, named groups in order, `-` as null,
  * pattern errors at planning, the `.log` suffix, lines that are not ASCII.
  */
class LogFormatSuite extends AnyFunSuite with TestFiles with LocalSpark {
  private def read(options: (String, String)*): DataFrame =
    spark.read.format("drill").options(options.toMap).load(root.toString)
  private def rows(df: DataFrame): Seq[Seq[Any]] = df.collect().toSeq.map(_.toSeq)

  private val access = Seq(
    """192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://example.com/start" "Mozilla/4.08 [en] (Win98; I ;Nav)"""",
    """192.0.2.2 - - [10/Oct/2000:13:55:37 -0700] "-" 408 - "-" "-"""",
    """192.0.2.3 - - [10/Oct/2000:13:55:38 -0700] "POST /login HTTP/1.1" 302 0 "-" "curl \"quoted\" 8.0" "198.51.100.7""""
  )

  test(
    "combined: the preset's columns, - as null, a request that is not one, escaped quotes, a trailing field"
  ) {
    write("httpd/access.log" -> access.mkString("", "\n", "\n"))
    val df = read("logPattern" -> "combined")
    assert(
      df.schema.fieldNames.toSeq.take(11) ==
        Seq(
          "host",
          "ident",
          "user",
          "time",
          "method",
          "path",
          "protocol",
          "status",
          "bytes",
          "referer",
          "agent"
        )
    )
    assert(
      rows(
        df.select("user", "method", "path", "protocol", "status", "bytes", "referer", "agent").orderBy("host")
      ) ==
        Seq(
          Seq(
            "frank",
            "GET",
            "/apache_pb.gif",
            "HTTP/1.0",
            "200",
            "2326",
            "http://example.com/start",
            "Mozilla/4.08 [en] (Win98; I ;Nav)"
          ),
          Seq(null, null, null, null, "408", null, null, null),
          Seq(null, "POST", "/login", "HTTP/1.1", "302", "0", null, """curl \"quoted\" 8.0""")
        )
    )
  }

  test("common, typed: status and bytes by inferTypes, time by its format; a pushed filter") {
    val common = access.map(_.replaceAll(""" "[^"]*" "(?:[^"\\]|\\.)*"(?: .*)?$""", ""))
    write("access.log" -> common.mkString("\n"))
    val df = read(
      "logPattern" -> "common",
      "inferTypes" -> "true",
      "providedSchema" -> "time TIMESTAMP",
      "format.time" -> "dd/MMM/yyyy:HH:mm:ss Z"
    )
    assert(df.schema("status").dataType.simpleString == "int")
    assert(df.schema("bytes").dataType.simpleString == "int")
    val first = df.where("status = 200").select("time").head().getTimestamp(0)
    assert(first.toInstant.toString == "2000-10-10T20:55:36Z")
    assert(rows(df.where("bytes IS NULL").select("status")) == Seq(Seq(408)))
  }

  test(
    "named groups are columns in the order they open; unnamed groups give none; an optional group is null"
  ) {
    write("app.log" -> "2024-01-01 12:00:00 INFO [main] started\n\n2024-01-01 12:00:01 WARN  slow\r\n")
    val df = read(
      "regex" -> """^(?<ts>(?<day>\S+) \S+) (?<level>[A-Z]+) +(?:\[(?<thread>[^\]]*)\] )?(?<msg>.*)$"""
    )
    assert(df.schema.fieldNames.toSeq.take(5) == Seq("ts", "day", "level", "thread", "msg"))
    assert(
      rows(df.select("ts", "day", "level", "thread", "msg", "_line").orderBy("_line")) == Seq(
        Seq("2024-01-01 12:00:00", "2024-01-01", "INFO", "main", "started", 1L),
        Seq("2024-01-01 12:00:01", "2024-01-01", "WARN", null, "slow", 3L)
      )
    )
  }

  test("a line that is not ASCII is matched as characters, not bytes") {
    write("u.log" -> "ééx naïve\nab rest\n")
    val df = read("regex" -> """^(?<two>.{2})(?<rest>.*)$""")
    assert(rows(df.select("two", "rest").orderBy("_line")) == Seq(Seq("éé", "x naïve"), Seq("ab", " rest")))
  }

  test(".log files are read only when a pattern is given; other suffixes beside them as their own format") {
    write("a.log" -> "1 x\n", "b.csv" -> "n\n5\n")
    assert(read("header" -> "true").schema.fieldNames.toSeq.filterNot(_.startsWith("_")) == Seq("n"))
    assert(read("header" -> "true", "regex" -> """(?<id>\d+) (?<v>\w+)""").count() == 2)
  }

  test("discovery opens no log file: the pattern is the schema (a corrupt file fails only when read)") {
    write("a.log" -> "1 x\n")
    java.nio.file.Files.write(root.resolve("b.log.gz"), "not gzip".getBytes("UTF-8"))
    val df = read("regex" -> """(?<id>\d+) (?<v>\w+)""")
    assert(df.columns.take(2).toSeq == Seq("id", "v"))
    val e = intercept[Exception](df.collect())
    val chain =
      Iterator.iterate[Throwable](e)(_.getCause).takeWhile(_ != null).map(_.getMessage).mkString(" | ")
    assert(chain.contains("b.log.gz"), chain)
    assert(read("regex" -> """(?<id>\d+) (?<v>\w+)""", "ignoreCorruptFiles" -> "true").count() == 1)
  }

  private def planningError(options: (String, String)*): String =
    intercept[IllegalArgumentException](read(options: _*).schema).getMessage

  test("pattern errors at planning: none, both, not compiling (with where), no named group") {
    write("a.log" -> "x\n")
    assert(planningError("format" -> "log").contains("needs the option regex"))
    assert(
      planningError("format" -> "log", "regex" -> "(?<a>x)", "logPattern" -> "common").contains("not both")
    )
    val bad = planningError("regex" -> "(?<a>x")
    assert(bad.contains("does not compile") && bad.contains("near index") && bad.contains("(?<a>x"), bad)
    assert(planningError("regex" -> "(x)").contains("no named group"))
    assert(planningError("logPattern" -> "fancy").contains("common"))
  }
}
