package sparkdrill.fuzz

import java.nio.charset.StandardCharsets.UTF_8

import org.scalacheck.Gen

/** The broken JSON docs/errors.md names (an object never closed, a trailing comma, single quotes, NUL or
  * invalid UTF-8 inside a string, a lone surrogate escape too, a comment, garbage between records), applied
  * to the lines of a JSON-lines file ([[JsonGen.Lines]]), plus concatenation (two records on one line), which
  * is valid.
  *
  * These are the mutations of the JSON record-count property: for them the documented recovery ("reading goes
  * on at the next line that starts with `{`") says exactly which records a file holds, whatever the parser
  * reports as the point of the error. Arbitrary byte mutations are left out of that property: which of them
  * the reader's JSON parser accepts (its extensions, where it detects an error, how it guesses an encoding
  * from NUL bytes) is not documented. They still go through every other property.
  */
sealed trait JsonBreakage {

  /** The lines after the change; `line` is taken modulo the number of lines. */
  def apply(lines: Vector[Array[Byte]]): Vector[Array[Byte]]
}

object JsonBreakage {
  private def bytes(s: String): Array[Byte] = s.getBytes(UTF_8)
  private val Apostrophe: Byte = 0x27

  private def update(lines: Vector[Array[Byte]], line: Int)(f: Array[Byte] => Array[Byte]) =
    if (lines.isEmpty) lines else lines.updated(line % lines.size, f(lines(line % lines.size)))

  /** An object never closed: the line keeps 1 to length-1 of its bytes. */
  final case class Truncate(line: Int, at: Int) extends JsonBreakage {
    def apply(lines: Vector[Array[Byte]]): Vector[Array[Byte]] =
      update(lines, line)(l => if (l.length < 2) l else l.take(1 + at % (l.length - 1)))
  }

  /** Bytes inside the first key (after `{"` and its first character): NUL, or text that is not well-formed
    * ([[NotText]]). A NUL in the fourth byte of a line, where a parser may start, does not make it guess
    * UTF-16 or UTF-32 (that takes a NUL among the first two bytes, or three among the first four:
    * FuzzFindingsSuite, finding 2).
    */
  final case class InsideKey(line: Int, bytes: Array[Byte]) extends JsonBreakage {
    def apply(lines: Vector[Array[Byte]]): Vector[Array[Byte]] =
      update(lines, line)(l => if (l.length < 4) l else l.take(3) ++ bytes ++ l.drop(3))
    override def toString: String = s"InsideKey($line, ${Show.bytes(bytes)})"
  }

  /** Inside a string, not well-formed text (docs/errors.md: invalid UTF-8 inside a string is broken JSON):
    * 0xFF, a stray continuation byte, a sequence cut short, an overlong form, a surrogate or a code point past
    * U+10FFFF in UTF-8, 5- and 6-byte forms, and surrogate escapes that are not a pair.
    */
  val NotText: Seq[Array[Byte]] =
    Seq(
      Seq(0xff),
      Seq(0x80),
      Seq(0xc3),
      Seq(0xe2, 0x82),
      Seq(0xc0, 0xaf),
      Seq(0xe0, 0x80, 0xaf),
      Seq(0xf0, 0x80, 0x80, 0xaf),
      Seq(0xed, 0xa0, 0x80),
      Seq(0xf4, 0x90, 0x80, 0x80),
      Seq(0xf5, 0x80, 0x80, 0x80),
      Seq(0xf8, 0x88, 0x80, 0x80, 0x80),
      Seq(0xfc, 0x84, 0x80, 0x80, 0x80, 0x80)
    ).map(_.map(_.toByte).toArray) ++ Seq("\\ud800", "\\udc00", "\\ud800\\u0041").map(bytes)

  /** `{"a": 1}` becomes `{"a": 1,}`. */
  final case class TrailingComma(line: Int) extends JsonBreakage {
    def apply(lines: Vector[Array[Byte]]): Vector[Array[Byte]] =
      update(lines, line)(l => if (l.nonEmpty && l.last == '}') l.dropRight(1) ++ bytes(",}") else l)
  }

  /** `{"a": 1}` becomes `{'a': 1}`. */
  final case class SingleQuotes(line: Int) extends JsonBreakage {
    def apply(lines: Vector[Array[Byte]]): Vector[Array[Byte]] =
      update(lines, line) { l =>
        val close = l.indexOf('"'.toByte, 2)
        if (l.length < 2 || l(1) != '"' || close < 0) l
        else {
          val out = l.clone()
          out(1) = Apostrophe
          out(close) = Apostrophe
          out
        }
      }
  }

  /** A comment after the record: `{"a": 1} // note`. */
  final case class Comment(line: Int) extends JsonBreakage {
    def apply(lines: Vector[Array[Byte]]): Vector[Array[Byte]] = update(lines, line)(_ ++ bytes(" // note"))
  }

  /** A line of garbage before line `line` (or at the end). */
  final case class Garbage(line: Int, text: String) extends JsonBreakage {
    def apply(lines: Vector[Array[Byte]]): Vector[Array[Byte]] = {
      val i = line % (lines.size + 1)
      lines.take(i) ++ Vector(bytes(text)) ++ lines.drop(i)
    }
  }

  /** Two records on one line, `{...}{...}`: still two records. */
  final case class Concatenate(line: Int) extends JsonBreakage {
    def apply(lines: Vector[Array[Byte]]): Vector[Array[Byte]] =
      if (lines.size < 2) lines
      else {
        val i = line % (lines.size - 1)
        lines.take(i) ++ Vector(lines(i) ++ lines(i + 1)) ++ lines.drop(i + 2)
      }
  }

  private val index: Gen[Int] = Gen.choose(0, Int.MaxValue)

  val gen: Gen[JsonBreakage] =
    Gen.frequency(
      4 -> (for { l <- index; at <- index } yield Truncate(l, at)),
      2 -> (for { l <- index; b <- Gen.oneOf(Array(0.toByte) +: NotText) } yield InsideKey(l, b)),
      1 -> index.map(TrailingComma(_)),
      1 -> index.map(SingleQuotes(_)),
      1 -> index.map(Comment(_)),
      2 -> (for {
        l <- index
        t <- Gen.oneOf("# note", "// note", "<oops>", ";;", "@@")
      } yield Garbage(l, t)),
      1 -> index.map(Concatenate(_))
    )

  /** A JSON-lines file with one to three breakages, as bytes. */
  def applyAll(l: JsonGen.Lines, breakages: Seq[JsonBreakage]): Array[Byte] = {
    val broken = breakages.foldLeft(l.lines.map(bytes))((ls, b) => b(ls))
    // The original blank-line pattern no longer lines up after insertions: lines are joined by the line end,
    // with a blank line after every third.
    val out = new java.io.ByteArrayOutputStream()
    broken.indices.foreach { i =>
      out.write(broken(i))
      if (i < broken.size - 1 || l.finalEnd) out.write(bytes(l.lineEnd))
      if (i % 3 == 2 && i < broken.size - 1) out.write(bytes(l.lineEnd))
    }
    out.toByteArray
  }
}
