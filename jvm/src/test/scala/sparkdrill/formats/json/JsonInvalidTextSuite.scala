package sparkdrill.formats.json

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.Path

import org.apache.spark.sql.types.StructType
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.fuzz.FuzzScan
import sparkdrill.reader.{RowFilter, ScanException}
import sparkdrill.scan.ScanTestKit

/** Text that is not well-formed inside a JSON string (issue 29, found by a public JSON test suite): UTF-8 that
  * RFC 3629 forbids (overlong forms, surrogates, code points past U+10FFFF, 5- and 6-byte forms, stray
  * continuation bytes, sequences cut short) and surrogate escapes that are not a pair. docs/errors.md: such a
  * record is malformed, in both JSON readers (the byte reader and Jackson's, `jackson-json`), at discovery as
  * when reading: FAILFAST names it, PERMISSIVE keeps a row of nulls with its text, DROPMALFORMED drops it. Jackson
  * alone decoded the overlong `C0 AF` as `/`, a code point past U+10FFFF and a lone surrogate escape as `?`.
  * Strings that are well-formed (surrogate pairs as escapes, the edges of each UTF-8 length) still read.
  */
class JsonInvalidTextSuite extends AnyFunSuite with TestFiles {
  import JsonInvalidTextSuite._

  private val Formats = Seq("json", JacksonJsonFormat.Name)

  private def file(name: String, parts: Array[Byte]*): Path =
    FuzzScan.write(root, name, parts.reduce(_ ++ _))

  private def open(f: Path, format: String, options: (String, String)*) =
    ScanTestKit.open(Seq(f.toString), Seq("format" -> format) ++ options)

  private def rows(f: Path, format: String, options: (String, String)*): FuzzScan.Rows = {
    val scan = open(f, format, options: _*)
    FuzzScan
      .read(scan, FuzzScan.withPositions(scan))
      .fold(e => fail(s"$format: ${e.getMessage}", e), identity)
  }

  private def count(f: Path, format: String, options: (String, String)*): Either[ScanException, Int] =
    FuzzScan.read(open(f, format, options: _*), new StructType()).map(_.size)

  private def failure(what: String)(body: => Any): ScanException =
    try {
      body
      fail(s"$what: no error")
    } catch { case e: ScanException => e }

  /** The second of three records: `content` inside the string `s`, and a key `t` no other record has. */
  private def record2(content: Array[Byte]): Array[Byte] =
    ascii("{\"id\": 2, \"s\": \"") ++ content ++ ascii("\", \"t\": 1}")

  private def threeRecords(content: Array[Byte]): Path =
    file("f.json", ascii(Line1), record2(content), ascii("\n"), ascii(Line3))

  /** The documented outcome of every mode, in each reader, for a file whose record at line 2 (`record2`, at
    * byte `offset`) is malformed; the same error from both readers.
    */
  private def malformedAtLine2(f: Path, what: String, record2: Array[Byte], offset: Long): Unit = {
    // As the corrupt-record column and errors hold it: invalid UTF-8 decoded as U+FFFD.
    val text = new String(record2, UTF_8)
    val messages = Formats.map { format =>
      val clue = s"$what, $format"
      // PERMISSIVE: discovery leaves the record out (no column `t`), the read keeps a row of nulls with its text.
      val permissive = open(f, format, "columnNameOfCorruptRecord" -> "_corrupt")
      assert(permissive.schema.fieldNames.toSeq == Seq("id", "s", "_corrupt"), clue)
      assert(
        rows(f, format, "columnNameOfCorruptRecord" -> "_corrupt") == Vector(
          Vector("1", "a", null, "1", "0"),
          Vector(null, null, text, "2", s"$offset"),
          Vector("3", "c", null, "3", s"${offset + record2.length + 1}")
        ),
        clue
      )
      assert(count(f, format) == Right(3), clue)
      // DROPMALFORMED: dropped, from the rows and from count(*).
      assert(
        rows(f, format, "mode" -> "DROPMALFORMED")
          .map(_.take(2)) == Vector(Vector("1", "a"), Vector("3", "c")),
        clue
      )
      assert(count(f, format, "mode" -> "DROPMALFORMED") == Right(2), clue)
      // FAILFAST: discovery fails naming the record; past a sample that leaves it out, so does the read, and
      // count(*).
      val atDiscovery = failure(clue)(open(f, format, "mode" -> "FAILFAST"))
      val sampled = open(f, format, "mode" -> "FAILFAST", "sampleRows" -> "1")
      val atRead = FuzzScan.read(sampled, FuzzScan.withPositions(sampled))
      val atCount = FuzzScan.read(sampled, new StructType())
      val errors =
        atDiscovery +: Seq(atRead, atCount).map(_.fold(identity, _ => fail(s"$clue: FAILFAST read it")))
      errors.foreach { e =>
        assert(e.reason.startsWith("malformed JSON ("), s"$clue: ${e.getMessage}")
        assert(e.path.endsWith("/f.json") && e.line == 2 && e.offset == offset, s"$clue: ${e.getMessage}")
        assert(e.value.contains(text), s"$clue: ${e.getMessage}")
        assert(e.reason.contains(" at line 2, column "), s"$clue: ${e.getMessage}")
      }
      atDiscovery.reason
    }
    assert(messages.distinct.size == 1, s"$what: the readers report it differently: $messages")
  }

  /** Runs `body` for every case, then fails naming each case that failed (not only the first). */
  private def eachCase[T](cases: Seq[T])(name: T => String)(body: T => Unit): Unit = {
    val failed = cases.flatMap { c =>
      try { body(c); None }
      catch { case e: org.scalatest.exceptions.TestFailedException => Some(s"${name(c)}: ${e.getMessage}") }
    }
    // As \\uXXXX beyond ASCII: a lone surrogate in a message breaks the test report's XML.
    def printable(s: String) = s.flatMap(ch => if (ch < 0x80) ch.toString else f"\\u${ch.toInt}%04x")
    assert(
      failed.isEmpty,
      printable(s"${failed.size} of ${cases.size} cases failed:\n${failed.mkString("\n")}")
    )
  }

  test("invalid UTF-8 inside a string makes the record malformed, in every mode, in both readers") {
    eachCase(Invalid)(_._1) { case (what, content) =>
      val f = threeRecords(content)
      try malformedAtLine2(f, what, record2(content), Line1.length.toLong)
      finally FuzzScan.delete(f)
    }
  }

  test("surrogate escapes that are not a pair make the record malformed, in every mode, in both readers") {
    eachCase(LoneSurrogates)(identity) { escapes =>
      val f = threeRecords(ascii(escapes))
      try malformedAtLine2(f, escapes, record2(ascii(escapes)), Line1.length.toLong)
      finally FuzzScan.delete(f)
    }
  }

  test("the same in a member's name, in an array, in a struct, and as a top-level string") {
    val samples =
      Seq(bytes(0xc0, 0xaf), bytes(0xf4, 0x90, 0x80, 0x80), bytes(0xed, 0xa0, 0x80), ascii("\\ud800"))
    val cases = for {
      content <- samples
      place <- Seq("name", "array", "struct", "top-level string")
    } yield (content.map(b => f"${b & 0xff}%02x").mkString(" ") + " in a " + place, place, content)
    eachCase(cases)(_._1) { case (what, place, content) =>
      if (place == "top-level string") {
        // Rows of the column `value`.
        val f = file("v.json", ascii("\"a\"\n\""), content, ascii("\"\n\"c\"\n"))
        try
          Formats.foreach { format =>
            val clue = s"$what, $format"
            assert(rows(f, format, "mode" -> "DROPMALFORMED").map(_.head) == Vector("a", "c"), clue)
            val e = failure(clue)(open(f, format, "mode" -> "FAILFAST"))
            assert(
              e.reason.startsWith("malformed JSON (") && e.line == 2 && e.offset == 4,
              s"$clue: ${e.getMessage}"
            )
            val permissive = rows(f, format, "columnNameOfCorruptRecord" -> "_corrupt")
            assert(
              permissive.map(r => (r(0), r(1) != null)) == Vector(("a", false), (null, true), ("c", false)),
              clue
            )
          }
        finally FuzzScan.delete(f)
      } else {
        val record = place match {
          case "name" => ascii("{\"id\": 2, \"s\": \"b\", \"t") ++ content ++ ascii("\": 1}")
          case "array" => ascii("{\"id\": 2, \"s\": \"b\", \"t\": [\"x\", \"") ++ content ++ ascii("\"]}")
          case _ => ascii("{\"id\": 2, \"s\": \"b\", \"t\": {\"u\": \"") ++ content ++ ascii("\"}}")
        }
        val f = file("f.json", ascii(Line1), record, ascii("\n"), ascii(Line3))
        try malformedAtLine2(f, what, record, Line1.length.toLong)
        finally FuzzScan.delete(f)
      }
    }
  }

  test("the error says what is wrong, and its line and column in the file, alike in both readers") {
    val cases = Seq(
      (ascii(Line1), bytes(0xc0, 0xaf), "Invalid UTF-8 (0xC0 0xAF): an overlong form at line 2, column 17"),
      (
        ascii(Line1),
        bytes(0xf4, 0x90, 0x80, 0x80),
        "Invalid UTF-8 (0xF4 0x90 0x80 0x80): a code point past U+10FFFF at line 2, column 17"
      ),
      (
        ascii(Line1),
        bytes(0xed, 0xa0, 0x80),
        "Invalid UTF-8 (0xED 0xA0 0x80): a surrogate encoded in UTF-8 at line 2, column 17"
      ),
      (
        ascii(Line1),
        ascii("ab\\ud800x"),
        "Invalid escape \\ud800: a high surrogate not followed by a low surrogate escape at line 2, column 19"
      ),
      (
        ascii(Line1),
        ascii("\\udc00"),
        "Invalid escape \\udc00: a low surrogate that follows no high one at line 2, column 17"
      ),
      // After another record on its line: the column counts from the line's start.
      (
        ascii(Line1.trim + " "),
        bytes(0xc0, 0xaf),
        "Invalid UTF-8 (0xC0 0xAF): an overlong form at line 1, column 37"
      )
    )
    eachCase(cases)(_._3) { case (before, content, expected) =>
      val f = file("f.json", before, record2(content), ascii("\n"), ascii(Line3))
      try
        for (format <- Formats) {
          val e = failure(format)(open(f, format, "mode" -> "FAILFAST"))
          assert(e.reason == s"malformed JSON ($expected)", format)
          assert(e.offset == before.length, format)
        }
      finally FuzzScan.delete(f)
    }
    // A record over three lines, its bad text on the third: the record's line and offset, the text's line.
    val f = file(
      "f.json",
      ascii(Line1),
      ascii("{\"id\": 2,\r\n  \"t\": 1,\n  \"s\": \"x"),
      bytes(0xe0, 0x80, 0xaf),
      ascii("\"}\n"),
      ascii(Line3)
    )
    for (format <- Formats) {
      val e = failure(format)(open(f, format, "mode" -> "FAILFAST"))
      assert(
        e.reason == "malformed JSON (Invalid UTF-8 (0xE0 0x80 0xAF): an overlong form at line 4, column 10)"
      )
      assert(e.line == 2 && e.offset == Line1.length, format)
      val permissive = rows(f, format, "mode" -> "DROPMALFORMED", "sampleRows" -> "1")
      assert(permissive.map(_.take(2)) == Vector(Vector("1", "a"), Vector("3", "c")), format)
    }
  }

  test("a name that is not well-formed, in record after record, makes each malformed (no internal error)") {
    // Jackson's reader matches a name in place against the one the record before had there, encoded again
    // as UTF-8: a lone surrogate in it failed that encoding (IllegalArgumentException), not the record.
    val names = Seq(ascii("\\ud800"), bytes(0xed, 0xa0, 0x80), ascii("\\udc00\\u0041"))
    eachCase(names)(n => n.map(b => f"${b & 0xff}%02x").mkString(" ")) { name =>
      val record = ascii("{\"id\": 2, \"t") ++ name ++ ascii("\": 1}\n")
      val f = file("f.json", ascii(Line1), record, record, record, ascii(Line3))
      try
        for (format <- Formats; mode <- Seq("PERMISSIVE", "DROPMALFORMED")) {
          val got = rows(f, format, "mode" -> mode, "columnNameOfCorruptRecord" -> "_corrupt")
          val expected = if (mode == "PERMISSIVE") 5 else 2
          assert(got.size == expected && got.head.take(2) == Vector("1", "a"), s"$format, $mode")
          assert(count(f, format, "mode" -> mode).map(_ == expected) == Right(true), s"$format, $mode")
        }
      finally FuzzScan.delete(f)
    }
  }

  test("inside a root array it fails the read in every mode") {
    val f = file(
      "r.json",
      ascii("[{\"id\": 1}, {\"id\": 2, \"s\": \""),
      bytes(0xc0, 0xaf),
      ascii("\"}, {\"id\": 3}]\n")
    )
    for (format <- Formats; mode <- FuzzScan.Modes) {
      val e = failure(s"$format, $mode") {
        val scan = open(f, format, "mode" -> mode)
        FuzzScan.read(scan, scan.schema).fold(e => throw e, identity)
      }
      assert(e.reason.startsWith("malformed JSON (") && e.offset == 12, s"$format, $mode: ${e.getMessage}")
    }
  }

  test("with a pushed row filter, a record that passes it is still malformed") {
    val f = threeRecords(bytes(0xc0, 0xaf))
    val filter = Some(RowFilter.Compare("id", RowFilter.Op.Greater, java.lang.Long.valueOf(0L)))
    for (format <- Formats) {
      val scan = open(f, format, "mode" -> "DROPMALFORMED", "providedSchema" -> "id bigint, s string")
      val required = StructType(scan.schema.fields.filter(f => f.name == "id" || f.name == "s"))
      val plan = scan.plan(required, Nil, Long.MaxValue, ScanTestKit.OneTask, filter)
      val l = new sparkdrill.scan.ScanLifecycle(plan.spec, plan.tasks.flatten, ScanTestKit.conf)
      val got = Vector.newBuilder[String]
      try
        while (l.next())
          (0 until l.batch.numRows).foreach(r => got += l.batch.getRow(r).getUTF8String(1).toString)
      finally l.close()
      assert(got.result() == Vector("a", "c"), format)
    }
  }

  test("well-formed strings still read: surrogate pairs as escapes, and the edges of each UTF-8 length") {
    eachCase(Valid)(v => new String(v._1, UTF_8)) { case (content, expected) =>
      val f = threeRecords(content)
      try
        for (format <- Formats; mode <- FuzzScan.Modes) {
          val got = rows(f, format, "mode" -> mode).map(_.take(2))
          assert(got == Vector(Vector("1", "a"), Vector("2", expected), Vector("3", "c")), s"$format, $mode")
        }
      finally FuzzScan.delete(f)
    }
  }
}

object JsonInvalidTextSuite {
  val Line1 = "{\"id\": 1, \"s\": \"a\"}\n"
  val Line3 = "{\"id\": 3, \"s\": \"c\"}\n"

  def ascii(s: String): Array[Byte] = s.getBytes(UTF_8)
  def bytes(bs: Int*): Array[Byte] = bs.map(_.toByte).toArray

  /** Inside a string, each of them not UTF-8 (RFC 3629), as what it is. */
  val Invalid: Seq[(String, Array[Byte])] = Seq(
    "an overlong 2-byte form of '/' (C0 AF)" -> bytes(0xc0, 0xaf),
    "an overlong 2-byte form (C1 BF)" -> bytes(0xc1, 0xbf),
    "an overlong 3-byte form (E0 80 AF)" -> bytes(0xe0, 0x80, 0xaf),
    "an overlong 3-byte form (E0 9F BF)" -> bytes(0xe0, 0x9f, 0xbf),
    "an overlong 4-byte form (F0 80 80 AF)" -> bytes(0xf0, 0x80, 0x80, 0xaf),
    "an overlong 4-byte form (F0 8F BF BF)" -> bytes(0xf0, 0x8f, 0xbf, 0xbf),
    "U+110000, past Unicode (F4 90 80 80)" -> bytes(0xf4, 0x90, 0x80, 0x80),
    "a lead byte past F4 (F5 80 80 80)" -> bytes(0xf5, 0x80, 0x80, 0x80),
    "a lead byte past F4 (F7 BF BF BF)" -> bytes(0xf7, 0xbf, 0xbf, 0xbf),
    "a 5-byte form (F8 88 80 80 80)" -> bytes(0xf8, 0x88, 0x80, 0x80, 0x80),
    "a 6-byte form (FC 84 80 80 80 80)" -> bytes(0xfc, 0x84, 0x80, 0x80, 0x80, 0x80),
    "FE" -> bytes(0xfe),
    "FF" -> bytes(0xff),
    "a continuation byte as a lead (80)" -> bytes(0x80),
    "a continuation byte as a lead (BF)" -> bytes(0x61, 0xbf, 0x62),
    "a high surrogate in UTF-8 (ED A0 80)" -> bytes(0xed, 0xa0, 0x80),
    "a low surrogate in UTF-8 (ED BF BF)" -> bytes(0xed, 0xbf, 0xbf),
    "a surrogate pair in UTF-8, CESU-8 (ED A0 BD ED B8 80)" -> bytes(0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80),
    "a 2-byte sequence cut short by the quote (C3)" -> bytes(0xc3),
    "a 3-byte sequence cut short by the quote (E2 82)" -> bytes(0xe2, 0x82),
    "a 4-byte sequence cut short by the quote (F0 9F 98)" -> bytes(0xf0, 0x9f, 0x98),
    "a sequence cut short by a letter (C3 41)" -> bytes(0xc3, 0x41),
    "a sequence cut short by a space (E2 82 20)" -> bytes(0xe2, 0x82, 0x20)
  )

  /** Escapes of surrogates that are not a high one followed at once by a low one. */
  val LoneSurrogates: Seq[String] = Seq(
    "\\ud800",
    "x\\uDBFF",
    "\\ud800x",
    "\\ud800\\u0041",
    "\\ud800\\ud800",
    "\\uD800\\n",
    "\\ud800\\\\udc00",
    "\\udc00",
    "a\\uDFFFb",
    "\\ude00\\ud83d"
  )

  /** Well-formed string contents and the text they read as. */
  val Valid: Seq[(Array[Byte], String)] = Seq(
    ascii("\\ud83d\\ude00") -> "\ud83d\ude00",
    ascii("\\uD83D\\uDE00x") -> "\ud83d\ude00x",
    ascii("\\udbff\\udfff") -> "\udbff\udfff",
    ascii("\\ud800\\udc00") -> "\ud800\udc00",
    ascii("\\\\ud800") -> "\\ud800",
    ascii("\\\\\\ud83d\\ude00") -> "\\\ud83d\ude00",
    ascii("\\u00e9\\u20ac\\uffff") -> "\u00e9\u20ac\uffff",
    bytes(0xc2, 0x80) -> "\u0080",
    bytes(0xdf, 0xbf) -> "\u07ff",
    bytes(0xe0, 0xa0, 0x80) -> "\u0800",
    bytes(0xed, 0x9f, 0xbf) -> "\ud7ff",
    bytes(0xee, 0x80, 0x80) -> "\ue000",
    bytes(0xef, 0xbf, 0xbf) -> "\uffff",
    bytes(0xf0, 0x90, 0x80, 0x80) -> "\ud800\udc00",
    bytes(0xf4, 0x8f, 0xbf, 0xbf) -> "\udbff\udfff",
    bytes(0xf0, 0x9f, 0x98, 0x80, 0x61) -> "\ud83d\ude00a"
  )
}
