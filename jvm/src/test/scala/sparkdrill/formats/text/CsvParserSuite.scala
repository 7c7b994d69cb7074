package sparkdrill.formats.text

import java.io.ByteArrayInputStream
import java.nio.charset.StandardCharsets.UTF_8

import scala.collection.mutable.ArrayBuffer

import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.reader.ReaderOptions
import sparkdrill.scan.TableScan

class CsvParserSuite extends AnyFunSuite {
  private def opts(entries: (String, String)*): ReaderOptions = TableScan.parseOptions(entries.toMap)

  private def records(text: String, options: (String, String)*): Seq[Seq[String]] =
    recordsOf(text.getBytes(UTF_8), options: _*)

  private def recordsOf(bytes: Array[Byte], options: (String, String)*): Seq[Seq[String]] = {
    val p =
      new CsvParser(new ByteArrayInputStream(bytes), CsvSettings.from("csv", opts(options: _*)))
    val out = ArrayBuffer.empty[Seq[String]]
    while (p.next()) out += p.fields
    out.toSeq
  }

  test("fields, quotes, doubled quotes and quoted delimiters") {
    assert(records("a,\"b,c\",\"d\"\"e\"\n") == Seq(Seq("a", "b,c", "d\"e")))
  }

  test("line ends: \\n, \\r\\n and \\r, inside quotes too; the last line needs none") {
    assert(records("a,b\r\nc,d\re,f\ng,h") == Seq(Seq("a", "b"), Seq("c", "d"), Seq("e", "f"), Seq("g", "h")))
    assert(records("\"x\r\ny\",z\n") == Seq(Seq("x\r\ny", "z")))
  }

  test(
    "fields a caller does not keep are parsed but read as empty; the kept ones and the offsets are exact"
  ) {
    val text = "a,\"b,\nc\",d,e\nf,g,\"h\"\"i\",j,k\n"
    val p =
      new CsvParser(new ByteArrayInputStream(text.getBytes(UTF_8)), CsvSettings.from("csv", opts()))
    p.keep = Array(false, true, false)
    val out = ArrayBuffer.empty[(Seq[String], Long, Long)]
    while (p.next()) out += ((p.fields, p.recordLine, p.recordOffset))
    assert(out.toSeq == Seq((Seq("", "b,\nc", "", ""), 1L, 0L), (Seq("", "g", "", "", ""), 3L, 13L)))
  }

  test("blank lines are skipped; empty fields are kept") {
    assert(records("\n\na,,b\n\n,\n") == Seq(Seq("a", "", "b"), Seq("", "")))
  }

  test("a UTF-8 byte order mark is dropped, but offsets count it") {
    val bytes = Array(0xef, 0xbb, 0xbf).map(_.toByte) ++ "a,b\n1,2\n".getBytes(UTF_8)
    assert(recordsOf(bytes) == Seq(Seq("a", "b"), Seq("1", "2")))
    val p = new CsvParser(new ByteArrayInputStream(bytes), CsvSettings.from("csv", opts()))
    assert(p.next() && p.recordOffset == 3L && p.next() && p.recordOffset == 7L)
  }

  test("a comment character only when one is named") {
    assert(records("#x\na\n") == Seq(Seq("#x"), Seq("a")))
    assert(records("#x\na\n", "comment" -> "#") == Seq(Seq("a")))
  }

  test("tsv and psv delimiters; a custom delimiter, quote, escape and line delimiter") {
    assert(recordsOf("a\tb\n".getBytes(UTF_8)) == Seq(Seq("a\tb")))
    val tsv = new CsvParser(
      new ByteArrayInputStream("a\tb\n".getBytes(UTF_8)),
      CsvSettings.from("tsv", opts())
    )
    assert(tsv.next() && tsv.fields == Seq("a", "b"))
    assert(records("1;'a;b'\n", "delimiter" -> ";", "quote" -> "'") == Seq(Seq("1", "a;b")))
    assert(records("1,@x~@y@\n", "quote" -> "@", "escape" -> "~") == Seq(Seq("1", "x@y")))
    assert(records("1,2|3,4|", "lineDelimiter" -> "|") == Seq(Seq("1", "2"), Seq("3", "4")))
  }

  test("an unclosed quote marks the record; line numbers count quoted line ends") {
    val p = new CsvParser(
      new ByteArrayInputStream("a\n\"b\nc\nd\"\ne\n\"f".getBytes(UTF_8)),
      CsvSettings.from("csv", opts())
    )
    val lines = ArrayBuffer.empty[(Long, Boolean)]
    while (p.next()) lines += (p.recordLine -> p.unterminatedQuote)
    assert(lines == Seq(1L -> false, 2L -> false, 5L -> false, 6L -> true))
  }

  test("raw records keep their quotes when asked") {
    val p = new CsvParser(
      new ByteArrayInputStream("1,\"a\"\"b\"\n".getBytes(UTF_8)),
      CsvSettings.from("csv", opts())
    )
    p.captureRaw = true
    assert(p.next() && p.rawRecord == "1,\"a\"\"b\"")
  }
}
