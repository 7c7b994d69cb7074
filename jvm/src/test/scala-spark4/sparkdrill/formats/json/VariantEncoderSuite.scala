package sparkdrill.formats.json

import java.nio.charset.StandardCharsets.UTF_8

import scala.util.Random

import org.apache.spark.sql.types.{Decimal, StructField, VariantType}
import org.apache.spark.types.variant.VariantBuilder
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.loader.{ArrayWriter, ColumnWriter, MapWriter, TupleWriter}

/** The byte reader's VARIANTs ([[JsonVariants.fromBytes]] over [[sparkdrill.loader.VariantEncoder]]) against
  * Spark's own `VariantBuilder.parseJson` on generated JSON: every value byte for byte, the metadata too.
  * Keys mix ASCII, escapes, characters past U+FFFF and in U+E000-U+FFFF (where Java's String order is not
  * the bytes' order); numbers take every form `parse_json` types differently.
  */
class VariantEncoderSuite extends AnyFunSuite {
  import VariantEncoderSuite._

  // One reader for every value, as in a scan: the encoder's keys and their ranks carry over.
  private val variants = new JsonVariants()

  private def ours(json: String): Option[(Array[Byte], Array[Byte])] = {
    val bytes = json.getBytes(UTF_8)
    val cursor = new JsonCursor
    cursor.reset(bytes, 0, bytes.length)
    val out = new Captured
    try {
      variants.fromBytes(cursor, out)
      Some(out.value -> out.metadata)
    } catch { case GiveUp => None }
  }

  private def sparks(json: String): (Array[Byte], Array[Byte]) = {
    val v = VariantBuilder.parseJson(json, false)
    v.getValue -> v.getMetadata
  }

  test("generated JSON: the byte reader's VARIANT is parse_json's, byte for byte") {
    val random = new Random(20261203L)
    var checked = 0
    (1 to 3000).foreach { i =>
      // A record ends at a line end (a number at the end of the bytes at hand may go on: NeedMore).
      val json = value(random, depth = 0) + (if (i % 7 == 0) " \n" else "\n")
      ours(json) match {
        case Some((v, m)) =>
          val (sv, sm) = sparks(json)
          withClue(json) {
            assert(v.sameElements(sv), "value")
            assert(m.sameElements(sm), "metadata")
          }
          checked += 1
        case None =>
          // Only a key twice in one object is left to Spark's builder.
          assert(scala.util.Try(sparks(json)).isFailure, json)
      }
    }
    assert(checked > 2500, s"only $checked of 3000 were read from bytes")
  }

  test(
    "keys that are data (new in nearly every value, past the keys kept across values) sort as Spark's do"
  ) {
    val random = new Random(42L)
    val common = Seq("id", "ts", "\ue000x", "😀", "zz")
    (1 to 4000).foreach { i =>
      // Ten keys never seen before, a few seen in other values, in a random order, at two depths.
      val fresh = (1 to 10).map(k => s"${random.alphanumeric.take(1 + random.nextInt(8)).mkString}-$i-$k")
      val keys = random.shuffle(fresh ++ common.filter(_ => random.nextBoolean()))
      val inner = keys.take(4).map(k => s""""$k":$i""").mkString("{", ",", "}")
      val json = keys.map(k => s""""$k":$inner""").mkString("{", ",", "}") + "\n"
      val (sv, sm) = sparks(json)
      val (v, m) = ours(json).getOrElse(fail(json))
      withClue(json)(assert(v.sameElements(sv) && m.sameElements(sm)))
    }
  }

  test("records of one producer (the same keys in a few orders, nested) are put in order as Spark's are") {
    // The encoder keeps each key order's sorted order and guesses the next key from the last record's: both
    // must give what sorting gives, whichever order comes, repeats or drops a key.
    val random = new Random(7L)
    val pool = keyPool.filter(k => !k.contains('\\')) ++ Seq("id", "idx", "i", "ID")
    val orders = (1 to 6).map(_ => random.shuffle(pool.distinct))
    (1 to 2000).foreach { i =>
      val keys = orders(random.nextInt(orders.size)).filter(_ => random.nextInt(10) != 0)
      val inner = orders(i % 2).take(5).map(k => s""""$k":[$i,{"${k}x":true}]""").mkString("{", ",", "}")
      val json = keys.map(k => s""""$k":$inner""").mkString("{", ",", "}") + "\n"
      val (sv, sm) = sparks(json)
      val (v, m) = ours(json).getOrElse(fail(json))
      withClue(json)(assert(v.sameElements(sv) && m.sameElements(sm)))
    }
  }

  test("numbers at every edge of parse_json's types") {
    val numbers = Seq(
      "0",
      "-0",
      "127",
      "128",
      "-128",
      "-129",
      "32767",
      "32768",
      "2147483647",
      "2147483648",
      "-2147483649",
      "999999999999999999",
      "1000000000000000000",
      "9223372036854775807",
      "9223372036854775808",
      "-9223372036854775808",
      "-9223372036854775809",
      "99999999999999999999999999999999999999",
      "999999999999999999999999999999999999999",
      "0.0",
      "-0.0",
      "1.50",
      "0.000000001",
      "0.0000000001",
      "123456789.1",
      "1234567890.1",
      "12345678901234567.8",
      "123456789012345678.9",
      "0.1234567890123456789",
      "1." + "0" * 37,
      "1." + "0" * 38,
      "0." + "0" * 38 + "1",
      "1e0",
      "1E-400",
      "1.5e308",
      "1e309",
      "-2.5E+3",
      "123456789012345678901234567890123456789012345678901234567890"
    )
    numbers.foreach { n =>
      val json = s"""{"n":$n,"a":[$n]}"""
      val (sv, sm) = sparks(json)
      val (v, m) = ours(json).getOrElse(fail(s"$n was not read from bytes"))
      withClue(n)(assert(v.sameElements(sv) && m.sameElements(sm)))
    }
  }

  test("a key twice is left to Spark's builder, whatever the depth") {
    assert(ours("""{"a":1,"a":2}""").isEmpty)
    assert(ours("""{"x":[{"b":1,"c":2,"b":3}]}""").isEmpty)
    assert(ours("""{"x":{"a":1},"y":{"a":2}}""").isDefined) // the same key in two objects is no repeat
  }
}

private object VariantEncoderSuite {
  private val keyPool = Seq(
    "a",
    "b",
    "id",
    "name",
    "Zed",
    "zed",
    "",
    "é",
    "\\u00e9t\\u00e9",
    "k\\\"q",
    "\ue000",
    "\uffee",
    "😀",
    "\\ud83d\\ude01",
    "漢字",
    "a b",
    "x" * 70
  )

  private def value(r: Random, depth: Int): String =
    r.nextInt(if (depth > 5) 6 else 9) match {
      case 0 => "null"
      case 1 => if (r.nextBoolean()) "true" else "false"
      case 2 => number(r)
      case 3 => string(r)
      case 4 => number(r)
      case 5 => string(r)
      case 6 | 7 => obj(r, depth)
      case _ => array(r, depth)
    }

  private def obj(r: Random, depth: Int): String = {
    val n = if (r.nextInt(40) == 0) 260 + r.nextInt(20) else r.nextInt(6)
    val keys =
      if (n > keyPool.size) (1 to n).map(i => s"k$i")
      else
        r.shuffle(keyPool).take(n) ++ (if (r.nextInt(25) == 0 && n > 0) Seq(r.shuffle(keyPool).head) else Nil)
    keys
      .map(k => s""""$k"${if (r.nextBoolean()) " : " else ":"}${value(r, depth + 1)}""")
      .mkString("{", ",", "}")
  }

  private def array(r: Random, depth: Int): String = {
    val n = if (r.nextInt(40) == 0) 300 else r.nextInt(5)
    (1 to n).map(_ => value(r, depth + 1)).mkString(if (r.nextBoolean()) "[ " else "[", ",", "]")
  }

  private def string(r: Random): String = r.nextInt(5) match {
    case 0 => "\"\""
    case 1 => "\"" + "long text é " * (1 + r.nextInt(12)) + "\""
    case 2 => "\"esc\\n\\t\\\"\\\\\\/\\u0041\\ud83d\\ude00\""
    case _ => "\"" + keyPool(r.nextInt(keyPool.size)) + "\""
  }

  private def number(r: Random): String = {
    val sign = if (r.nextBoolean()) "-" else ""
    val digits = (1 to 1 + r.nextInt(25)).map(_ => ('0' + r.nextInt(10)).toChar).mkString.dropWhile(_ == '0')
    val int = if (digits.isEmpty) "0" else digits
    r.nextInt(4) match {
      case 0 => sign + int
      case 1 => sign + int + "." + (1 to 1 + r.nextInt(20)).map(_ => ('0' + r.nextInt(10)).toChar).mkString
      case 2 => sign + int + "e" + (r.nextInt(40) - 20)
      case _ => sign + int.take(1 + r.nextInt(3)) + "." + "0" * r.nextInt(40) + (1 + r.nextInt(9))
    }
  }

  /** Keeps the VARIANT written into it. */
  final class Captured extends ColumnWriter {
    var value: Array[Byte] = _
    var metadata: Array[Byte] = _
    val field: StructField = StructField("v", VariantType)
    def isProjected: Boolean = true
    def setVariant(v: Array[Byte], m: Array[Byte]): Unit = { value = v; metadata = m }
    private def no: Nothing = throw new IllegalStateException("a VARIANT column takes a VARIANT")
    def setNull(): Unit = no
    def setBoolean(v: Boolean): Unit = no
    def setInt(v: Int): Unit = no
    def setLong(v: Long): Unit = no
    def setDouble(v: Double): Unit = no
    def setDecimal(v: Decimal): Unit = no
    def setBytes(bytes: Array[Byte], offset: Int, length: Int): Unit = no
    def setString(v: String): Unit = no
    def setDate(days: Int): Unit = no
    def setTimestamp(micros: Long): Unit = no
    def array: ArrayWriter = no
    def struct: TupleWriter = no
    def map: MapWriter = no
  }
}
