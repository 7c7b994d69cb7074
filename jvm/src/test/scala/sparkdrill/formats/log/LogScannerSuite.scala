package sparkdrill.formats.log

import java.nio.charset.StandardCharsets

import scala.util.Random

import org.scalatest.funsuite.AnyFunSuite

/** AccessLogScanner finds exactly what the presets' regex finds, on every ASCII line without a backslash:
  * real lines, and lines mutated around the characters the pattern turns on.
  */
class LogScannerSuite extends AnyFunSuite {
  private val lines = Seq(
    """192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://example.com/start" "Mozilla/4.08 [en] (Win98; I ;Nav)"""",
    """192.0.2.2 - - [10/Oct/2000:13:55:37 -0700] "-" 408 - "-" "-"""",
    """192.0.2.3 - - [10/Oct/2000:13:55:38 -0700] "POST /login" 302 0 "-" "curl 8.0" "198.51.100.7"""",
    """192.0.2.4 - - [10/Oct/2000:13:55:38 -0700] "GET /a b c HTTP/1.1" 200 1 "" """"",
    """h i u [t] "m p" s b "r" "a"""",
    """h i u [t] "" s b "" """""
  )
  // The characters the pattern turns on, and a few others.
  private val specials = " \t\"[]-x/\r\n\u000b".toSeq

  private def mutate(line: String, r: Random): String = {
    val chars = new StringBuilder(line)
    (0 to r.nextInt(3)).foreach { _ =>
      val at = r.nextInt(chars.length + 1)
      r.nextInt(3) match {
        case 0 if at < chars.length => chars.deleteCharAt(at)
        case 1 if at < chars.length => chars.setCharAt(at, specials(r.nextInt(specials.length)))
        case _ => chars.insert(at, specials(r.nextInt(specials.length)))
      }
    }
    chars.toString
  }

  private def viaRegex(preset: String, line: String): Option[Seq[String]] = {
    val p = LogPattern.preset(preset)
    val m = p.pattern.matcher(line)
    if (!m.matches()) None else Some(p.groups.toSeq.map(m.group))
  }

  private def viaScanner(preset: String, line: String): Option[Seq[String]] = {
    val b = ("xx" + line).getBytes(StandardCharsets.US_ASCII) // not at offset 0, as in a buffer
    val n = LogPattern.preset(preset).columns.length
    val starts = new Array[Int](n)
    val ends = new Array[Int](n)
    if (!AccessLogScanner.scan(b, 2, b.length - 2, preset == "combined", starts, ends)) None
    else
      Some(
        (0 until n).map(i =>
          if (starts(i) < 0) null else new String(b, starts(i), ends(i) - starts(i), "US-ASCII")
        )
      )
  }

  test("the scanner agrees with the regex on real and mutated lines, for both presets") {
    val r = new Random(29)
    var matched = 0
    var checked = 0
    for (preset <- Seq("common", "combined"); base <- lines; k <- 0 until 3000) {
      val source = if (preset == "common") base.replaceAll(""" "[^"]*" "[^"]*"(?: .*)?$""", "") else base
      val line = k match {
        case 0 => source
        case 1 => source + "\r"
        case 2 => source + "\r\n"
        case 3 => source + "\n"
        case 4 => source + "\n\n"
        case _ => mutate(source, r)
      }
      if (!line.contains("\\")) {
        val expected = viaRegex(preset, line)
        assert(viaScanner(preset, line) == expected, s"$preset: [$line]")
        if (expected.isDefined) matched += 1
        checked += 1
      }
    }
    assert(matched > 1000 && checked - matched > 1000, s"$matched of $checked matched") // both outcomes seen
  }
}
