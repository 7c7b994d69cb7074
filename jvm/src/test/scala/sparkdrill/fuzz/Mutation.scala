package sparkdrill.fuzz

import org.scalacheck.Gen

/** A change to a file's bytes: a flipped bit, a byte set to anything, a truncation at any point, bytes
  * inserted (quotes, delimiters, `\n`, `\r`, `\r\n`, NUL, a byte order mark, random bytes...) or deleted.
  * Positions are drawn as any non-negative number and taken modulo the file's length when applied, so a
  * mutation applies to any file.
  */
sealed trait Mutation {
  def apply(data: Array[Byte]): Array[Byte]
}

object Mutation {
  final case class FlipBit(at: Int, bit: Int) extends Mutation {
    def apply(data: Array[Byte]): Array[Byte] =
      if (data.isEmpty) data
      else {
        val out = data.clone()
        val i = at % data.length
        out(i) = (out(i) ^ (1 << bit)).toByte
        out
      }
  }

  final case class SetByte(at: Int, value: Byte) extends Mutation {
    def apply(data: Array[Byte]): Array[Byte] =
      if (data.isEmpty) data
      else {
        val out = data.clone()
        out(at % data.length) = value
        out
      }
    override def toString: String = s"SetByte($at, ${Show.bytes(Array(value))})"
  }

  final case class Truncate(at: Int) extends Mutation {
    def apply(data: Array[Byte]): Array[Byte] = data.take(at % (data.length + 1))
  }

  final case class Insert(at: Int, bytes: Array[Byte]) extends Mutation {
    def apply(data: Array[Byte]): Array[Byte] = {
      val i = at % (data.length + 1)
      data.take(i) ++ bytes ++ data.drop(i)
    }
    override def toString: String = s"Insert($at, ${Show.bytes(bytes)})"
  }

  final case class Delete(at: Int, length: Int) extends Mutation {
    def apply(data: Array[Byte]): Array[Byte] =
      if (data.isEmpty) data
      else {
        val i = at % data.length
        data.take(i) ++ data.drop(i + length)
      }
  }

  def applyAll(data: Array[Byte], mutations: Seq[Mutation]): Array[Byte] =
    mutations.foldLeft(data)((d, m) => m(d))

  private def bytes(s: String): Array[Byte] = s.getBytes(java.nio.charset.StandardCharsets.UTF_8)

  val ByteOrderMark: Array[Byte] = Array(0xef.toByte, 0xbb.toByte, 0xbf.toByte)

  private val CommonText =
    Seq("\"", "\"", "\"\"", " \"", "\" ", "\n", "\r", "\r\n", "\u0000", "\\", " ", "\t")

  /** What text readers treat specially: quotes (alone, doubled, after a blank), line ends, NUL, a BOM. */
  val Common: Seq[Array[Byte]] = CommonText.map(bytes) :+ ByteOrderMark

  def csvSpecials(delimiter: Char, comment: Option[Char]): Seq[Array[Byte]] =
    Common ++ Seq(bytes(delimiter.toString), bytes(delimiter.toString), bytes(s""""$delimiter""")) ++
      comment.map(c => bytes(c.toString))

  val JsonSpecials: Seq[Array[Byte]] =
    Common ++ Seq("{", "}", "[", "]", ",", ":", "\\u", "1", "-", "e", "null", "\n{", "//").map(bytes)

  private val position: Gen[Int] = Gen.choose(0, Int.MaxValue)
  private val anyByte: Gen[Byte] = Gen.choose(0, 255).map(_.toByte)

  def gen(specials: Seq[Array[Byte]]): Gen[Mutation] =
    Gen.frequency(
      3 -> (for { at <- position; bit <- Gen.choose(0, 7) } yield FlipBit(at, bit)),
      2 -> (for { at <- position; b <- anyByte } yield SetByte(at, b)),
      1 -> position.map(Truncate(_)),
      6 -> (for { at <- position; b <- Gen.oneOf(specials) } yield Insert(at, b)),
      2 -> (for {
        at <- position
        n <- Gen.choose(1, 4)
        b <- Gen.listOfN(n, anyByte)
      } yield Insert(at, b.toArray)),
      2 -> (for { at <- position; n <- Gen.choose(1, 3) } yield Delete(at, n))
    )

  /** One to four mutations. */
  def some(specials: Seq[Array[Byte]]): Gen[List[Mutation]] =
    Gen.choose(1, 4).flatMap(n => Gen.listOfN(n, gen(specials)))
}
