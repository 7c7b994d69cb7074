package sparkdrill.reader

import java.nio.charset.StandardCharsets
import java.time.{LocalDate, LocalDateTime, OffsetDateTime, ZoneOffset}

import scala.util.Random

import org.scalatest.funsuite.AnyFunSuite

/** The fast parsers answer exactly what the JDK answers, or decline: random and edge inputs, fixed seeds. */
class FastTextSuite extends AnyFunSuite {
  private def bytes(s: String) = s.getBytes(StandardCharsets.UTF_8)

  private def jdkDouble(s: String): Option[Double] =
    try Some(java.lang.Double.parseDouble(s))
    catch { case _: NumberFormatException => None }

  private def randomNumber(rng: Random): String = {
    val sb = new StringBuilder
    if (rng.nextInt(4) == 0) sb.append(if (rng.nextBoolean()) "-" else "+")
    (0 until rng.nextInt(19)).foreach(_ => sb.append(rng.nextInt(10)))
    if (rng.nextInt(3) > 0) sb.append('.')
    (0 until rng.nextInt(12)).foreach(_ => sb.append(rng.nextInt(10)))
    if (rng.nextInt(5) == 0) {
      sb.append(if (rng.nextBoolean()) 'e' else 'E')
      if (rng.nextBoolean()) sb.append(if (rng.nextBoolean()) "-" else "+")
      (0 until rng.nextInt(4)).foreach(_ => sb.append(rng.nextInt(10)))
    }
    if (rng.nextInt(30) == 0) sb.insert(rng.nextInt(sb.length + 1), "x.e-" (rng.nextInt(4)))
    sb.toString
  }

  test("doubles: the fast path gives the JDK's exact double, and takes the common shapes") {
    val rng = new Random(17)
    val out = new Array[Double](1)
    var fast = 0
    val cases = Seq(
      "0",
      "-0",
      "-0.0",
      "1.",
      ".5",
      "1e5",
      "1E-5",
      "123.456",
      "9007199254740991",
      "0.1",
      "3.14159",
      "1e22",
      "1e23",
      "1e-22",
      "1e-23",
      "4.35",
      "-12.5e+3",
      "1e",
      ".",
      "-",
      "+",
      "1.2.3",
      "1e1234"
    ) ++
      Seq.fill(200000)(randomNumber(rng))
    cases.filter(_.nonEmpty).foreach { s =>
      val b = bytes(s)
      if (FastDouble.parse(b, 0, b.length, out)) {
        fast += 1
        val jdk = jdkDouble(s)
        assert(jdk.isDefined, s"'$s' is not a JDK double but the fast path read ${out(0)}")
        assert(
          java.lang.Double.doubleToRawLongBits(out(0)) == java.lang.Double.doubleToRawLongBits(jdk.get),
          s
        )
      }
    }
    assert(fast > cases.size / 3, s"fast path taken $fast of ${cases.size}")
    assert(FastDouble.parse(bytes("19.99"), 0, 5, out) && out(0) == 19.99)
  }

  private def jdkDate(s: String): Option[Int] =
    try Some(LocalDate.parse(s).toEpochDay.toInt)
    catch { case _: java.time.DateTimeException => None }

  private def jdkDateTime(s: String): Option[Long] =
    try {
      val local =
        if (s.length == 10) LocalDate.parse(s).atStartOfDay() else LocalDateTime.parse(s.replace(' ', 'T'))
      Some(local.toEpochSecond(ZoneOffset.UTC) * 1000000000L + local.getNano)
    } catch { case _: java.time.DateTimeException => None }

  private def two(rng: Random, max: Int) = f"${rng.nextInt(max)}%02d"

  private def randomDateTime(rng: Random): String = {
    val date = f"${rng.nextInt(10000)}%04d-${two(rng, 14)}-${two(rng, 33)}"
    val time = rng.nextInt(5) match {
      case 0 => ""
      case 1 => s"${"T " (rng.nextInt(2))}${two(rng, 26)}:${two(rng, 61)}"
      case 2 => s"${"T " (rng.nextInt(2))}${two(rng, 26)}:${two(rng, 61)}:${two(rng, 61)}"
      case _ =>
        s"${"T " (rng.nextInt(2))}${two(rng, 25)}:${two(rng, 60)}:${two(rng, 60)}." +
          (0 until rng.nextInt(11)).map(_ => rng.nextInt(10)).mkString
    }
    val s = date + time
    if (rng.nextInt(20) == 0) s.updated(rng.nextInt(s.length), "x:-T 9" (rng.nextInt(6))) else s
  }

  test("dates and timestamps: the fast path gives java.time's answer, and takes the common shapes") {
    val rng = new Random(23)
    val out = new Array[Long](4)
    var fastDates = 0
    var fastTimes = 0
    val cases = Seq(
      "2024-02-29",
      "2023-02-29",
      "1900-02-29",
      "2000-02-29",
      "0000-01-01",
      "1969-12-31",
      "2024-01-31 23:59:59.999999999",
      "2024-01-31T24:00",
      "2024-01-31 12:00:00.",
      "2024-13-01"
    ) ++
      Seq.fill(200000)(randomDateTime(rng))
    cases.foreach { s =>
      val b = bytes(s)
      val day = FastText.isoDate(b, 0, b.length)
      if (day != Int.MinValue) { fastDates += 1; assert(jdkDate(s).contains(day), s) }
      if (FastText.isoDateTime(b, 0, b.length, out)) {
        fastTimes += 1
        val nanos = (out(0) * 86400L + out(1)) * 1000000000L + out(2)
        assert(out(3) == FastText.NoOffset && jdkDateTime(s).contains(nanos), s)
      }
    }
    assert(fastDates > 1000 && fastTimes > 10000, s"fast dates $fastDates, fast timestamps $fastTimes")
  }

  test("timestamps with an offset: the fast path gives java.time's instant, and takes `Z` and `+hh:mm`") {
    val rng = new Random(29)
    val out = new Array[Long](4)
    var withOffset = 0
    val cases = Seq(
      "2024-01-31T12:00Z",
      "2024-01-31 12:00:00.5+18:00",
      "2024-01-31 12:00:00.5+18:01",
      "2024-01-31 12:00:00.5-18:00",
      "2024-01-31T12:00:00+19:00",
      "2024-01-31T12:00:00-00:00",
      "2024-01-31T12:00:00+05:60",
      "2024-01-31T12:00:00+0530",
      "2024-01-31T12:00:00+05:30:15",
      "2024-01-31T12:00:00z",
      "2024-01-31Z",
      "2024-01-31T12:00:00.Z",
      "2024-01-31T12:00:00.1234567890Z",
      "0000-01-01T00:00:00+14:00"
    ) ++ Seq.fill(200000)(randomDateTime(rng) + randomOffset(rng))
    cases.foreach { s =>
      val b = bytes(s)
      if (FastText.isoDateTime(b, 0, b.length, out)) {
        val nanos = (out(0) * 86400L + out(1)) * 1000000000L + out(2)
        if (out(3) == FastText.NoOffset) assert(jdkDateTime(s).contains(nanos), s)
        else {
          withOffset += 1
          assert(jdkInstant(s).contains(nanos - out(3) * 1000000000L), s)
        }
      } else if (s.endsWith("Z") || s.matches(".*[+-]\\d\\d:\\d\\d")) {
        // declined: java.time must refuse it too, or it is a shape the fast path leaves to it
        assert(jdkInstant(s).isEmpty || s.matches(".*\\.\\d{10,}.*|.*\\.[Z+-].*|.{10}[Z+-].*"), s)
      }
    }
    assert(withOffset > 20000, s"fast timestamps with an offset: $withOffset")
  }

  private def jdkInstant(s: String): Option[Long] =
    try {
      val t = OffsetDateTime.parse(s.replace(' ', 'T'))
      Some(t.toEpochSecond * 1000000000L + t.getNano)
    } catch { case _: java.time.DateTimeException => None }

  private def randomOffset(rng: Random): String = rng.nextInt(6) match {
    case 0 => ""
    case 1 | 2 => "Z"
    case 3 => s"${"+-" (rng.nextInt(2))}${two(rng, 20)}:${two(rng, 62)}"
    case 4 => s"${"+-" (rng.nextInt(2))}${two(rng, 19)}${two(rng, 60)}"
    case _ => "z"
  }
}
