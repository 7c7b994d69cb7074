package sparkdrill.fuzz

import java.nio.charset.StandardCharsets.UTF_8

import org.scalacheck.Gen

/** Valid JSON files (RFC 8259 only: no unquoted keys, no NaN): objects of strings (escapes, unicode),
  * numbers, booleans, nulls, nested objects and arrays, laid out as JSON lines, spread over lines,
  * concatenated, in root arrays, or mixed with top-level values that are not objects. Keys repeat across
  * records with other types, so discovery widens. The generators never read ScalaCheck's size, so an example
  * depends on the seed alone.
  */
object JsonGen {

  /** A generated file: how it is laid out, and its bytes. */
  final case class Doc(layout: String, bytes: Array[Byte]) {
    override def toString: String = s"JsonGen.Doc($layout)"
  }

  /** JSON lines of objects, one per line, each starting `{"key"` at the line's first byte: the input of the
    * documented breakages ([[JsonBreakage]]).
    */
  final case class Lines(
      lines: Vector[String],
      lineEnd: String,
      blankAfter: Vector[Boolean],
      finalEnd: Boolean
  )

  private val Keys = Vector("a", "b", "c", "d", "e")
  private val Chars =
    Vector("a", "z", "0", " ", "é", "漢", "😀", "\\\"", "\\\\", "\\n", "\\t", "\\u00e9", "\\/")

  private def string: Gen[String] =
    Gen.choose(0, 5).flatMap(n => Gen.listOfN(n, Gen.oneOf(Chars)).map(_.mkString("\"", "", "\"")))

  private def number: Gen[String] =
    Gen.frequency(
      4 -> Gen.choose(-1000L, 1000L).map(_.toString),
      1 -> Gen.choose(Long.MinValue, Long.MaxValue).map(_.toString),
      2 -> Gen.oneOf("1.5", "-0.25", "3e5", "2.5E-3", "0", "-0", "0.0", "1E+2", "12345678901234567890")
    )

  private def scalar: Gen[String] =
    Gen.frequency(3 -> string, 3 -> number, 1 -> Gen.oneOf("true", "false"), 1 -> Gen.const("null"))

  /** Separators between members: plain, or a line end and an indent (a record spread over lines). */
  private def separator(spread: Boolean): Gen[String] =
    if (!spread) Gen.oneOf(", ", ",")
    else Gen.oneOf(", ", ",\n  ", ",\r\n\t", "\n, ")

  private def value(depth: Int, spread: Boolean): Gen[String] =
    if (depth >= 3) scalar
    else
      Gen.frequency(
        6 -> scalar,
        1 -> Gen.lzy(obj(depth + 1, spread, minKeys = 0)),
        1 -> Gen.lzy(arr(depth + 1, spread))
      )

  private def obj(depth: Int, spread: Boolean, minKeys: Int): Gen[String] =
    for {
      n <- Gen.choose(minKeys, 4)
      keys <- Gen.pick(n, Keys)
      values <- Gen.listOfN(n, value(depth, spread))
      seps <- Gen.listOfN(n, separator(spread))
    } yield {
      val members = keys.toVector.zip(values).map { case (k, v) => "\"" + k + "\": " + v }
      val body = members.indices.map(i => (if (i == 0) "" else seps(i)) + members(i)).mkString
      "{" + body + "}"
    }

  private def arr(depth: Int, spread: Boolean): Gen[String] =
    for {
      n <- Gen.choose(0, 3)
      values <- Gen.listOfN(n, value(depth, spread))
      seps <- Gen.listOfN(n, separator(spread))
    } yield "[" + values.indices.map(i => (if (i == 0) "" else seps(i)) + values(i)).mkString + "]"

  /** A top-level object with at least one key, on one line. */
  val record: Gen[String] = obj(0, spread = false, minKeys = 1)

  val lines: Gen[Lines] =
    for {
      n <- Gen.choose(0, 15)
      records <- Gen.listOfN(n, record)
      lineEnd <- Gen.oneOf("\n", "\r\n")
      blanks <- Gen.listOfN(n, Gen.frequency(6 -> Gen.const(false), 1 -> Gen.const(true)))
      finalEnd <- Gen.oneOf(true, false)
    } yield Lines(records.toVector, lineEnd, blanks.toVector, finalEnd)

  /** The text of `lines`, with its blank lines. */
  def text(l: Lines): Array[Byte] = {
    val sb = new StringBuilder
    l.lines.indices.foreach { i =>
      sb.append(l.lines(i))
      if (i < l.lines.size - 1 || l.finalEnd) sb.append(l.lineEnd)
      if (l.blankAfter(i) && i < l.lines.size - 1) sb.append(l.lineEnd)
    }
    sb.toString.getBytes(UTF_8)
  }

  private def joined(values: Seq[String], seps: Seq[String]): String =
    values.indices.map(i => values(i) + (if (i < values.size - 1) seps(i) else "")).mkString

  private def spreadOut: Gen[String] =
    for {
      n <- Gen.choose(0, 8)
      records <- Gen.listOfN(n, obj(0, spread = true, minKeys = 0))
      seps <- Gen.listOfN(n, Gen.oneOf("\n", "\r\n", "", " ", "\n\n"))
    } yield joined(records, seps)

  private def rootArrays: Gen[String] =
    for {
      count <- Gen.choose(1, 2)
      arrays <- Gen.listOfN(
        count,
        for {
          first <- obj(0, spread = true, minKeys = 0)
          n <- Gen.choose(0, 6)
          rest <- Gen.listOfN(
            n,
            Gen.frequency(4 -> obj(0, spread = true, minKeys = 0), 1 -> value(1, spread = false))
          )
          seps <- Gen.listOfN(n, Gen.oneOf(",\n", ", ", ",\r\n  "))
        } yield "[" + (first +: rest.indices.map(i => seps(i) + rest(i))).mkString + "]"
      )
    } yield arrays.mkString("\n")

  private def mixed: Gen[String] =
    for {
      n <- Gen.choose(1, 10)
      values <- Gen.listOfN(n, Gen.frequency(3 -> record, 2 -> scalar, 1 -> arr(1, spread = false)))
      lineEnd <- Gen.oneOf("\n", "\r\n")
    } yield values.mkString("", lineEnd, lineEnd)

  val doc: Gen[Doc] =
    Gen.frequency(
      3 -> lines.map(l => Doc("lines", text(l))),
      2 -> spreadOut.map(t => Doc("spread over lines", t.getBytes(UTF_8))),
      1 -> rootArrays.map(t => Doc("root arrays", t.getBytes(UTF_8))),
      1 -> mixed.map(t => Doc("mixed values", t.getBytes(UTF_8)))
    )
}
