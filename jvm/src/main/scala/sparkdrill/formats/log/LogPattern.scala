package sparkdrill.formats.log

import java.util.regex.{Pattern, PatternSyntaxException}

import sparkdrill.errors.{DrillErrors, OptionException}

/** A log line's pattern: a Java regular expression whose named groups are the columns, in the order the
  * groups open (SPEC 12). `dashIsNull` is the presets' rule that a field written `-` is null.
  */
private[log] final case class LogPattern(
    regex: String,
    columns: IndexedSeq[String],
    groups: Array[Int],
    dashIsNull: Boolean,
    preset: String = null // the preset's name, read by AccessLogScanner where it can
) {
  val pattern: Pattern = Pattern.compile(regex)

  /** Only ASCII in the pattern: it may run over a line's bytes read as Latin-1 when the line is ASCII too. */
  val ascii: Boolean = regex.forall(_ < 0x80)
}

private[log] object LogPattern {
  // A quoted field of an access log: a backslash escapes a quote (nginx writes \" inside a user agent).
  private val Quoted = """(?:[^"\\]|\\.)*"""
  // The request line; a request that is not "METHOD PATH [PROTOCOL]" (`-`, a probe's binary) still matches,
  // with the three parts null.
  private val Request = s""""(?:(?<method>[^ "]+) (?<path>[^ "]+)(?: (?<protocol>[^"]*))?|$Quoted)""""
  private val Common =
    s"""(?<host>\\S+) (?<ident>\\S+) (?<user>\\S+) \\[(?<time>[^\\]]+)\\] $Request (?<status>\\S+) (?<bytes>\\S+)"""
  // Fields an nginx `main` format adds after `combined` (e.g. "$http_x_forwarded_for") are allowed and left out.
  private val Combined = s"""$Common "(?<referer>$Quoted)" "(?<agent>$Quoted)"(?: .*)?"""

  val presets: Map[String, String] = Map("common" -> Common, "combined" -> Combined)

  def preset(name: String): LogPattern = compile(presets(name), dashIsNull = true).copy(preset = name)

  private def bad(reason: String, regex: String): OptionException =
    DrillErrors.badLogRegex(reason, regex)

  /** Compiles a user's pattern; an error shows the pattern and where it fails, or says it names no group. */
  def compile(regex: String, dashIsNull: Boolean = false): LogPattern = {
    val compiled =
      try Pattern.compile(regex)
      catch {
        case e: PatternSyntaxException =>
          throw bad(
            s"option 'regex': the pattern does not compile: ${e.getDescription} near index ${e.getIndex}: $regex",
            regex
          )
      }
    val named = namedGroups(regex)
    if (named.isEmpty)
      throw bad(
        s"option 'regex': the pattern has no named group (?<name>...), so it gives no column: $regex",
        regex
      )
    val total = compiled.matcher("").groupCount()
    val counted = capturingGroups(regex)
    if (counted != total) // a construct the scan below does not know: refuse rather than misplace columns
      throw bad(
        s"option 'regex': cannot tell the order of the pattern's groups ($counted found, $total in the pattern): $regex",
        regex
      )
    val dup = named.map(_._1.toLowerCase(java.util.Locale.ROOT)).groupBy(identity).collect {
      case (n, v) if v.size > 1 => n
    }
    if (dup.nonEmpty)
      throw bad(s"option 'regex': group names differ only in case: ${dup.mkString(", ")}", regex)
    LogPattern(regex, named.map(_._1).toIndexedSeq, named.map(_._2).toArray, dashIsNull)
  }

  /** The named groups in the order they open, with their group numbers: a scan of the pattern that skips
    * escapes, `\Q...\E` and character classes.
    */
  private def namedGroups(regex: String): Seq[(String, Int)] = {
    val found = Seq.newBuilder[(String, Int)]
    scan(
      regex,
      (at, number) =>
        if (
          regex.startsWith("(?<", at) && at + 3 < regex.length && regex.charAt(at + 3) != '=' && regex
            .charAt(at + 3) != '!'
        ) {
          val close = regex.indexOf('>', at)
          found += regex.substring(at + 3, close) -> number
        }
    )
    found.result()
  }

  private def capturingGroups(regex: String): Int = scan(regex, (_, _) => ())

  /** Calls `group(index, number)` at each capturing group's `(`; returns how many there are. */
  private def scan(regex: String, group: (Int, Int) => Unit): Int = {
    var i = 0
    var count = 0
    var inClass = 0
    while (i < regex.length) {
      val c = regex.charAt(i)
      if (c == '\\') {
        if (regex.startsWith("\\Q", i)) {
          val e = regex.indexOf("\\E", i + 2); i = if (e < 0) regex.length else e + 1
        } else i += 1
      } else if (inClass > 0) { if (c == '[') inClass += 1 else if (c == ']') inClass -= 1 }
      else if (c == '[') {
        inClass = 1
        if (regex.startsWith("[^]", i)) i += 2
        else if (regex.startsWith("[]", i)) i += 1 // a leading ] is literal
      } else if (c == '(') {
        val capturing = !regex.startsWith("(?", i) ||
          (regex.startsWith("(?<", i) && i + 3 < regex.length && regex.charAt(i + 3) != '=' && regex.charAt(
            i + 3
          ) != '!')
        if (capturing) { count += 1; group(i, count) }
      }
      i += 1
    }
    count
  }
}
