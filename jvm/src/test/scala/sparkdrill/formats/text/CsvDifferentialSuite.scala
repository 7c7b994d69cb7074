package sparkdrill.formats.text

import java.io.{ByteArrayInputStream, StringReader}
import java.nio.charset.StandardCharsets.UTF_8

import scala.collection.mutable.ArrayBuffer
import scala.jdk.CollectionConverters._
import scala.util.Random

import com.univocity.parsers.csv.{CsvParser => UnivocityParser, CsvParserSettings}
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.reader.ReaderOptions
import sparkdrill.scan.TableScan
import sparkdrill.tags.Slow

/** Our tokenizer against univocity (the parser under Spark's CSV reader) on random well-formed CSV:
  * random delimiters, quoting, quoted delimiters, quotes and line ends, unicode, ragged rows, blank lines.
  */
@Slow
class CsvDifferentialSuite extends AnyFunSuite {
  private def opts(entries: (String, String)*): ReaderOptions = TableScan.parseOptions(entries.toMap)

  private val alphabet = "abcxyz019 é漢😀-_.".codePoints().toArray.map(Character.toString)

  private def field(rng: Random, delimiter: Char, lineEnd: String): String = {
    val plain = (0 until rng.nextInt(6)).map(_ => alphabet(rng.nextInt(alphabet.length))).mkString
    rng.nextInt(5) match {
      case 0 =>
        val special = Seq(delimiter.toString, "\"", lineEnd)(rng.nextInt(3))
        val body = plain + special + plain
        "\"" + body.replace("\"", "\"\"") + "\""
      case 1 => "\"" + plain + "\""
      case _ => plain.replace("\"", "")
    }
  }

  /** A field as written, with the blanks SPEC 2 drops around quotes, and the text it reads as. */
  private def paddedField(rng: Random, delimiter: Char, lineEnd: String): (String, String) = {
    val blanks = Seq(" ", "\t").filterNot(_ == delimiter.toString)
    def pad: String = (0 until rng.nextInt(3)).map(_ => blanks(rng.nextInt(blanks.size))).mkString
    val plain = (0 until rng.nextInt(6)).map(_ => alphabet(rng.nextInt(alphabet.length))).mkString
    rng.nextInt(4) match {
      case 0 =>
        val special = Seq(delimiter.toString, "\"", lineEnd, " ", "\t")(rng.nextInt(5))
        val body = plain + special + plain
        (pad + "\"" + body.replace("\"", "\"\"") + "\"" + pad, body)
      case 1 => (pad + "\"" + plain + "\"" + pad, plain)
      case _ => (plain, plain) // unquoted: its blanks are data
    }
  }

  private def unquote(f: String): String =
    if (f.startsWith("\"")) f.substring(1, f.length - 1).replace("\"\"", "\"") else f

  private def ours(bytes: Array[Byte], delimiter: Char): Seq[Seq[String]] = {
    val settings = CsvSettings.from("csv", opts("delimiter" -> delimiter.toString))
    val p = new CsvParser(new ByteArrayInputStream(bytes), settings)
    val out = ArrayBuffer.empty[Seq[String]]
    while (p.next()) { assert(!p.unterminatedQuote); out += p.fields }
    out.toSeq
  }

  private def univocity(text: String, delimiter: Char, lineEnd: String): Seq[Seq[String]] = {
    val s = new CsvParserSettings()
    s.getFormat.setDelimiter(delimiter)
    s.getFormat.setQuote('"')
    s.getFormat.setQuoteEscape('"')
    s.getFormat.setLineSeparator(lineEnd)
    s.getFormat.setNormalizedNewline(lineEnd.last)
    s.setNormalizeLineEndingsWithinQuotes(false)
    s.setIgnoreLeadingWhitespaces(false)
    s.setIgnoreTrailingWhitespaces(false)
    s.setNullValue("")
    s.setEmptyValue("")
    s.setSkipEmptyLines(true)
    s.setMaxCharsPerColumn(-1)
    s.setMaxColumns(10000)
    s.setCommentProcessingEnabled(false)
    val parser = new UnivocityParser(s)
    parser.parseAll(new StringReader(text)).asScala.map(_.toSeq.map(v => if (v == null) "" else v)).toSeq
  }

  /** A random file of ragged rows of generated fields: its delimiter, line end, rows and text. */
  private def randomFile[F](rng: Random)(makeField: (Random, Char, String) => F)(
      textOf: F => String
  ): (Char, String, Seq[Seq[F]], String) = {
    val delimiter = Seq(',', ';', '\t', '|')(rng.nextInt(4))
    val lineEnd = Seq("\n", "\r\n")(rng.nextInt(2))
    val width = 1 + rng.nextInt(5)
    val rows = (0 until rng.nextInt(8))
      .map { _ =>
        val n = if (rng.nextInt(4) == 0) 1 + rng.nextInt(width + 2) else width // ragged rows too
        (0 until n).map(_ => makeField(rng, delimiter, lineEnd))
      }
      .filterNot(r => r.size == 1 && textOf(r.head).forall(c => c == ' ' || c == '\t')) // a blank line
    val text =
      rows.map(_.map(textOf).mkString(delimiter.toString)).mkString(lineEnd) + (if (rng.nextBoolean()) lineEnd
                                                                                else "")
    (delimiter, lineEnd, rows, text)
  }

  test("3000 random files tokenize exactly as univocity and as written") {
    val rng = new Random(20261122)
    for (round <- 0 until 3000) {
      val (delimiter, lineEnd, rows, text) = randomFile(rng)(field)(identity)
      val bytes = text.getBytes(UTF_8)
      val expected = rows.map(_.map(unquote))
      val got = ours(bytes, delimiter)
      assert(got == expected, s"round $round: ${text.replace("\r", "\\r").replace("\n", "\\n")}")
      assert(univocity(text, delimiter, lineEnd) == expected, s"univocity, round $round")
    }
  }

  // Univocity reads blanks before a quote as data (Spark's ignoreLeadingWhiteSpace=false): no reference here.
  test("3000 random files with blanks around quoted fields read as written, without those blanks") {
    val rng = new Random(20260214)
    for (round <- 0 until 3000) {
      val (delimiter, _, rows, text) = randomFile(rng)(paddedField)(_._1)
      val got = ours(text.getBytes(UTF_8), delimiter)
      assert(got == rows.map(_.map(_._2)), s"round $round: ${text.replace("\r", "\\r").replace("\n", "\\n")}")
    }
  }
}
