package sparkdrill.formats.json

import java.io.ByteArrayInputStream
import java.nio.charset.StandardCharsets.UTF_8

import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.reader.ErrorContext

/** [[JsonRecords]]' states, which the readers' results do not show: how each record is read (by the byte
  * reader's cursor, by a parser of its own, or by one parser for the rest of the file), and whether top-level
  * arrays are root arrays; with each record's text, offset and line, which every state must get right.
  */
class JsonRecordsSuite extends AnyFunSuite {
  import JsonRecords._

  private def open(text: String, readsBytes: Boolean = true) =
    new JsonRecords(
      new ByteArrayInputStream(text.getBytes(UTF_8)),
      1L << 20,
      ErrorContext("f.json"),
      readsBytes
    )

  /** Reads the current record to its end, as the reader does (the cursor, or Jackson when it gives up). */
  private def readRecord(r: JsonRecords): String = {
    if (r.fromBytes) {
      val c = new JsonCursor
      r.startBytes(c)
      try { c.skipValue(); r.endBytes(c) }
      catch { case GiveUp => r.toJackson() }
    }
    if (!r.fromBytes) { r.parser.skipChildren(); r.parser.finishToken() }
    new String(r.bytes, UTF_8).trim
  }

  /** Reads a file of one record a line, checking each one's text, line and offset, and its mode. */
  private def read(lines: Seq[String])(mode: Int => Int): Unit = {
    val r = open(lines.mkString("\n") + "\n")
    val offsets = lines.scanLeft(0L)(_ + _.length + 1)
    for (i <- lines.indices) {
      assert(r.next(), s"record $i")
      assert(readRecord(r) == lines(i) && r.line == i + 1L && r.offset == offsets(i), s"record $i")
      assert(r.readMode == mode(i), s"record $i")
    }
    assert(!r.next())
    r.close()
  }

  test("values other than objects: each read by a parser of its own, until Jackson read 64; then the rest") {
    read((0 until 200).map(i => if (i % 2 == 0) s"$i" else "\"s" + i + "\""))(i =>
      if (i < HandedBeforeJackson) OneOff else Jackson
    )
  }

  test("a quarter of the records handed to Jackson: byte mode goes on to the end") {
    read((0 until 1000).map(i => if (i % 4 == 3) s"[$i]" else s"""{"a": $i}"""))(i =>
      if (i % 4 == 3) OneOff else Cursor
    )
  }

  test("more than a quarter handed (objects the byte reader gives up on): Jackson reads on after 64") {
    // The 64th handed is record 191: Jackson reads from the next on.
    read((0 until 600).map(i => if (i % 3 == 2) s"""{"a": NaN, "i": $i}""" else s"""{"a": $i}"""))(i =>
      if (i >= 3 * HandedBeforeJackson) Jackson else if (i % 3 == 2) OneOff else Cursor
    )
  }

  test("top-level arrays: unknown until the first top-level value tells root arrays or records, for good") {
    def records(text: String, readsBytes: Boolean): Seq[(String, Int, Boolean)] = {
      val r = open(text, readsBytes)
      assert(r.arraysState == RootArrays.Unknown)
      val seen = Iterator.continually(r.next()).takeWhile(identity)
      try seen.map(_ => (readRecord(r), r.arraysState, r.inRootArray)).toVector
      finally r.close()
    }
    import RootArrays.{Records, Roots}
    for (readsBytes <- Seq(true, false)) {
      val roots = records("[{\"a\": 1}, 2]\n[3]\n[]\n", readsBytes)
      assert(roots == Seq(("{\"a\": 1}", Roots, true), ("2", Roots, true), ("3", Roots, true)))
      assert(records("[1, 2]", readsBytes) == Seq(("1", Roots, true), ("2", Roots, true)))
      assert(records("[]", readsBytes).isEmpty)
      val stream = Seq(("[1, 2]", Records, false), ("[3]", Records, false))
      assert(records("[1, 2]\n[3]\n", readsBytes) == stream)
      assert(records("5\n[6]\n", readsBytes) == Seq(("5", Records, false), ("[6]", Records, false)))
      assert(records("{\"a\": 1}\n[2]\n", readsBytes).map(_._2) == Seq(Records, Records))
      // A first value broken before its first token tells nothing.
      val broken = open("x\n[1, 2]\n", readsBytes)
      intercept[com.fasterxml.jackson.core.JsonParseException](broken.next())
      assert(broken.arraysState == RootArrays.Unknown)
      broken.close()
    }
  }

  test("an error's column in a root array that starts within its line counts the line's bytes before it") {
    for (readsBytes <- Seq(true, false); indent <- Seq("", "   ")) {
      val text = indent + "[{\"a\": 1}, {\"a\": x}]\n"
      val r = open(text, readsBytes)
      assert(r.next())
      readRecord(r)
      assert(r.next())
      val e = intercept[com.fasterxml.jackson.core.JsonParseException](readRecord(r))
      // The `x` is at column 20 after the indent, as an editor counts it.
      assert(r.location(e).contains(s" at line 1, column ${20 + indent.length}"), (readsBytes, indent))
      r.close()
    }
  }
}
