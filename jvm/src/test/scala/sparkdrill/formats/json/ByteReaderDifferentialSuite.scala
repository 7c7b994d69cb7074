package sparkdrill.formats.json

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.Path

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.util.{ArrayData, MapData}
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalacheck.Gen

import sparkdrill.fuzz.{FuzzScan, FuzzSuite, JsonBreakage, JsonFuzzSuite, Mutation, Show}
import sparkdrill.reader.{RowFilter, ScanException}
import sparkdrill.scan.{ScanLifecycle, ScanTestKit, TableScan}
import sparkdrill.tags.Slow

/** The byte reader (issue 15) against Jackson's (`format=jackson-json`, the reader every JSON file had before
  * it): on the same file, with the same options, projection and row filter, the two must give the same rows,
  * value for value and type for type, the same `_line` and `_offset`, the same corrupt-record and rescued
  * text, the same error (message, line and offset), and count the same filtered records and dropped values.
  * The byte reader reads what it is sure of and leaves the rest to Jackson, so any difference is a bug in
  * what it claims to be sure of.
  *
  * The files: the fuzz suites' valid, mutated and broken JSON, records of tricky values under a provided
  * schema of every type the JSON reader converts to, files long enough to cross the byte reader's refills, and
  * files of values that are not objects.
  */
@Slow
class ByteReaderDifferentialSuite extends FuzzSuite {
  import ByteReaderDifferentialSuite._

  property("the fuzz suites' valid JSON reads alike", 80, JsonFuzzSuite.validExamples)(e =>
    sameReads(e.bytes)
  )

  property("mutated JSON reads alike, errors included", 150, JsonFuzzSuite.mutatedExamples)(e =>
    sameReads(e.bytes)
  )

  property("broken JSON lines read alike", 100, JsonFuzzSuite.brokenExamples)(e => sameReads(e.bytes))

  // Objects of more than one key are maps (SPEC 5): both readers write their entries through the map writers.
  property(
    "valid and mutated JSON with its objects read as maps reads alike",
    100,
    JsonFuzzSuite.mutatedExamples
  )(e =>
    for (mode <- FuzzScan.Modes)
      compare(
        e.bytes,
        Seq("mode" -> mode, "columnNameOfCorruptRecord" -> FuzzScan.Corrupt, "mapInferenceThreshold" -> "1"),
        Projection.All,
        None
      )
  )

  property("tricky values under a provided schema of every type read alike", 250, typedExamples)(sameTyped)

  property("long files that cross refills, and long records, read alike", 12, longExamples)(sameTyped)

  test("a file of values that are not objects is read alike, past the point where Jackson reads the rest") {
    val values = (0 until 300).map(i => if (i % 7 == 0) s"""{"value": $i}""" else s"$i").mkString("\n")
    sameReads(values.getBytes(UTF_8))
    val few = (0 until 300).map(i => if (i % 40 == 0) "[1, \"x\"]" else s"""{"a": $i}""").mkString("\n")
    sameReads(few.getBytes(UTF_8))
  }

  test("a byte-order mark, a NUL and lone carriage returns read alike") {
    Seq(
      "\uFEFF{\"a\": 1}\n{\"a\": 2}\n",
      "{\"a\": 1}\r{\"a\": 2}\r\r{\"a\": 3}",
      "{\"a\": 1}\n\u0000{\"a\": 2}\n{\"a\": 3}\n",
      "{\"a\": 1} {\"a\": 2}{\"a\": tru} {\"a\": 4}\n{\"a\": 5}\n",
      "{\"a\": 1}\n{\"a\": \"\\ud800\"}\n{\"a\": \"\u00e9\"}\n",
      "{\"a\": 1}\n{\"a\": 2",
      "{\"a\": 1}\rR\n{\"a\": 2}\r\rx\r\n{\"a\": 3}"
    ).foreach(t => sameReads(t.getBytes(UTF_8)))
  }

  test(
    "text that is not well-formed reads alike: malformed in both, wherever it is and whoever reads the file"
  ) {
    def b(xs: Int*): Array[Byte] = xs.map(_.toByte).toArray
    def t(s: String): Array[Byte] = s.getBytes(UTF_8)
    val bad = JsonBreakage.NotText ++ Seq(b(0xc1, 0xbf), b(0xf7, 0xbf, 0xbf, 0xbf), t("\\ud800\\ud800"))
    bad.foreach { x =>
      Seq(
        t("{\"a\": 1}\n{\"a\": \"") ++ x ++ t("\"}\n{\"a\": 3}\n"),
        t("{\"a\": 1, \"b\": \"x\"}\n{\"a\": 2, \"b\": \"") ++ x ++ t("\"}\n{\"a\": 3}\n"),
        t("{\"a\": 1}\n{\"a\": 2, \"") ++ x ++ t("\": 0}\n{\"a\": 3}\n"),
        t("{\"a\": 1} {\"a\": [\"") ++ x ++ t("\"]}\r\n{\"a\": 3}"),
        t("\uFEFF{\"a\": 1}\n{\"a\": \"") ++ x ++ t("\"}\n{\"a\": 3}\n"),
        t("1\n\"") ++ x ++ t("\"\n3\n"),
        t("[{\"a\": 1}, {\"a\": \"") ++ x ++ t("\"}]")
      ).foreach(sameReads)
    }
    // Past the point where Jackson reads the rest of the file; and a long record cut by the bytes at hand.
    val many =
      (0 until 300).map(i => if (i % 3 == 1) t("[1]\n") else t("{\"a\": " + i + "}\n")).reduce(_ ++ _)
    sameReads(many ++ t("{\"a\": \"") ++ b(0xc0, 0xaf) ++ t("\"}\n{\"a\": 1}\n"))
    val long = t("{\"a\": 1}\n{\"a\": \"" + "x" * 200000) ++ b(0xed, 0xa0, 0x80) ++ t("\"}\n{\"a\": 3}\n")
    sameReads(long)
  }

  test(
    "a broken record after a lone carriage return is on the next line, in both readers (Jackson's count)"
  ) {
    val file = FuzzScan.write(root, "f.json", "{\"a\": 1}\rR\n{\"a\": 2}\r\n\r{\"a\": 3}".getBytes(UTF_8))
    try
      for (format <- Seq("json", JacksonJsonFormat.Name)) {
        val scan = ScanTestKit.open(Seq(file.toString), Seq("format" -> format))
        val lines = FuzzScan.read(scan, FuzzScan.withPositions(scan)).map(_.map(r => r(r.size - 2)))
        assert(lines == Right(Vector("1", "2", "3", "5")), s"$format: $lines")
      }
    finally FuzzScan.delete(file)
  }

  /** Both readers over `bytes` with discovery, in every mode, projected whole and as count(*). */
  private def sameReads(bytes: Array[Byte]): Unit =
    for (mode <- FuzzScan.Modes)
      compare(
        bytes,
        Seq("mode" -> mode, "columnNameOfCorruptRecord" -> FuzzScan.Corrupt),
        Projection.All,
        None
      )

  private def sameTyped(e: TypedExample): Unit = compare(e.bytes, e.options, e.projection, e.filter)

  private def compare(
      bytes: Array[Byte],
      options: Seq[(String, String)],
      projection: Projection,
      filter: Option[RowFilter]
  ): Unit = {
    val file = FuzzScan.write(root, "f.json", bytes)
    try {
      val byBytes = read(file, options, projection, filter)
      val byJackson = read(file, options :+ ("format" -> JacksonJsonFormat.Name), projection, filter)
      assert(
        byBytes == byJackson,
        s"options $options, $projection, filter $filter:\n  bytes:   ${show(byBytes)}\n  jackson: ${show(byJackson)}" +
          s"\n  file: ${Show.bytes(bytes)}"
      )
    } finally FuzzScan.delete(file)
  }

  private def show(r: Read): String = r.toString.take(4000)

  private def read(
      file: Path,
      options: Seq[(String, String)],
      projection: Projection,
      filter: Option[RowFilter]
  ): Read =
    try {
      val scan = ScanTestKit.open(Seq(file.toString), options)
      val required = projection.of(scan)
      val plan = scan.plan(required, Nil, Long.MaxValue, ScanTestKit.OneTask, filter)
      val lifecycle = new ScanLifecycle(plan.spec, plan.tasks.flatten, ScanTestKit.conf)
      val rows = Vector.newBuilder[String]
      try
        while (lifecycle.next()) {
          val batch = lifecycle.batch
          (0 until batch.numRows).foreach { r =>
            rows += render(batch.getRow(r), required)
          }
        }
      finally lifecycle.close()
      Read(Right(rows.result()), lifecycle.rowsFiltered, lifecycle.droppedValues)
    } catch {
      case e: ScanException => Read(Left((e.getMessage, e.line, e.offset)), 0, 0)
    }
}

object ByteReaderDifferentialSuite {

  /** A read's rows (rendered) or error (message, line, offset), with its filtered and dropped counts. */
  final case class Read(outcome: Either[(String, Long, Long), Vector[String]], filtered: Long, dropped: Long)

  /** Which columns a read asks for: all of them with the record positions, a few, or none (count(*)). */
  sealed trait Projection {
    def of(scan: TableScan): StructType
  }

  object Projection {
    case object All extends Projection {
      def of(scan: TableScan): StructType = FuzzScan.withPositions(scan)
    }
    final case class Some(names: Seq[String]) extends Projection {
      def of(scan: TableScan): StructType =
        StructType(names.flatMap(n => scan.schema.fields.find(_.name.equalsIgnoreCase(n))))
    }
    case object CountOnly extends Projection {
      def of(scan: TableScan): StructType = new StructType()
    }
  }

  /** A value of any type as text: types named, so that a value of another type never compares equal. */
  def render(row: InternalRow, schema: StructType): String =
    schema.fields.indices.map(i => value(row, i, schema(i).dataType)).mkString("(", ", ", ")")

  private def value(row: InternalRow, i: Int, t: DataType): String =
    if (row.isNullAt(i)) "null" else any(row.get(i, t), t)

  private def any(v: Any, t: DataType): String = (v, t) match {
    case (null, _) => "null"
    case (r: InternalRow, s: StructType) => render(r, s)
    case (a: ArrayData, ArrayType(e, _)) =>
      (0 until a.numElements())
        .map(j => if (a.isNullAt(j)) "null" else any(a.get(j, e), e))
        .mkString("[", ", ", "]")
    case (m: MapData, MapType(k, vt, _)) =>
      val keys = any(m.keyArray(), ArrayType(k))
      val values = any(m.valueArray(), ArrayType(vt))
      s"map($keys -> $values)"
    case (b: Array[Byte], _) => s"binary(${b.map(x => f"${x & 0xff}%02x").mkString})"
    case (d: Double, _) => s"double(${java.lang.Double.doubleToRawLongBits(d)}, $d)"
    case (f: Float, _) => s"float(${java.lang.Float.floatToRawIntBits(f)}, $f)"
    case (other, _) => s"${t.simpleString}($other)"
  }

  final case class TypedExample(
      bytes: Array[Byte],
      options: Seq[(String, String)],
      projection: Projection,
      filter: Option[RowFilter]
  ) {
    override def toString: String =
      s"typed example: options $options, $projection, filter $filter\n  file: ${Show.bytes(bytes)}"
  }

  /** The provided schema: every type the JSON reader converts to, a NOT NULL column with a default, and one
    * without.
    */
  val Schema: String =
    "l bigint, i int, sh smallint, ty tinyint, d double, f float, b boolean, n decimal(10,2), dt date, " +
      "ts timestamp, tn timestamp_ntz, bin binary, str string, st struct<x: bigint, y: string>, " +
      "al array<bigint>, astr array<string>, m map<string, bigint>, nn bigint not null default 5, " +
      "nz string not null"

  private val Keys: Vector[String] =
    Vector(
      "l",
      "i",
      "sh",
      "ty",
      "d",
      "f",
      "b",
      "n",
      "dt",
      "ts",
      "tn",
      "bin",
      "str",
      "st",
      "al",
      "astr",
      "m",
      "nn",
      "nz"
    )

  // Keys spelled otherwise (matched trimmed and case-insensitively), and keys no column has.
  private val OtherKeys: Vector[String] = Vector(" l", "L", "Str ", "zz", "", "extra", "\\u0061")

  private val Integers = Vector(
    "0",
    "-0",
    "7",
    "-12",
    "127",
    "128",
    "-129",
    "32767",
    "32768",
    "2147483647",
    "2147483648",
    "-2147483649",
    "123456789012345678",
    "1234567890123456789",
    "-9223372036854775808",
    "9223372036854775807",
    "99999999999999999999",
    "1700000000000"
  )
  private val Fractions = Vector(
    "1.5",
    "-0.0",
    "0.1",
    "1e3",
    "1E-3",
    "2.5e+10",
    "123456.789",
    "1.7976931348623157e308",
    "4.9e-324",
    "1e400",
    "-1e400",
    "0.30000000000000004",
    "9007199254740993.0",
    "123456789012345.6",
    "1234567890123456.7",
    "1.00",
    "12.345",
    "0.000001",
    "5e-324",
    "2.2250738585072014E-308",
    "1e22",
    "1e23",
    "123e-20",
    "7.0"
  )
  private val Strings = Vector(
    "\"\"",
    "\"  \"",
    "\"\\t\"",
    "\"\\n \"",
    "\"12\"",
    "\" 42 \"",
    "\"1e3\"",
    "\"+5\"",
    "\"007\"",
    "\"1.0\"",
    "\"1.5\"",
    "\"true\"",
    "\"TRUE\"",
    "\" False \"",
    "\"2024-02-29\"",
    "\"2024-02-30\"",
    "\"2024-01-01 10:20:30\"",
    "\"2024-01-01T10:20:30Z\"",
    "\"2024-01-01T10:20:30+02:00\"",
    "\"2024-01-01T10:20:30.123456\"",
    "\"2024-01-01 10:20:30+0530\"",
    "\"2024-01-01T10:20Z\"",
    "\"2024-03-10T02:30:00\"",
    "\"2024-11-03 01:30:00.5\"",
    "\"2024-01-01T10:20:30.5-07:00\"",
    "\"2024-12-31T23:59:59.999999999+14:00\"",
    "\"2024-01-01T10:20:30+18:30\"",
    "\"2024-01-01T10:20:30+18:00\"",
    "\"2024-01-01T10:20:30-00:00\"",
    "\"2024-01-01T10:20:30z\"",
    "\" 2024-01-01T10:20:30Z \"",
    "\"2024-01-01Z\"",
    "\"2024-01-01T10:20:30.1234567890Z\"",
    "\"0001-01-01T00:00:00Z\"",
    "\"aGVsbG8=\"",
    "\"not base64!\"",
    "\"\u00e9\"",
    "\"\\u00e9\"",
    "\"\\ud83d\\ude00\"",
    "\"\\ud83d\"",
    "\"\\ude00x\"",
    "\"\\ud83d\\u0041\"",
    "\"\\\\ud83d\"",
    "\"NaN\"",
    "\"Infinity\"",
    "\"12.50\"",
    "\"abc\"",
    "\"a\\\"b\\\\c\\/d\"",
    "\"\u6f22\u5b57 \ud83d\ude00\"",
    "\"\\u0000\"",
    "\"\u007f\"",
    "\"-3\"",
    "\"9999999999.999\""
  )
  private val Others = Vector(
    "true",
    "false",
    "null",
    "{}",
    "{\"x\": 1}",
    "{\"x\": \"7\", \"y\": 2, \"z\": []}",
    "[]",
    "[1, 2]",
    "[null, 3]",
    "[\"a\", null]",
    "{\"k\": 1, \"m\": null}",
    "[[1]]",
    "NaN",
    "Infinity",
    "-Infinity",
    "{\"X\": 3, \" y \": \"q\"}",
    "{\"k\": \"v\"}",
    "[1.5]",
    "[\"1\", true]"
  )

  private val anyValue: Gen[String] =
    Gen.frequency(
      3 -> Gen.oneOf(Integers),
      3 -> Gen.oneOf(Fractions),
      4 -> Gen.oneOf(Strings),
      3 -> Gen.oneOf(Others),
      2 -> Gen
        .choose(-1e6, 1e6)
        .map(d => BigDecimal(d).setScale(3, BigDecimal.RoundingMode.HALF_UP).toString),
      1 -> Gen.choose(Long.MinValue, Long.MaxValue).map(_.toString)
    )

  private val record: Gen[String] =
    for {
      n <- Gen.choose(0, 8)
      keys <- Gen.listOfN(n, Gen.frequency(8 -> Gen.oneOf(Keys), 1 -> Gen.oneOf(OtherKeys)))
      values <- Gen.listOfN(n, anyValue)
      sep <- Gen.oneOf(", ", ",", " ,\r\n  ", ",\n\t")
      colon <- Gen.oneOf(": ", ":", " : ")
    } yield keys.zip(values).map { case (k, v) => "\"" + k + "\"" + colon + v }.mkString("{", sep, "}")

  private def file(records: Gen[String], max: Int): Gen[Array[Byte]] =
    for {
      n <- Gen.choose(1, max)
      rs <- Gen.listOfN(n, records)
      end <- Gen.oneOf("\n", "\r\n", " ", "")
    } yield rs.mkString("", end, "\n").getBytes(UTF_8)

  private val filters: Gen[Option[RowFilter]] = {
    import RowFilter._
    import RowFilter.Op._
    Gen.oneOf(
      None,
      Some(Compare("l", Greater, java.lang.Long.valueOf(0L))),
      Some(Compare("d", Less, java.lang.Double.valueOf(100.0))),
      Some(IsNull("str")),
      Some(IsNotNull("i")),
      Some(StartsWith("str", UTF8String.fromString("a"))),
      Some(In("l", Seq(java.lang.Long.valueOf(7L), java.lang.Long.valueOf(0L)))),
      Some(Compare("b", Equal, java.lang.Boolean.TRUE))
    )
  }

  private val projections: Gen[Projection] =
    Gen.frequency(
      4 -> Gen.const(Projection.All),
      2 -> Gen.someOf(Keys).map(ks => Projection.Some(ks.toSeq)),
      1 -> Gen.const(Projection.CountOnly)
    )

  private def typedOptions: Gen[Seq[(String, String)]] =
    for {
      mode <- Gen.oneOf(FuzzScan.Modes)
      validate <- Gen.oneOf("projected", "all")
      rescue <- Gen.oneOf(true, false)
      sample <- Gen.oneOf("1000", "1", "2")
      batchRows <- Gen.oneOf("4096", "3")
      zone <- Gen.oneOf("UTC", "America/Los_Angeles", "+05:30")
    } yield Seq(
      "timeZone" -> zone,
      "mode" -> mode,
      "validate" -> validate,
      "providedSchema" -> Schema,
      "columnNameOfCorruptRecord" -> FuzzScan.Corrupt,
      "sampleRows" -> sample,
      "batchRows" -> batchRows
    ) ++ (if (rescue) Seq("rescuedDataColumn" -> "_rescued_data") else Nil)

  val typedExamples: Gen[TypedExample] =
    for {
      bytes <- Gen.frequency(
        6 -> file(record, 12),
        1 -> file(Gen.oneOf(record, anyValue), 12),
        1 -> file(record, 6).flatMap(b => Mutation.some(Mutation.JsonSpecials).map(Mutation.applyAll(b, _)))
      )
      options <- typedOptions
      projection <- projections
      filter <- filters
    } yield TypedExample(bytes, options, projection, filter)

  // Records well past the byte reader's 64 KiB reads, among them strings longer than one read, so that records
  // are cut by the end of the bytes at hand and read again.
  private val longRecord: Gen[String] =
    Gen.frequency(
      20 -> record,
      1 -> Gen.choose(1000, 200000).map(n => "{\"str\": \"" + ("x\\u00e9" * (n / 7)) + "\", \"l\": 3}")
    )

  val longExamples: Gen[TypedExample] =
    for {
      n <- Gen.choose(1500, 4000)
      rs <- Gen.listOfN(n, longRecord)
      options <- typedOptions
      projection <- projections
      filter <- filters
    } yield TypedExample(rs.mkString("\n").getBytes(UTF_8), options, projection, filter)

}
