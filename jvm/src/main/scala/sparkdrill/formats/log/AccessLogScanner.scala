package sparkdrill.formats.log

/** The `common` and `combined` presets read without the regex: a scan of the line's bytes that finds the same
  * groups [[LogPattern]]'s expression would, for ASCII lines with no backslash (every other line goes to the
  * regex). One pass with no backtracking; the regex costs about three times as much per line (bench.logs),
  * and a query of two columns of a log is the common case. LogScannerSuite checks it against the regex.
  *
  * Why the two agree: in the expression every group but the request's is delimited by a character it cannot
  * hold (`\S+` by a space, `[^\]]+` by `]`, a quoted field by the first `"` once no backslash escapes one),
  * so it has one way to match. The request tries `METHOD PATH [PROTOCOL]` first, then any quoted text; both
  * end at the same first `"` when there is no backslash, so when the first fails the groups are absent and
  * the rest of the line decides as it does for the regex.
  */
private[log] object AccessLogScanner {

  /** Finds the groups (host, ident, user, time, method, path, protocol, status, bytes, then referer, agent
    * when `combined`) of `b(from until from + n)` into `starts`/`ends` (start -1: absent); false when the
    * pattern does not match the line.
    */
  def scan(
      b: Array[Byte],
      from: Int,
      n: Int,
      combined: Boolean,
      starts: Array[Int],
      ends: Array[Int]
  ): Boolean = {
    val end = from + n
    var i = from
    var slot = 0

    def isSpace(c: Byte): Boolean = c == ' ' || c == '\t' || c == '\n' || c == 0x0b || c == '\f' || c == '\r'
    def group(s: Int, e: Int): Unit = { starts(slot) = s; ends(slot) = e; slot += 1 }
    def nonSpace(): Boolean = {
      val s = i
      while (i < end && !isSpace(b(i))) i += 1
      if (i == s) false else { group(s, i); true }
    }
    // The whole line must match (Matcher.matches: `$` before a final line end still leaves it unmatched).
    def lineEnd(k: Int): Boolean = k == end
    def expect(c: Char): Boolean = if (i < end && b(i) == c) { i += 1; true }
    else false
    def quoteAfter(s: Int): Int = { var q = s; while (q < end && b(q) != '"') q += 1; if (q < end) q else -1 }
    def quoted(): Boolean = expect('"') && {
      val q = quoteAfter(i)
      q >= 0 && { group(i, q); i = q + 1; true }
    }

    if (!(nonSpace() && expect(' ') && nonSpace() && expect(' ') && nonSpace() && expect(' ') && expect('[')))
      return false
    val timeStart = i
    while (i < end && b(i) != ']') i += 1
    if (i == timeStart || i == end) return false
    group(timeStart, i)
    i += 1
    if (!(expect(' ') && expect('"'))) return false
    val q = quoteAfter(i)
    if (q < 0) return false
    request(b, i, q, slot, starts, ends)
    slot += 3
    i = q + 1
    if (!(expect(' ') && nonSpace() && expect(' ') && nonSpace())) return false
    if (!combined) return lineEnd(i)
    if (!(expect(' ') && quoted() && expect(' ') && quoted())) return false
    // `(?: .*)?$`: anything after a space but a line end (a line from LineSplit holds none; this is exact anyway)
    lineEnd(i) || b(i) == ' ' && {
      while (i < end && b(i) != '\n' && b(i) != '\r') i += 1
      lineEnd(i)
    }
  }

  /** `METHOD PATH [PROTOCOL]` between `s` and the closing quote `q`, else the three groups absent. */
  private def request(
      b: Array[Byte],
      s: Int,
      q: Int,
      slot: Int,
      starts: Array[Int],
      ends: Array[Int]
  ): Unit = {
    var j = s
    while (j < q && b(j) != ' ') j += 1
    var k = j + 1
    while (k < q && b(k) != ' ') k += 1
    if (j == s || j >= q || k == j + 1) { starts(slot) = -1; starts(slot + 1) = -1; starts(slot + 2) = -1 }
    else {
      starts(slot) = s; ends(slot) = j
      starts(slot + 1) = j + 1; ends(slot + 1) = k
      if (k >= q) starts(slot + 2) = -1 else { starts(slot + 2) = k + 1; ends(slot + 2) = q }
    }
  }
}
