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

  /** Each record's fields with whether each was quoted; fails on a record with an unclosed quote. */
  private def quoting(text: String, options: (String, String)*): Seq[Seq[(String, Boolean)]] = {
    val p = new CsvParser(
      new ByteArrayInputStream(text.getBytes(UTF_8)),
      CsvSettings.from(options.toMap.getOrElse("format", "csv"), opts(options: _*))
    )
    val out = ArrayBuffer.empty[Seq[(String, Boolean)]]
    while (p.next()) {
      assert(!p.unterminatedQuote, s"malformed record at line ${p.recordLine}")
      out += (0 until p.fieldCount).map(i => p.field(i) -> p.quoted(i))
    }
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
    "fields a caller does not keep are parsed but not copied; the kept ones and the offsets are exact"
  ) {
    val text = "a,\"b,\nc\",d,e\nf,g,\"h\"\"i\",j,k\n"
    val p =
      new CsvParser(new ByteArrayInputStream(text.getBytes(UTF_8)), CsvSettings.from("csv", opts()))
    p.keep = Array(false, true, false)
    val out = ArrayBuffer.empty[(Int, String, Long, Long)]
    while (p.next()) out += ((p.fieldCount, p.field(1), p.recordLine, p.recordOffset))
    assert(out.toSeq == Seq((4, "b,\nc", 1L, 0L), (5, "g", 3L, 13L)))
    // The first record is copied (a line end in quotes): the fields not kept read as empty.
    val copied =
      new CsvParser(new ByteArrayInputStream(text.getBytes(UTF_8)), CsvSettings.from("csv", opts()))
    copied.keep = p.keep
    assert(copied.next() && copied.fields == Seq("", "b,\nc", "", ""))
  }

  test("blank lines are skipped; empty fields are kept") {
    assert(records("\n\na,,b\n\n,\n") == Seq(Seq("a", "", "b"), Seq("", "")))
  }

  test("a line of only spaces and tabs is a blank line, whatever the reads; blanks before data are data") {
    val cases = Seq[(String, Seq[(String, String)], Seq[(Seq[String], Long)])](
      ("a,b\n   \n\t\nc,d\n", Nil, Seq(Seq("a", "b") -> 1L, Seq("c", "d") -> 4L)),
      (" \t \r\na\r\n \r\t\n  ", Nil, Seq(Seq("a") -> 2L)), // CRLF, CR, and a last line without a line end
      ("  x\n \n", Nil, Seq(Seq("  x") -> 1L)),
      ("  ,\n", Nil, Seq(Seq("  ", "") -> 1L)), // a delimiter makes a record
      ("  \"q\"\n", Nil, Seq(Seq("q") -> 1L)), // a quote after blanks opens a quoted field
      ("  #c\n#d\n  \nz\n", Seq("comment" -> "#"), Seq(Seq("  #c") -> 1L, Seq("z") -> 4L)),
      (
        "a\tb\n\t\n  \nc\td\n",
        Seq("format" -> "tsv"),
        Seq(Seq("a", "b") -> 1L, Seq("", "") -> 2L, Seq("c", "d") -> 4L)
      ),
      ("a||  ||  |b||\t", Seq("lineDelimiter" -> "||"), Seq(Seq("a") -> 1L, Seq("  |b") -> 3L)),
      ("  |", Seq("lineDelimiter" -> "||"), Seq(Seq("  |") -> 1L)),
      ("a||  |", Seq("lineDelimiter" -> "||"), Seq(Seq("a") -> 1L, Seq("  |") -> 2L)), // after a record too
      ("a\n  ", Nil, Seq(Seq("a") -> 1L))
    )
    for ((text, options, expected) <- cases; chunk <- Seq(1, 2, 3, 1 << 20)) {
      val read = this.read(text, chunk, copy = false, keep = null, options: _*)
      assert(
        read.map(r => r._1.map(_._1) -> r._2) == expected,
        s"${text.replace("\n", "\\n")} $options $chunk"
      )
      assert(this.read(text, chunk, copy = true, keep = null, options: _*).map(_._1) == read.map(_._1))
      assert(
        boundaries(text, chunk, skip = true, options: _*) == boundaries(
          text,
          chunk,
          skip = false,
          options: _*
        )
      )
    }
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

  test("a raw record is its bytes as they stood in the file, whatever the reads that brought them") {
    val rng = new scala.util.Random(163)
    val alphabet = "ab,\"\n\r |#"
    val texts = Seq("1,\"a\nb\"\r\n2,\"c\"\"d\"\n", "x||y||\n|z||") ++
      Seq.fill(300)(Seq.fill(rng.nextInt(50))(alphabet(rng.nextInt(alphabet.length))).mkString)
    val settings = Seq(Seq.empty[(String, String)], Seq("comment" -> "#"), Seq("lineDelimiter" -> "||"))
    for (text <- texts; options <- settings; chunk <- Seq(1, 2, 5, 1 << 20)) {
      val in = new java.io.FilterInputStream(new ByteArrayInputStream(text.getBytes(UTF_8))) {
        override def read(b: Array[Byte], off: Int, len: Int): Int = super.read(b, off, math.min(len, chunk))
      }
      val p = new CsvParser(in, CsvSettings.from("csv", opts(options: _*)))
      p.captureRaw = true
      while (p.next()) {
        var stood = text.substring(p.recordOffset.toInt, p.position.toInt)
        if (options.toMap.contains("lineDelimiter")) stood = stood.stripSuffix("||")
        else while (stood.endsWith("\n") || stood.endsWith("\r")) stood = stood.dropRight(1)
        assert(p.rawRecord == stood, s"${text.replace("\n", "\\n").replace("\r", "\\r")} $options $chunk")
      }
    }
  }

  test("a two-byte line delimiter's first byte alone is data, at a record's start too, whatever the reads") {
    val cases = Seq(
      "a||\n|b||" -> Seq(Seq("a"), Seq("\n|b")),
      "|b||c" -> Seq(Seq("|b"), Seq("c")),
      "a|||||b||" -> Seq(Seq("a"), Seq("|b")), // a blank line, then the lone byte
      "a|||" -> Seq(Seq("a"), Seq("|"))
    )
    for ((text, expected) <- cases; chunk <- Seq(1, 2, 3, 1 << 20)) {
      val read = this.read(text, chunk, copy = false, keep = null, "lineDelimiter" -> "||")
      assert(read.map(_._1.map(_._1)) == expected, s"$text $chunk")
    }
  }

  test("spaces and tabs between a closing quote and the delimiter are dropped") {
    assert(quoting("\"onions\"  ,\",\"\n") == Seq(Seq("onions" -> true, "," -> true)))
    assert(
      quoting("\"a\" \t,b,\"c\"\t ,d\n") == Seq(Seq("a" -> true, "b" -> false, "c" -> true, "d" -> false))
    )
  }

  test("spaces and tabs between a closing quote and a line end (LF, CRLF, CR, end of input) are dropped") {
    assert(records("\"a\" \t\nb\n") == Seq(Seq("a"), Seq("b")))
    assert(records("x,\"a\"  \r\n\"b\"\t\r\n") == Seq(Seq("x", "a"), Seq("b")))
    assert(records("\"a\" \rb\r") == Seq(Seq("a"), Seq("b")))
    assert(records("x,\"a\" \t") == Seq(Seq("x", "a")))
    assert(records("\"a\"  |b|", "lineDelimiter" -> "|") == Seq(Seq("a"), Seq("b")))
  }

  test("a quote that blanks and then other bytes follow is data, and so are the blanks") {
    assert(quoting("\"a\" b\",c\n") == Seq(Seq("a\" b" -> true, "c" -> false)))
    assert(quoting("\"a\"  \"\n") == Seq(Seq("a\"  " -> true)))
  }

  test("a quote after leading spaces or tabs opens a quoted field; unquoted fields keep their blanks") {
    assert(
      quoting("1970,  73, \"Hi, Mom!\"\n") ==
        Seq(Seq("1970" -> false, "  73" -> false, "Hi, Mom!" -> true))
    )
    assert(quoting("\t \"x\ty\" ,a\n") == Seq(Seq("x\ty" -> true, "a" -> false)))
    assert(quoting(" a ,  ,b, \n") == Seq(Seq(" a " -> false, "  " -> false, "b" -> false, " " -> false)))
    assert(quoting(" x\"y\"\n") == Seq(Seq(" x\"y\"" -> false)))
  }

  test("header names from quotes after blanks") {
    val header = quoting("\"Year\", \"Score\", \"Title\"\n").head
    assert(header == Seq("Year" -> true, "Score" -> true, "Title" -> true))
    assert(HeaderNames.clean(header.map(_._1)) == Seq("Year", "Score", "Title"))
  }

  test("a tab that is the delimiter is never a blank around quotes") {
    assert(
      quoting("\"a\"\t \"b\" \t\"c\"\n", "format" -> "tsv") == Seq(Seq("a" -> true, "b" -> true, "c" -> true))
    )
    assert(quoting("\t\"a\"\n", "format" -> "tsv") == Seq(Seq("" -> false, "a" -> true)))
  }

  test("blanks around quotes across a buffer boundary") {
    val n = CsvParser.BufferSize
    val long = "x" * (n - 3)
    assert(records("\"" + long + "\"" + " " * 10 + ",y\n") == Seq(Seq(long, "y")))
    val line = "z" * (n - 5)
    assert(records("a," + line + "\n" + " " * 6 + "\"q\" \t\n") == Seq(Seq("a", line), Seq("q")))
  }

  test("quote=\"\" turns quoting off") {
    assert(
      quoting("\"a\" ,\"b,c\", \"d\"\n", "quote" -> "") ==
        Seq(Seq("\"a\" " -> false, "\"b" -> false, "c\"" -> false, " \"d\"" -> false))
    )
  }

  test("empty fields: quoted and unquoted are told apart") {
    assert(
      quoting("a,,\"\", \"\" ,\n") ==
        Seq(Seq("a" -> false, "" -> false, "" -> true, "" -> true, "" -> false))
    )
    assert(quoting("\"\"\n,\"\"\n") == Seq(Seq("" -> true), Seq("" -> false, "" -> true)))
  }

  test("a quoted \\r\\n that two fills of the buffer split counts one line (fuzzing, finding 3)") {
    val text = "a\n\"x\r\ny\"\nb\n\"p\rq\"\nc\n"
    for (chunk <- Seq(1, 2, 3, 5, 1 << 20)) {
      // Hands out at most `chunk` bytes per read, so a fill may end between the \r and the \n.
      val in = new java.io.FilterInputStream(new ByteArrayInputStream(text.getBytes(UTF_8))) {
        override def read(b: Array[Byte], off: Int, len: Int): Int = super.read(b, off, math.min(len, chunk))
      }
      val p = new CsvParser(in, CsvSettings.from("csv", opts()))
      val lines = ArrayBuffer.empty[Long]
      while (p.next()) lines += p.recordLine
      assert(lines == Seq(1L, 2L, 4L, 5L, 7L), s"reads of $chunk bytes")
    }
  }

  test("a file that is only a byte order mark has no records (fuzzing)") {
    assert(recordsOf(Array(0xef, 0xbb, 0xbf).map(_.toByte)) == Nil)
    assert(recordsOf(Array(0xef, 0xbb, 0xbf, '\n').map(_.toByte)) == Nil)
    assert(recordsOf(Array(0xef, 0xbb, 0xbf, 'a').map(_.toByte)) == Seq(Seq("a")))
  }

  /** Where each record starts and ends, its line and whether its quote is unclosed, read by `next` or by
    * count(*)'s `skipNext`, with reads of at most `chunk` bytes.
    */
  private def boundaries(text: String, chunk: Int, skip: Boolean, options: (String, String)*) = {
    val in = new java.io.FilterInputStream(new ByteArrayInputStream(text.getBytes(UTF_8))) {
      override def read(b: Array[Byte], off: Int, len: Int): Int = super.read(b, off, math.min(len, chunk))
    }
    val p = new CsvParser(in, CsvSettings.from(options.toMap.getOrElse("format", "csv"), opts(options: _*)))
    val out = ArrayBuffer.empty[(Long, Long, Long, Boolean)]
    while (if (skip) p.skipNext() else p.next())
      out += ((p.recordOffset, p.position, p.recordLine, p.unterminatedQuote))
    out.toSeq
  }

  test("count(*)'s record skipping finds the records reading does, on every quoting rule and buffer cut") {
    val cases = Seq(
      "a,b\nc,d\n",
      "a,\"b,c\",\"d\"\"e\"\nf,g\n",
      "5\"3,x\n\"q\" ,r\n s, \"t\"\n",
      "\"a\nb\",c\r\nd\re\n\"x\"y\",z\n",
      "\"\"\"\",\"\"\n\"unclosed,\nnext\n",
      "a,\"b\"\r\n\r\n# not a comment by default\n\"end\"",
      "\"a\"\"\",b\n,\"\",\n\"\"\n"
    )
    val rng = new scala.util.Random(15)
    val alphabet = "ab,\"\n\r \t#"
    val random = Seq.fill(400)(Seq.fill(rng.nextInt(40))(alphabet(rng.nextInt(alphabet.length))).mkString)
    val settings = Seq(Seq.empty[(String, String)], Seq("comment" -> "#"), Seq("lineDelimiter" -> "\n"))
    for (text <- cases ++ random; options <- settings; chunk <- Seq(1, 3, 7, 1 << 20)) {
      val read = boundaries(text, chunk, skip = false, options: _*)
      assert(
        boundaries(text, chunk, skip = true, options: _*) == read,
        s"${text.replace("\n", "\\n")} $options"
      )
    }
    // TSV and PSV too, where a tab before a quote is a delimiter, not a blank.
    for (text <- Seq("a\t\"b\tc\"\td\n\"e\"\t\n", "a|\"b|c\"|d\n|\"|\"\n"); fmt <- Seq("tsv", "psv"))
      assert(
        boundaries(text, 1 << 20, skip = true, "format" -> fmt) == boundaries(
          text,
          1 << 20,
          skip = false,
          "format" -> fmt
        )
      )
  }

  /** Every record as `next` reads it: each field's text and quoting, line, start, end and unclosed quote.
    * With `copy` the parser captures raw records, which makes it copy every field out of its buffer.
    */
  private def read(
      text: String,
      chunk: Int,
      copy: Boolean,
      keep: Array[Boolean],
      options: (String, String)*
  ) = {
    val in = new java.io.FilterInputStream(new ByteArrayInputStream(text.getBytes(UTF_8))) {
      override def read(b: Array[Byte], off: Int, len: Int): Int = super.read(b, off, math.min(len, chunk))
    }
    val p = new CsvParser(in, CsvSettings.from(options.toMap.getOrElse("format", "csv"), opts(options: _*)))
    p.captureRaw = copy
    p.keep = keep
    val out = ArrayBuffer.empty[(Seq[(String, Boolean)], Long, Long, Long, Boolean)]
    while (p.next()) {
      // A field the caller does not keep reads as its text or as empty: only the kept ones are compared.
      val fields = (0 until p.fieldCount).map { i =>
        (if (keep == null || (i < keep.length && keep(i))) p.field(i) else "?") -> p.quoted(i)
      }
      out += ((fields, p.recordLine, p.recordOffset, p.position, p.unterminatedQuote))
    }
    out.toSeq
  }

  test("records read in place, where they lie in the read buffer, read as the copying parser reads them") {
    // In place: the second record's fields lie after the first's in the same buffer.
    val p = new CsvParser(
      new ByteArrayInputStream("a,b\n\"c\",d\n".getBytes(UTF_8)),
      CsvSettings.from("csv", opts())
    )
    assert(p.next() && p.next() && p.start(0) == 5 && p.quoted(0) && p.field(0) == "c")
    val rng = new scala.util.Random(151)
    val alphabet = "ab,\"\n\r \t#\\|"
    val random = Seq.fill(600)(Seq.fill(rng.nextInt(60))(alphabet(rng.nextInt(alphabet.length))).mkString)
    // Longer texts of plain and quoted fields, mostly well formed, cut by every size of read.
    val fields = Seq("x", "", "\"q\"", "\"a,b\"", " \"s\"", "\"\"", "\"e\"\"f\"", "\"l\nm\"", " t", "\"u\" ")
    val long = Seq.fill(60)(
      Seq
        .fill(1 + rng.nextInt(30))(
          Seq.fill(1 + rng.nextInt(4))(fields(rng.nextInt(fields.length))).mkString(",")
        )
        .mkString(Seq("\n", "\r\n", "\r")(rng.nextInt(3)))
    )
    val settings = Seq(
      Seq.empty[(String, String)],
      Seq("comment" -> "#"),
      Seq("lineDelimiter" -> "\n"),
      Seq("escape" -> "\\"),
      Seq("quote" -> ""),
      Seq("format" -> "tsv"),
      Seq("format" -> "psv")
    )
    val keeps = Seq(null, Array(false, true, false, true))
    for (text <- random ++ long; options <- settings; chunk <- Seq(1, 5, 64, 1 << 20); keep <- keeps) {
      val inPlace = read(text, chunk, copy = false, keep, options: _*)
      assert(
        inPlace == read(text, chunk, copy = true, keep, options: _*),
        s"${text.replace("\n", "\\n")} $options ${Option(keep).map(_.toSeq)}"
      )
    }
  }

  test("word-at-a-time search finds the first of three bytes wherever it lies, or none") {
    val bytes = "abcdefghijklmnopqrstuvwxyz0123456789".getBytes(UTF_8)
    val (x, y, z) = (ByteSearch.broadcast('q'), ByteSearch.broadcast('7'), ByteSearch.broadcast('!'))
    for (from <- 0 until bytes.length; to <- from to bytes.length) {
      val want = (from until to).find(i => "q7!".indexOf(bytes(i).toChar) >= 0).getOrElse(to)
      assert(ByteSearch.indexOfAny(bytes, from, to, x, y, z) == want, s"[$from, $to)")
    }
    val high = Array[Byte](1, 2, 3, 4, 5, 6, 7, 0x80.toByte, -1, 0)
    assert(ByteSearch.indexOfAny(high, 0, high.length, ByteSearch.broadcast(0xff), x, y) == 8)
    assert(ByteSearch.indexOfAny(high, 0, high.length, ByteSearch.broadcast(0), x, y) == 9)
    // Random bytes, every value among them (ASCII targets take a shorter test that must ignore bytes from 0x80
    // up, and borrows between bytes), against a byte-by-byte search.
    val rng = new scala.util.Random(15)
    for (_ <- 0 until 3000) {
      val data = Array.fill(rng.nextInt(40))(
        if (rng.nextInt(4) == 0) "\n\r\",;".charAt(rng.nextInt(5)).toByte else rng.nextInt(256).toByte
      )
      val targets =
        Seq.fill(3)(if (rng.nextInt(6) == 0) rng.nextInt(256) else "\n\r\",;".charAt(rng.nextInt(5)).toInt)
      val from = if (data.isEmpty) 0 else rng.nextInt(data.length)
      val want = (from until data.length).find(i => targets.contains(data(i) & 0xff)).getOrElse(data.length)
      val Seq(a, b, c) = targets.map(ByteSearch.broadcast)
      assert(
        ByteSearch.indexOfAny(data, from, data.length, a, b, c) == want,
        s"${data.toSeq} from $from: $targets"
      )
    }
  }
}
