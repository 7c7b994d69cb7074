package sparkdrill.formats.json

import java.nio.ByteBuffer
import java.nio.charset.{CodingErrorAction, StandardCharsets}
import java.nio.charset.StandardCharsets.UTF_8

import com.fasterxml.jackson.core.JsonToken
import org.scalacheck.Gen
import org.scalatest.funsuite.AnyFunSuite
import org.scalatestplus.scalacheck.ScalaCheckDrivenPropertyChecks

/** The byte reader's scanner against references of its own: a string's end and validity against the JDK's
  * strict UTF-8 decoder and JSON's escapes, its decoded bytes against Jackson's, numbers against JSON's grammar
  * and `Double.parseDouble`, and line ends as Jackson counts them. Values are placed at every offset from a
  * word boundary, so that the eight-bytes-at-a-time scans meet them in every lane.
  */
class JsonCursorSuite extends AnyFunSuite with ScalaCheckDrivenPropertyChecks {
  implicit override val generatorDrivenConfig: PropertyCheckConfiguration =
    PropertyCheckConfiguration(minSuccessful = 3000)

  /** `content` at offset `lead` of a buffer with `tail` after it, and a cursor over it. */
  private def cursor(
      content: Array[Byte],
      lead: Int,
      tail: Array[Byte] = Array.emptyByteArray
  ): JsonCursor = {
    val buf = Array.fill[Byte](lead)('x') ++ content ++ tail
    val c = new JsonCursor
    c.reset(buf, lead, buf.length)
    c
  }

  private def outcome[T](body: => T): Either[String, T] =
    try Right(body)
    catch {
      case GiveUp => Left("gives up")
      case NeedMore => Left("needs more")
    }

  // String contents: plain text, every escape, characters of 1 to 4 bytes, and bytes that are not UTF-8 or not
  // allowed in a string.
  private val piece: Gen[Array[Byte]] =
    Gen.frequency(
      10 -> Gen.oneOf("a", "Z", " ", "0", "~", "\u007f", "é", "漢", "😀").map(_.getBytes(UTF_8)),
      3 -> Gen
        .oneOf(
          "\\\"",
          "\\\\",
          "\\/",
          "\\b",
          "\\f",
          "\\n",
          "\\r",
          "\\t",
          "\\u00e9",
          "\\u0000",
          "\\uD83D\\uDE00"
        )
        .map(_.getBytes(UTF_8)),
      1 -> Gen
        .oneOf(
          "\\x",
          "\\u12",
          "\\uD800",
          "\\uDC00",
          "\\uD83Dx",
          "\\uZZZZ",
          "\\uD800\\u0041",
          "\\uD800\\uD800",
          "\\uDBFF\\uDFFF",
          "\\ud800\\n",
          "\\uDE00\\uD83D",
          "\\uD83D\\uDE0"
        )
        .map(_.getBytes(UTF_8)),
      1 -> Gen.choose(0, 255).map(b => Array(b.toByte)),
      1 -> Gen
        .oneOf(
          Seq(0xc0, 0x80),
          Seq(0xc2),
          Seq(0xe0, 0x80, 0x80),
          Seq(0xed, 0xa0, 0x80),
          Seq(0xf4, 0x90, 0x80, 0x80),
          Seq(0xf0, 0x9f, 0x98),
          Seq(0xf5, 0x80, 0x80, 0x80),
          Seq(0xff),
          Seq(0x80)
        )
        .map(_.map(_.toByte).toArray)
    )

  private val content: Gen[Array[Byte]] =
    Gen.choose(0, 30).flatMap(n => Gen.listOfN(n, piece)).map(_.toArray.flatten)

  /** The reference: the index of the closing quote in `bytes` (its escapes skipped), when every escape is one
    * of JSON's (a surrogate escape only as a high one followed at once by a low one), no byte is below 0x20,
    * and the text is well-formed UTF-8; "gives up" for broken content, "needs more" when no quote closes it.
    */
  private def reference(bytes: Array[Byte]): Either[String, Int] = {
    var i = 0
    while (i < bytes.length && bytes(i) != '"') {
      if ((bytes(i) & 0xff) < 0x20) return Left("gives up")
      if (bytes(i) == '\\') {
        if (i + 1 >= bytes.length) return Left("needs more")
        bytes(i + 1).toChar match {
          case '"' | '\\' | '/' | 'b' | 'f' | 'n' | 'r' | 't' => i += 2
          case 'u' =>
            val c = unit(bytes, i + 2) match { case Left(why) => return Left(why); case Right(v) => v }
            if (c >= 0xdc00 && c <= 0xdfff) return Left("gives up") // a low surrogate first
            if (c >= 0xd800 && c <= 0xdbff) {
              if (i + 6 >= bytes.length) return Left("needs more")
              if (bytes(i + 6) != '\\') return Left("gives up")
              if (i + 7 >= bytes.length) return Left("needs more")
              if (bytes(i + 7) != 'u') return Left("gives up")
              val low = unit(bytes, i + 8) match { case Left(why) => return Left(why); case Right(v) => v }
              if (low < 0xdc00 || low > 0xdfff) return Left("gives up")
              i += 12
            } else i += 6
          case _ => return Left("gives up")
        }
      } else i += 1
    }
    if (i == bytes.length) return Left("needs more")
    val decoder = StandardCharsets.UTF_8
      .newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT)
      .onUnmappableCharacter(CodingErrorAction.REPORT)
    try {
      decoder.decode(ByteBuffer.wrap(bytes, 0, i))
      Right(i)
    } catch { case _: java.nio.charset.CharacterCodingException => Left("gives up") }
  }

  // The four hex digits at `i` as a UTF-16 unit.
  private def unit(bytes: Array[Byte], i: Int): Either[String, Int] =
    if (i + 4 > bytes.length) Left("needs more")
    else {
      val digits = new String(bytes, i, 4, UTF_8)
      if (!digits.forall(Character.digit(_, 16) >= 0)) Left("gives up")
      else Right(Integer.parseInt(digits, 16))
    }

  test("a string's end, escapes and UTF-8 are found and checked as a strict reader does, in every lane") {
    forAll(content, Gen.choose(0, 9), Gen.oneOf(true, false)) { (text, lead, closed) =>
      val bytes = if (closed) text ++ "\", 1".getBytes(UTF_8) else text
      val c = cursor(bytes, lead)
      val got = outcome(c.stringEnd(lead) - lead - 1)
      val expected = reference(bytes)
      // A byte the reference rejects may come after a cut the cursor reaches first: both refuse the string.
      if (expected.isRight || got.isRight)
        assert(got == expected, s"bytes ${bytes.map(_ & 0xff).mkString(",")}")
    }
  }

  test("an escaped string the cursor takes decodes to the bytes Jackson gives (no lone surrogate)") {
    forAll(content, Gen.choose(0, 9)) { (text, lead) =>
      val bytes = text ++ "\"".getBytes(UTF_8)
      reference(bytes).foreach { end =>
        val c = cursor(bytes, lead)
        val escapes = new JsonEscapes
        val decoded = outcome {
          val n = escapes.decode(c.buf, lead, lead + end)
          java.util.Arrays.copyOf(escapes.decoded, n).toSeq
        }
        val parser = JsonParsers.factory.createParser(("\"".getBytes(UTF_8) ++ bytes))
        assert(parser.nextToken() == JsonToken.VALUE_STRING)
        val jackson = parser.getText
        // A surrogate the string does not pair (what codePoints leaves as a code point of its own): the
        // cursor refused the string, so none is left here.
        assert(!jackson.codePoints().toArray.exists(cp => cp >= 0xd800 && cp <= 0xdfff))
        assert(decoded == Right(jackson.getBytes(UTF_8).toSeq), s"Jackson: $jackson")
      }
    }
  }

  test("JsonText finds, in a string Jackson takes, just what the cursor refuses, in every lane") {
    forAll(content, Gen.choose(0, 9)) { (text, lead) =>
      val quoted = "\"".getBytes(UTF_8) ++ text ++ "\"".getBytes(UTF_8)
      // Where Jackson's string ends, when it takes one (it lets overlong forms and lone surrogates through).
      val end =
        try {
          val parser = JsonParsers.factory.createParser(quoted)
          assert(parser.nextToken() == JsonToken.VALUE_STRING)
          parser.getText
          Some(parser.currentLocation().getByteOffset.toInt)
        } catch { case _: com.fasterxml.jackson.core.JsonProcessingException => None }
      end.foreach { e =>
        val buf = Array.fill[Byte](lead)('x') ++ quoted.take(e)
        val bad = JsonText.firstInvalid(buf, lead, buf.length)
        val expected = reference(quoted.slice(1, e))
        assert(
          (bad < 0) == expected.isRight,
          s"bytes ${quoted.take(e).map(_ & 0xff).mkString(",")}: $expected"
        )
      }
    }
  }

  private val digits: Gen[String] =
    Gen.choose(1, 25).flatMap(n => Gen.listOfN(n, Gen.numChar).map(_.mkString))

  private val numberText: Gen[String] =
    for {
      sign <- Gen.oneOf("", "-")
      int <- Gen.frequency(
        1 -> Gen.const("0"),
        6 -> digits.map(d => "1" + d.take(24)),
        2 -> Gen.choose(1, 9).map(_.toString)
      )
      fraction <- Gen.frequency(3 -> Gen.const(""), 2 -> digits.map("." + _))
      exponent <- Gen.frequency(
        3 -> Gen.const(""),
        1 -> Gen.zip(Gen.oneOf("e", "E", "e+", "e-", "E-"), Gen.choose(0, 400)).map { case (e, n) =>
          e + n
        }
      )
    } yield sign + int + fraction + exponent

  test(
    "numbers: where they end, whether integral, their long value, and the double Double.parseDouble gives"
  ) {
    forAll(numberText, Gen.choose(0, 9), Gen.oneOf(",", "}", "]", " ")) { (text, lead, after) =>
      val c = cursor(text.getBytes(UTF_8), lead, after.getBytes(UTF_8))
      c.pos = lead
      c.number()
      assert(c.pos == lead + text.length, text)
      val integral = !text.exists(ch => ch == '.' || ch == 'e' || ch == 'E')
      assert(c.integral == integral, text)
      val digitCount = text.count(_.isDigit)
      if (integral) {
        assert(c.fitsLong == (digitCount <= 18), text)
        if (c.fitsLong) assert(c.longValue == text.toLong, text)
      } else {
        val d = c.double(lead, lead + text.length)
        val expected = java.lang.Double.parseDouble(text)
        assert(
          java.lang.Double.doubleToRawLongBits(d) == java.lang.Double.doubleToRawLongBits(expected),
          text
        )
      }
    }
  }

  test(
    "what JSON's grammar refuses in a number is left to Jackson; a number cut by the bytes at hand needs more"
  ) {
    for (bad <- Seq("01", "-", "-a", "1.", "1.e3", "1e", "1e+", "-01", ".5", "+1", "1.5e-", "00"))
      assert(outcome(cursor(s"$bad,".getBytes(UTF_8), 3).valueEnd(3)) == Left("gives up"), bad)
    for (cut <- Seq("12", "1.5", "-7", "1e5", "0"))
      assert(outcome(cursor(cut.getBytes(UTF_8), 5).valueEnd(5)) == Left("needs more"), cut)
    assert(outcome(cursor(("9" * 600 + ",").getBytes(UTF_8), 0).valueEnd(0)) == Left("gives up"))
  }

  test("literals, and nesting past the limit") {
    for ((text, end) <- Seq("true," -> 4, "false]" -> 5, "null}" -> 4))
      assert(outcome(cursor(text.getBytes(UTF_8), 2).valueEnd(2)) == Right(2 + end), text)
    for (bad <- Seq("tru,", "trUe,", "fals ", "nul]", "NaN,", "Infinity,"))
      assert(outcome(cursor(bad.getBytes(UTF_8), 1).valueEnd(1)) == Left("gives up"), bad)
    val deep = "[" * JsonCursor.MaxDepth + "]" * JsonCursor.MaxDepth + ","
    assert(outcome(cursor(deep.getBytes(UTF_8), 0).valueEnd(0)) == Right(2 * JsonCursor.MaxDepth))
    val deeper = "[" * (JsonCursor.MaxDepth + 1) + "]" * (JsonCursor.MaxDepth + 1) + ","
    assert(outcome(cursor(deeper.getBytes(UTF_8), 0).valueEnd(0)) == Left("gives up"))
  }

  test("skipped objects and arrays are checked whole: trailing commas, missing values and unquoted names") {
    val good = """{"a": [1, {"b": "c"}, []], "d": {}} """
    assert(outcome(cursor(good.getBytes(UTF_8), 0).valueEnd(0)) == Right(good.length - 1))
    for (bad <- Seq("""{"a": 1,}""", """[1,,2]""", """{a: 1}""", """{"a" 1}""", """[1 2]""", """{"a": 1]"""))
      assert(outcome(cursor((bad + " ").getBytes(UTF_8), 0).valueEnd(0)) == Left("gives up"), bad)
  }

  test("blanks: line ends counted as Jackson counts them, and where the last line starts") {
    val c = cursor(" \n\t\r\n\r  x".getBytes(UTF_8), 0)
    assert(c.blank() == 'x')
    assert(c.lines == 3 && c.lineStart == 6 && c.pos == 8)
    val cut = cursor(" \r".getBytes(UTF_8), 0) // a `\r` whose next byte is not at hand yet
    assert(outcome(cut.blank()) == Left("needs more"))
  }
}
