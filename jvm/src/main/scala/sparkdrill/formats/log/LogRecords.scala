package sparkdrill.formats.log

import java.nio.charset.StandardCharsets
import java.util.regex.Matcher

import sparkdrill.reader.{FieldRecords, FileInput, LineSplit}

/** The records of a log file: one per non-blank line of the split, cut by the pattern's named groups. A line
  * the pattern does not match as a whole is malformed. An ASCII line (most of any log) is matched over its
  * bytes in place; a line with other characters is decoded first, so a pattern sees characters, not bytes.
  */
private[log] final class LogRecords(file: FileInput, log: LogPattern) extends FieldRecords {
  private val lines = new LineSplit(file, skipBlank = true)
  private val view = new LatinView
  private val matcher: Matcher = log.pattern.matcher("")
  private val starts = new Array[Int](log.columns.length)
  private val ends = new Array[Int](log.columns.length)
  private val lengths = new Array[Int](log.columns.length)
  private var fieldBytes: Array[Byte] = Array.emptyByteArray

  val names: IndexedSeq[String] = log.columns
  def next(): Boolean = lines.next()
  def line: Long = lines.line
  def offset: Long = lines.offset
  def count: Int = names.length
  def bytes: Array[Byte] = fieldBytes
  def start(i: Int): Int = starts(i)
  def length(i: Int): Int = lengths(i)
  def text: String = lines.text

  def split(): Option[String] = {
    val b = lines.bytes
    val kind = LogRecords.kindOf(b, lines.start, lines.length)
    if (log.preset != null && kind == LogRecords.Plain) {
      fieldBytes = b
      if (!AccessLogScanner.scan(b, lines.start, lines.length, log.preset == "combined", starts, ends))
        LogRecords.NoMatch
      else { settle(b); None }
    } else if (log.ascii && kind != LogRecords.Other) {
      view.set(b, lines.start, lines.length)
      matcher.reset(view)
      if (!matcher.matches()) LogRecords.NoMatch
      else {
        fieldBytes = b
        var i = 0
        while (i < starts.length) {
          val g = log.groups(i)
          val s = matcher.start(g)
          starts(i) = if (s < 0) -1 else lines.start + s
          ends(i) = if (s < 0) -1 else lines.start + matcher.end(g)
          i += 1
        }
        settle(b)
        None
      }
    } else {
      matcher.reset(lines.text)
      if (!matcher.matches()) LogRecords.NoMatch
      else {
        // Each group's text, encoded again into one buffer: the template reads fields as UTF-8 bytes.
        val out = new java.io.ByteArrayOutputStream(lines.length)
        var i = 0
        while (i < starts.length) {
          val value = matcher.group(log.groups(i))
          if (value == null) starts(i) = -1
          else {
            val v = value.getBytes(StandardCharsets.UTF_8)
            starts(i) = out.size()
            ends(i) = out.size() + v.length
            out.write(v, 0, v.length)
          }
          i += 1
        }
        fieldBytes = out.toByteArray
        settle(fieldBytes)
        None
      }
    }
  }

  /** Lengths from the ends, and the presets' `-` as null. */
  private def settle(b: Array[Byte]): Unit = {
    var i = 0
    while (i < starts.length) {
      if (starts(i) >= 0) {
        lengths(i) = ends(i) - starts(i)
        if (isDash(b, starts(i), lengths(i))) starts(i) = -1
      }
      i += 1
    }
  }

  private def isDash(b: Array[Byte], at: Int, n: Int): Boolean = log.dashIsNull && n == 1 && b(at) == '-'

  def close(): Unit = lines.close()
}

private object LogRecords {
  val NoMatch: Option[String] = Some("the line does not match the pattern")
  val Plain = 0 // ASCII, no backslash
  val Ascii = 1 // ASCII with a backslash
  val Other = 2 // other characters

  def kindOf(b: Array[Byte], from: Int, n: Int): Int = {
    var kind = Plain
    var i = from
    val end = from + n
    while (i < end) {
      val c = b(i)
      if (c < 0) return Other
      if (c == '\\') kind = Ascii
      i += 1
    }
    kind
  }
}

/** Bytes as a CharSequence, one char per byte (Latin-1): for ASCII text, the same characters without a copy. */
private final class LatinView extends CharSequence {
  private var bytes: Array[Byte] = Array.emptyByteArray
  private var start = 0
  private var n = 0
  def set(b: Array[Byte], s: Int, length: Int): Unit = { bytes = b; start = s; n = length }
  def length(): Int = n
  def charAt(index: Int): Char = (bytes(start + index) & 0xff).toChar
  def subSequence(from: Int, to: Int): CharSequence =
    new String(bytes, start + from, to - from, StandardCharsets.ISO_8859_1)
  override def toString: String = new String(bytes, start, n, StandardCharsets.ISO_8859_1)
}
