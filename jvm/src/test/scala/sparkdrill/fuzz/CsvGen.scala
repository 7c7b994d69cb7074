package sparkdrill.fuzz

import java.nio.charset.StandardCharsets.UTF_8

import org.scalacheck.Gen

/** Valid delimited text with a header, and what it holds: quoted and unquoted fields (blanks around quotes,
  * delimiters, doubled quotes and line ends inside quotes, unicode), ragged rows, blank lines, comment lines,
  * `\n`, `\r\n` and `\r` line ends (also mixed), a byte order mark, a last line with or without its line end.
  * The generators never read ScalaCheck's size, so an example depends on the seed alone.
  */
object CsvGen {

  /** A generated file: its dialect, header names, the string each column reads in each row (null for null:
    * an empty unquoted field, a missing one), and its bytes.
    */
  final case class Doc(
      dialect: ReferenceCsv.Dialect,
      header: Vector[String],
      rows: Vector[Vector[String]],
      bytes: Array[Byte]
  ) {
    def delimiter: Char = (dialect.delimiter & 0xff).toChar
    override def toString: String =
      s"CsvGen.Doc(delimiter=${Show.char(delimiter)}, comment=${dialect.comment.map(c => Show.char((c & 0xff).toChar))}, " +
        s"${header.size} columns, ${rows.size} rows)"
  }

  /** One field as written, and the string a string column reads for it (null for null). */
  private final case class Written(text: String, value: String)

  private val Delimiters = Seq(',', ';', '|', '\t')
  private val LineEnds = Seq(Seq("\n"), Seq("\r\n"), Seq("\r"), Seq("\n", "\r\n", "\r"))
  private val Plain = Vector("a", "b", "c", "x", "y", "z", "0", "1", "9", " ", "é", "漢", "😀", "-", "_", ".")
  private val Names =
    Vector("id", "name", "a", "b", "c", "x", "yy", "zz", "qty", "ts", "v1", "v2", "note", "k")
  val Comment: Char = '#'

  private def plain: Gen[String] =
    Gen.choose(0, 6).flatMap(n => Gen.listOfN(n, Gen.oneOf(Plain)).map(_.mkString))

  private def blanks(delimiter: Char): Gen[String] = {
    val options = Seq(" ", "\t").filterNot(_ == delimiter.toString)
    Gen.choose(0, 2).flatMap(n => Gen.listOfN(n, Gen.oneOf(options)).map(_.mkString))
  }

  private def unquoted: Gen[Written] = plain.map(p => Written(p, if (p.isEmpty) null else p))

  private def quoted(delimiter: Char, lineEnds: Seq[String]): Gen[Written] =
    for {
      n <- Gen.choose(0, 4)
      parts <- Gen.listOfN(
        n,
        Gen.frequency(
          4 -> plain,
          1 -> Gen.const(delimiter.toString),
          1 -> Gen.const("\""),
          1 -> Gen.oneOf(lineEnds),
          1 -> Gen.oneOf(" ", "\t")
        )
      )
      before <- blanks(delimiter)
      after <- blanks(delimiter)
    } yield {
      val body = parts.mkString
      Written(before + "\"" + body.replace("\"", "\"\"") + "\"" + after, body)
    }

  private def field(delimiter: Char, lineEnds: Seq[String]): Gen[Written] =
    Gen.frequency(3 -> unquoted, 2 -> quoted(delimiter, lineEnds))

  /** How a header name is written: as it is, or quoted with blanks around. */
  private def headerStyle(delimiter: Char): Gen[String => Written] =
    Gen.oneOf(true, false).flatMap { q =>
      if (!q) Gen.const((name: String) => Written(name, name))
      else
        for { b <- blanks(delimiter); a <- blanks(delimiter) } yield (name: String) =>
          Written(s"""$b"$name"$a""", name)
    }

  private def row(width: Int, delimiter: Char, lineEnds: Seq[String]): Gen[Vector[Written]] =
    for {
      ragged <- Gen.frequency(4 -> Gen.const(false), 1 -> Gen.const(true))
      n <- if (ragged) Gen.choose(1, width + 2) else Gen.const(width)
      fields <- Gen.listOfN(n, field(delimiter, lineEnds))
    } yield notBlank(fields)

  // A lone unquoted field that is empty or only spaces and tabs would be a blank line, which is skipped.
  private def notBlank(fields: List[Written]): Vector[Written] =
    if (fields.size == 1 && fields.head.text.forall(c => c == ' ' || c == '\t')) Vector(Written("\"\"", ""))
    else fields.toVector

  val doc: Gen[Doc] =
    for {
      delimiter <- Gen.oneOf(Delimiters)
      lineEnds <- Gen.oneOf(LineEnds)
      comment <- Gen.frequency(3 -> Gen.const(false), 1 -> Gen.const(true))
      width <- Gen.choose(1, 5)
      names <- Gen.pick(width, Names)
      styles <- Gen.listOfN(width, headerStyle(delimiter))
      n <- Gen.choose(0, 20)
      rows <- Gen.listOfN(n, row(width, delimiter, lineEnds))
      // Before each line: a blank line or a comment line, sometimes; each line's end; the last line's end.
      extras <- Gen.listOfN(n + 1, Gen.frequency(8 -> Gen.const(0), 1 -> Gen.const(1), 1 -> Gen.const(2)))
      commentTexts <- Gen.listOfN(n + 1, plain.map(p => s"""$Comment$p "q"""))
      ends <- Gen.listOfN(n + 2, Gen.oneOf(lineEnds))
      finalEnd <- Gen.oneOf(true, false)
      bom <- Gen.frequency(9 -> Gen.const(false), 1 -> Gen.const(true))
    } yield {
      val header = names.toVector.zip(styles).map { case (name, style) => style(name) }
      val lines = (header +: rows.toVector).map(_.map(_.text).mkString(delimiter.toString))
      val sb = new StringBuilder
      lines.indices.foreach { i =>
        extras(i) match {
          case 1 => sb.append(ends(i + 1)) // a blank line
          case 2 if comment => sb.append(commentTexts(i)).append(ends(i + 1))
          case _ =>
        }
        sb.append(lines(i))
        if (i < lines.size - 1 || finalEnd) sb.append(ends(i))
      }
      val text = sb.toString.getBytes(UTF_8)
      val bytes = if (bom) Array(0xef.toByte, 0xbb.toByte, 0xbf.toByte) ++ text else text
      Doc(
        ReferenceCsv.Dialect(delimiter.toByte, if (comment) Some(Comment.toByte) else None),
        header.map(_.value),
        rows.toVector.map(r => Vector.tabulate(width)(c => if (c < r.size) r(c).value else null)),
        bytes
      )
    }
}
