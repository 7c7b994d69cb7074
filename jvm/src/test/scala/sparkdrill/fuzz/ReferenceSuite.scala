package sparkdrill.fuzz

import java.nio.charset.StandardCharsets.UTF_8

import org.scalatest.funsuite.AnyFunSuite

/** The fuzz references on the examples the documents give (docs/options.md, docs/errors.md, SPEC 2): a
  * reference that misread them would make the fuzz properties hold the scan to the wrong rules.
  */
class ReferenceSuite extends AnyFunSuite {
  private val comma = ReferenceCsv.Dialect(','.toByte, None)

  private def csv(text: String, dialect: ReferenceCsv.Dialect = comma): Vector[ReferenceCsv.Record] =
    ReferenceCsv.records(text.getBytes(UTF_8), dialect)

  private def fields(text: String, dialect: ReferenceCsv.Dialect = comma): Vector[Vector[String]] =
    csv(text, dialect).map(_.fields.map(_.text))

  test("CSV: quotes after leading blanks open a quoted field; blanks after a closing quote are dropped") {
    assert(fields("1970,  73, \"Hi, Mom!\"\n") == Vector(Vector("1970", "  73", "Hi, Mom!")))
    assert(fields("\"Year\", \"Score\", \"Title\"") == Vector(Vector("Year", "Score", "Title")))
    assert(fields("\"onions\"  ,\",\"\n") == Vector(Vector("onions", ",")))
    assert(fields("\"a\" b\",c\n") == Vector(Vector("a\" b", "c")))
    assert(fields("\"a\"\"b\",\"\"\"\"\n") == Vector(Vector("a\"b", "\"")))
    // With a tab delimiter, a tab is the delimiter, never a blank around a quote.
    assert(fields("\"a\" \t \"b\"", ReferenceCsv.Dialect('\t'.toByte, None)) == Vector(Vector("a", "b")))
  }

  test("CSV: a quote never closed runs to the end of the file; text after a closing quote leaves it open") {
    val records = csv("1,\"ann\"x\n2,b\n")
    assert(records.size == 1 && records.head.unterminated)
    assert(records.head.rawText("1,\"ann\"x\n2,b\n".getBytes(UTF_8)) == "1,\"ann\"x\n2,b")
    assert(!csv("1,\"ann\"\n2,b").exists(_.unterminated))
  }

  test(
    "CSV: empty quoted and unquoted fields, blank lines (a line of spaces too), mixed line ends, lines, offsets"
  ) {
    val records = csv("a,b\n\n   \n1,2\r\n3,4\r5,6")
    assert(
      records.map(_.fields.map(_.text)) == Vector(
        Vector("a", "b"),
        Vector("1", "2"),
        Vector("3", "4"),
        Vector("5", "6")
      )
    )
    assert(records.map(_.line) == Vector(1L, 4L, 5L, 6L))
    assert(records.map(_.offset) == Vector(0, 9, 14, 18))
    assert(records.map(_.end) == Vector(4, 14, 18, 21))
    // Blanks before other text are its first field's; a last line of blanks is blank.
    assert(csv("  x\n \t").map(_.fields.map(_.text)) == Vector(Vector("  x")))
    val empty = csv("a,,\"\",c").head
    assert((0 until 5).map(ReferenceCsv.value(empty, _)) == Seq("a", null, "", "c", null))
  }

  test("CSV: a quoted line end is data and still a line; a BOM only at the start; comment lines") {
    val quoted = csv("a,\"x\ny\",b\nc")
    assert(quoted.map(_.fields.map(_.text)) == Vector(Vector("a", "x\ny", "b"), Vector("c")))
    assert(quoted.map(_.line) == Vector(1L, 3L) && quoted.map(_.offset) == Vector(0, 10))
    val bom = ReferenceCsv.records("\uFEFFa\n\uFEFFb\n".getBytes(UTF_8), comma)
    assert(bom.map(_.fields.map(_.text)) == Vector(Vector("a"), Vector("\uFEFFb")))
    assert(bom.map(_.offset) == Vector(3, 5))
    val commented = csv("#x \"y\na\n#z\nb", ReferenceCsv.Dialect(','.toByte, Some('#'.toByte)))
    assert(commented.map(_.fields.map(_.text)) == Vector(Vector("a"), Vector("b")))
    assert(commented.map(_.line) == Vector(2L, 4L) && commented.map(_.offset) == Vector(6, 11))
  }

  test("CSV: a split starts right after the line end that holds or follows its first byte's predecessor") {
    assert(ReferenceCsv.splitStarts("ab\ncd\r\nef\rg".getBytes(UTF_8), 3) == Seq(0, 3, 7, 10))
  }

  private def json(text: String): ReferenceJson.Result = ReferenceJson.records(text.getBytes(UTF_8))

  private def summary(r: ReferenceJson.Result): Vector[(Int, Long, Boolean)] =
    r.records.map(x => (x.offset, x.line, x.broken))

  test("JSON: the documented examples") {
    assert(summary(json("1\n2x\n3")) == Vector((0, 1L, false), (2, 2L, true), (5, 3L, false)))
    assert(summary(json("{\"a\": 1}\n5\n{\"a\": 2}\n\"x\"\n")).map(_._1) == Vector(0, 9, 11, 20))
    assert(summary(json("[4, \"hello\"]")).map(_._1) == Vector(1, 4))
    assert(summary(json("[1, 2]\n[3]\n")).map(_._1) == Vector(0, 7))
    assert(summary(json("[{\"a\": 1}]\n[{\"a\": 2}]")) == Vector((1, 1L, false), (12, 2L, false)))
    assert(summary(json("{\"a\":1}{\"b\":2}")).map(_._1) == Vector(0, 7))
  }

  test("JSON: a broken record ends before the next line that starts with {; garbage is a record of its own") {
    assert(summary(json("{\"a\": 1,\n{\"b\": 2}\n")) == Vector((0, 1L, true), (9, 2L, false)))
    assert(
      summary(json("{\"a\": 1} // c\n{\"b\": 2}\n")) == Vector((0, 1L, false), (9, 1L, true), (14, 2L, false))
    )
    assert(summary(json("# x\n{\"a\":1}")) == Vector((0, 1L, true), (4, 2L, false)))
    assert(summary(json("{\"a\": [1,\n# x\n{\"b\": 2}")) == Vector((0, 1L, true), (14, 3L, false)))
    assert(summary(json("{\"a\u0000\": 1}\n{\"b\": \"\u00e9\"}")) == Vector((0, 1L, true), (10, 2L, false)))
  }

  test("JSON: text in a string that is not well-formed is broken JSON; an escaped surrogate pair is not") {
    def brokenFlags(content: Array[Byte]): Vector[Boolean] =
      ReferenceJson
        .records("{\"a\": \"".getBytes(UTF_8) ++ content ++ "\"}\n{\"a\": 1}".getBytes(UTF_8))
        .records
        .map(_.broken)
    def b(xs: Int*): Array[Byte] = xs.map(_.toByte).toArray
    val bad = JsonBreakage.NotText ++ Seq(b(0xc1, 0xbf), b(0xe0, 0x9f, 0xbf), b(0xf0, 0x8f, 0xbf, 0xbf))
    bad.foreach(x => assert(brokenFlags(x) == Vector(true, false), Show.bytes(x)))
    val good = Seq("\\ud83d\\ude00", "\\uDBFF\\uDFFF", "\\\\ud800", "\u00e9\uffff\ud83d\ude00").map(
      _.getBytes(UTF_8)
    ) ++
      Seq(b(0xed, 0x9f, 0xbf), b(0xee, 0x80, 0x80), b(0xf4, 0x8f, 0xbf, 0xbf), b(0xe0, 0xa0, 0x80))
    good.foreach(x => assert(brokenFlags(x) == Vector(false, false), Show.bytes(x)))
  }

  test("JSON: a broken element of a root array fails the read") {
    val r = json("[{\"a\":1},]")
    assert(summary(r) == Vector((1, 1L, false)) && r.failure.map(_.offset).contains(9))
  }
}
