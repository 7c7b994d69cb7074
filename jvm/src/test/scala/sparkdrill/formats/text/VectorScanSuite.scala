package sparkdrill.formats.text

import java.io.{ByteArrayInputStream, InputStream}
import java.nio.charset.StandardCharsets.UTF_8
import java.util.Properties

import scala.collection.mutable.ArrayBuffer

import org.scalacheck.{Gen, Prop}
import org.scalatest.funsuite.AnyFunSuite
import org.scalatestplus.scalacheck.Checkers

import sparkdrill.fuzz.{CsvGen, FuzzConfig, Mutation}

/** The Vector API search under count(*)'s scan (issue 41) against the word-at-a-time search it stands beside:
  * the same index for any bytes, range and three bytes sought; and over generated and mutated text, in every
  * dialect, with the input read in chunks of any size (so records cross the parser's buffer ends anywhere),
  * count(*)'s records on either search are the records, at the offsets and lines, that the full read finds.
  */
class VectorScanSuite extends AnyFunSuite with Checkers {
  import VectorScanSuite._

  test("the vector search is there on the Spark 4 lines (Spark's launcher adds the module) and not on 3.5") {
    val props = new Properties()
    val in = getClass.getResourceAsStream("/sparkdrill/spark-line.properties")
    try props.load(in)
    finally in.close()
    assert(VectorScan.available == (props.getProperty("line") == "spark4"))
  }

  test("SPARK_DRILL_VECTOR=off forces the word search (make test-scalar-scan); else it is on where it runs") {
    val off = sys.env.get("SPARK_DRILL_VECTOR").exists(_.equalsIgnoreCase("off"))
    assert(VectorScan.enabled == (VectorScan.available && !off))
    assert(VectorScan.finder().isDefined == VectorScan.enabled)
  }

  /** A property over `gen`, on the fuzz suites' seed and example counts. */
  private def property[T](name: String, examples: Int, gen: Gen[T])(holds: T => Unit): Unit =
    test(name) {
      assume(VectorScan.available, "the vector search runs on the Spark 4 lines only")
      check(Prop.forAllNoShrink(gen) { e => holds(e); Prop.passed }, FuzzConfig.parameters(examples))
    }

  property(
    "any bytes, range and three bytes sought: the vector search finds what the word search finds",
    2000,
    searches
  ) { case Search(buf, from, to, a, b, c) =>
    val vector = VectorScan.finder(wanted = true).get.indexOfAny(buf, from, to, a, b, c)
    val words = ByteSearch.indexOfAny(
      buf,
      from,
      to,
      ByteSearch.broadcast(a),
      ByteSearch.broadcast(b),
      ByteSearch.broadcast(c)
    )
    assert(
      vector == words,
      s"from $from to $to seeking ${Seq(a, b, c).mkString(",")} in ${buf.mkString(",")}"
    )
  }

  property(
    "generated CSV, repeated and mutated: count(*) finds the full read's records, on both searches",
    300,
    documents
  )(c => countsAsFullRead(c, vectorSearch = false, true))

  property(
    "any soup of quotes, delimiters, line ends, blanks and UTF-8: the same records on both searches",
    300,
    soups
  )(c => countsAsFullRead(c, vectorSearch = true))

  /** count(*) on each search named (the vector search or the word search) finds the full read's records. */
  private def countsAsFullRead(c: Case, vectorSearch: Boolean*): Unit = {
    val full = records(c.data, c.settings, c.chunks, vector = false, skip = false)
    vectorSearch.foreach { vector =>
      val counted = records(c.data, c.settings, c.chunks, vector, skip = true)
      val search = if (vector) "vector" else "word"
      assert(counted == full, s"$search search against the full read, ${describe(c.settings, c.data)}")
    }
  }
}

private object VectorScanSuite {
  final case class Case(settings: CsvSettings, data: Array[Byte], chunks: Seq[Int])
  final case class Search(buf: Array[Byte], from: Int, to: Int, a: Byte, b: Byte, c: Byte)

  // A few bytes, ASCII and not, so that sought bytes are often there, at any place in a vector or past it.
  private val alphabet: Gen[Byte] =
    Gen.oneOf[Int](',', '"', '\n', '\r', 'a', ' ', 0, 0x80, 0xe6, 0xff).map(_.toByte)

  val searches: Gen[Search] =
    for {
      n <- Gen.choose(0, 300)
      sparse <- Gen.oneOf(true, false)
      bytes <- Gen.listOfN(
        n,
        if (sparse) Gen.frequency(30 -> Gen.const('x'.toByte), 1 -> alphabet) else alphabet
      )
      from <- Gen.choose(0, n)
      to <- Gen.choose(from, n)
      a <- alphabet
      b <- alphabet
      c <- alphabet
    } yield Search(bytes.toArray, from, to, a, b, c)

  object Show {
    def apply(s: String): String = s.flatMap {
      case '\n' => "\\n"
      case '\r' => "\\r"
      case '\t' => "\\t"
      case c => c.toString
    }
  }

  def csv(delimiter: Char, quoted: Boolean, comment: Int = CsvSettings.None, lineEnd: Option[Char] = None) =
    CsvSettings(
      delimiter = delimiter.toByte,
      quote = if (quoted) '"' else CsvSettings.None,
      escape = if (quoted) '"' else CsvSettings.None,
      comment = comment,
      lineDelimiter = lineEnd.map(c => Array(c.toByte)).getOrElse(CsvSettings.AutoLineEnd),
      header = false,
      skipFirstLine = false
    )

  def describe(s: CsvSettings, data: Array[Byte]): String =
    s"delimiter=${Show((s.delimiter & 0xff).toChar.toString)} quote=${s.quote} comment=${s.comment} " +
      s"lineDelimiter=${s.lineDelimiter.map(b => Show((b & 0xff).toChar.toString)).mkString} " +
      s"${data.length} bytes: ${Show(new String(data, UTF_8)).take(2000)}"

  /** A record as the parser reports it: where it starts, its line, whether its quote never closes. */
  final case class Seen(offset: Long, line: Long, unclosed: Boolean)

  def records(data: Array[Byte], settings: CsvSettings, chunks: Seq[Int], vector: Boolean, skip: Boolean) = {
    val parser = new CsvParser(new Chunked(data, chunks), settings, vectorScan = vector)
    val out = ArrayBuffer.empty[Seen]
    while (if (skip) parser.skipNext() else parser.next())
      out += Seen(parser.recordOffset, parser.recordLine, parser.unterminatedQuote)
    (out.toVector, parser.position)
  }

  /** Reads `data` in chunks of the given sizes, in turn: a record may cross the parser's buffer anywhere. */
  final class Chunked(data: Array[Byte], sizes: Seq[Int]) extends InputStream {
    private val in = new ByteArrayInputStream(data)
    private var turn = 0
    def read(): Int = in.read()
    override def read(b: Array[Byte], off: Int, len: Int): Int = {
      val size = sizes(turn % sizes.size)
      turn += 1
      in.read(b, off, math.min(len, size))
    }
  }

  private val chunkSizes: Gen[Seq[Int]] =
    Gen.frequency(
      2 -> Gen.const(Seq(Int.MaxValue)),
      3 -> Gen.listOfN(5, Gen.choose(1, 9000))
    )

  private val dialects: Gen[CsvSettings] =
    for {
      delimiter <- Gen.oneOf(',', ';', '|', '\t', ' ')
      quoted <- Gen.frequency(5 -> true, 1 -> false)
      comment <- Gen.oneOf(CsvSettings.None, '#'.toInt)
      lineEnd <- Gen.frequency(5 -> Gen.const(None), 1 -> Gen.const(Some('~')))
    } yield csv(delimiter, quoted, comment, lineEnd)

  /** CsvGen's documents (every quoting rule, blank and comment lines, mixed line ends, a BOM), repeated to span
    * many 64-byte blocks, then maybe mutated.
    */
  val documents: Gen[Case] =
    for {
      doc <- CsvGen.doc
      times <- Gen.choose(1, 60)
      mutations <- Gen.frequency(
        1 -> Gen.const(Nil),
        1 -> Mutation.some(
          Mutation.csvSpecials(doc.delimiter, doc.dialect.comment.map(c => (c & 0xff).toChar))
        )
      )
      quoted <- Gen.frequency(5 -> true, 1 -> false)
      chunks <- chunkSizes
    } yield {
      val data = mutations.foldLeft(Array.fill(times)(doc.bytes).flatten)((d, m) => m(d))
      val comment = doc.dialect.comment.map(_.toInt).getOrElse(CsvSettings.None)
      Case(csv((doc.dialect.delimiter & 0xff).toChar, quoted, comment), data, chunks)
    }

  private val tokens: Gen[String] = Gen.frequency(
    6 -> Gen.oneOf("a", "bc", "0.5", "x" * 40, "y" * 130),
    3 -> Gen.oneOf(",", ";", "|", "\t", "~"),
    3 -> Gen.oneOf("\"", "\"\""),
    2 -> Gen.oneOf("\n", "\r\n", "\r"),
    1 -> Gen.oneOf(" ", "\t", "#", "é", "漢", "😀", "\ufeff")
  )

  /** Any sequence of the bytes the scans care about, in any dialect they serve. */
  val soups: Gen[Case] =
    for {
      settings <- dialects
      n <- Gen.choose(0, 400)
      parts <- Gen.listOfN(n, tokens)
      chunks <- chunkSizes
    } yield Case(settings, parts.mkString.getBytes(UTF_8), chunks)
}
