package sparkdrill.reader

import java.nio.charset.StandardCharsets
import java.time.{LocalDate, LocalDateTime, ZoneId}
import java.time.format.DateTimeFormatter
import java.time.temporal.{TemporalAccessor, TemporalQueries}
import java.util.Locale

import org.apache.spark.sql.catalyst.util.DateTimeUtils
import org.apache.spark.sql.types._

import sparkdrill.loader.{ColumnWriter, VariantTypes}
import sparkdrill.errors.DrillErrors

/** Writes one text field into a column of its type. `write` returns false when the text cannot be converted
  * (the caller applies the `mode`). Typed conversions trim surrounding whitespace first; a blank field is null
  * in a nullable column, and the default (or the type's zero) in a NOT NULL one. String columns keep their
  * text as it is, except that an empty unquoted field is null there too (SPEC 9.1).
  */
private[sparkdrill] abstract class TextConverter(val writer: ColumnWriter, missing: ColumnWriter => Unit) {

  /** Writes `length` bytes of text as they are. */
  def write(bytes: Array[Byte], start: Int, length: Int): Boolean

  /** Writes a field as the parser read it; `quoted` tells whether it stood in quotes. Only string columns
    * tell the two apart (an empty field is null unquoted, `""` or `emptyValue` quoted); a typed column reads
    * an empty field as blank either way.
    */
  def writeField(bytes: Array[Byte], start: Int, length: Int, quoted: Boolean): Boolean

  /** The field is absent (a short row): null, or a NOT NULL column's default or zero. */
  def writeMissing(): Unit = missing(writer)
}

private[sparkdrill] object TextConverter {

  /** Per-read conversion settings: null/empty spellings, date and timestamp patterns, time zone. */
  final case class Settings(
      nullValue: Option[String],
      emptyValue: Option[String],
      dateFormat: Option[String],
      timestampFormat: Option[String],
      columnFormats: Map[String, String],
      zone: ZoneId
  )

  /** The converter of `writer`'s column; `fill` is a NOT NULL column's DEFAULT or zero (an internal value). */
  def apply(writer: ColumnWriter, s: Settings, fill: Option[Any]): TextConverter = {
    val field = writer.field
    val missing: ColumnWriter => Unit =
      if (field.nullable) _.setNull() else fill.map(Fills.writer(field, _)).getOrElse(Fills.zeroWriter(field))
    val format = s.columnFormats.get(field.name.toLowerCase(Locale.ROOT))
    val base: TextConverter = field.dataType match {
      case StringType => new StringConverter(writer, missing, s.nullValue, s.emptyValue)
      case _ =>
        val parse: Parser = field.dataType match {
          case IntegerType => new BoundedIntParser(Int.MinValue, Int.MaxValue)
          case LongType => new LongParser
          case ShortType => new BoundedIntParser(Short.MinValue, Short.MaxValue)
          case ByteType => new BoundedIntParser(Byte.MinValue, Byte.MaxValue)
          case DoubleType => new DoubleParser
          case FloatType => new FloatParser
          case BooleanType => new BooleanParser
          case d: DecimalType => new DecimalParser(d)
          case DateType => new DateParser(format.orElse(s.dateFormat))
          case TimestampType => new TimestampParser(format.orElse(s.timestampFormat), s.zone)
          case TimestampNTZType => new TimestampParser(format.orElse(s.timestampFormat), null)
          case t if VariantTypes.isVariant(t) => throw DrillErrors.variantOfText(field.name)
          case other =>
            throw DrillErrors.internalArgument(
              s"column '${field.name}' has type ${other.simpleString}, which text cannot be converted to"
            )
        }
        new TypedConverter(writer, missing, parse)
    }
    s.nullValue match {
      case Some(n) if n.nonEmpty => new NullValueConverter(base, n.getBytes(StandardCharsets.UTF_8))
      case _ => base // an empty nullValue: empty fields are null already (quoted ones: StringConverter)
    }
  }

  /** Text as it is. An empty field is null (a NOT NULL column's default or "") unless it was quoted; a quoted
    * one is `emptyValue` (default ""), or null when that equals `nullValue`, as in Spark's CSV reader, which
    * turns a quoted empty field into `emptyValue` and then compares it with `nullValue`.
    */
  private final class StringConverter(
      w: ColumnWriter,
      missing: ColumnWriter => Unit,
      nullValue: Option[String],
      emptyValue: Option[String]
  ) extends TextConverter(w, missing) {
    private val quotedEmpty: Array[Byte] = {
      val text = emptyValue.getOrElse("")
      if (nullValue.contains(text)) null else text.getBytes(StandardCharsets.UTF_8)
    }

    def write(bytes: Array[Byte], start: Int, length: Int): Boolean = {
      w.setBytes(bytes, start, length)
      true
    }

    override def writeField(bytes: Array[Byte], start: Int, length: Int, quoted: Boolean): Boolean = {
      if (length > 0) w.setBytes(bytes, start, length)
      else if (quoted && quotedEmpty != null) w.setBytes(quotedEmpty, 0, quotedEmpty.length)
      else writeMissing()
      true
    }
  }

  /** A field whose text is `nullValue` (not empty: empty fields are handled by the column's converter) is
    * null, or a NOT NULL column's default or zero.
    */
  private final class NullValueConverter(inner: TextConverter, nullBytes: Array[Byte])
      extends TextConverter(inner.writer, _ => inner.writeMissing()) {
    private def isNull(bytes: Array[Byte], start: Int, length: Int): Boolean =
      length == nullBytes.length &&
        ByteRanges.equal(bytes, start, start + length, nullBytes, 0, length)

    def write(bytes: Array[Byte], start: Int, length: Int): Boolean =
      if (isNull(bytes, start, length)) { inner.writeMissing(); true }
      else inner.write(bytes, start, length)

    override def writeField(bytes: Array[Byte], start: Int, length: Int, quoted: Boolean): Boolean =
      if (isNull(bytes, start, length)) { inner.writeMissing(); true }
      else inner.writeField(bytes, start, length, quoted)

  }

  // A blank field is what a missing one is: null, or a NOT NULL column's default or zero.
  private final class TypedConverter(w: ColumnWriter, missing: ColumnWriter => Unit, parse: Parser)
      extends TextConverter(w, missing) {
    def write(bytes: Array[Byte], start: Int, length: Int): Boolean = {
      var s = start
      var e = start + length
      while (s < e && isSpace(bytes(s))) s += 1
      while (e > s && isSpace(bytes(e - 1))) e -= 1
      if (s == e) { missing(w); true }
      else parse(w, bytes, s, e - s)
    }

    // Quoted or not, a typed field reads the same.
    override def writeField(bytes: Array[Byte], start: Int, length: Int, quoted: Boolean): Boolean =
      write(bytes, start, length)
  }

  @inline private def isSpace(b: Byte): Boolean = b == ' ' || b == '\t'

  /** Parses trimmed, non-blank text and writes it; false when it is not a value of the type. */
  abstract class Parser { def apply(w: ColumnWriter, bytes: Array[Byte], start: Int, length: Int): Boolean }

  /** A decimal integer with an optional sign, no other characters; None past the bounds. */
  private def parseLong(bytes: Array[Byte], start: Int, length: Int, min: Long, max: Long): Long = {
    var i = start
    val end = start + length
    val negative = bytes(i) == '-'
    if (negative || bytes(i) == '+') i += 1
    if (i == end) return Long.MinValue
    if (end - i <= 18) { // cannot overflow: no bound check per digit (it divided, a tenth of a typed read)
      var v = 0L
      while (i < end) {
        val d = bytes(i) - '0'
        if (d < 0 || d > 9) return Long.MinValue
        v = v * 10 + d
        i += 1
      }
      val signed = if (negative) -v else v
      return if (signed < min || signed > max) Long.MinValue else signed
    }
    var acc = 0L // accumulated as a negative number so that Long.MinValue fits
    val limit = if (negative) min else -max
    while (i < end) {
      val d = bytes(i) - '0'
      if (d < 0 || d > 9) return Long.MinValue
      if (acc < (limit + d) / 10) return Long.MinValue
      acc = acc * 10 - d
      i += 1
    }
    if (negative) acc else -acc
  }

  /** int, short and byte: parsed as a long within the type's bounds, written with `setInt`. */
  private final class BoundedIntParser(min: Long, max: Long) extends Parser {
    def apply(w: ColumnWriter, b: Array[Byte], s: Int, n: Int): Boolean = {
      val v = parseLong(b, s, n, min, max)
      if (v == Long.MinValue) false else { w.setInt(v.toInt); true }
    }
  }
  private final class LongParser extends Parser {
    def apply(w: ColumnWriter, b: Array[Byte], s: Int, n: Int): Boolean = {
      val v = parseLong(b, s, n, Long.MinValue + 1, Long.MaxValue)
      if (v == Long.MinValue) {
        // Long.MinValue itself is the failure sentinel above; parse it the slow way.
        val text = ascii(b, s, n)
        scala.util.Try(text.toLong).toOption match {
          case Some(x) => w.setLong(x); true
          case None => false
        }
      } else { w.setLong(v); true }
    }
  }

  private def ascii(b: Array[Byte], s: Int, n: Int): String = new String(b, s, n, StandardCharsets.ISO_8859_1)
  private def utf8(b: Array[Byte], s: Int, n: Int): String = new String(b, s, n, StandardCharsets.UTF_8)

  // Java's parser accepts "1d", "0x1p3", "NaN" and "Infinity"; only the first two are not numbers in text.
  private def plainNumber(b: Array[Byte], s: Int, n: Int): Boolean = {
    val last = b(s + n - 1)
    last != 'd' && last != 'D' && last != 'f' && last != 'F' && !(n > 1 && (b(s + 1) == 'x' || b(
      s + 1
    ) == 'X'))
  }

  private final class DoubleParser extends Parser {
    private val fast = new Array[Double](1)
    def apply(w: ColumnWriter, b: Array[Byte], s: Int, n: Int): Boolean =
      if (FastDouble.parse(b, s, n, fast)) { w.setDouble(fast(0)); true }
      else
        plainNumber(b, s, n) && {
          try { w.setDouble(java.lang.Double.parseDouble(ascii(b, s, n))); true }
          catch { case _: NumberFormatException => false }
        }
  }
  private final class FloatParser extends Parser {
    def apply(w: ColumnWriter, b: Array[Byte], s: Int, n: Int): Boolean =
      plainNumber(b, s, n) && {
        try { w.setDouble(java.lang.Float.parseFloat(ascii(b, s, n)).toDouble); true }
        catch { case _: NumberFormatException => false }
      }
  }

  private final class DecimalParser(t: DecimalType) extends Parser {
    def apply(w: ColumnWriter, b: Array[Byte], s: Int, n: Int): Boolean =
      try {
        // Drill rounds half up to the column's scale, then fails when the precision overflows.
        val v = new java.math.BigDecimal(ascii(b, s, n)).setScale(t.scale, java.math.RoundingMode.HALF_UP)
        if (v.precision > t.precision) false
        else { w.setDecimal(Decimal(v, t.precision, t.scale)); true }
      } catch { case _: NumberFormatException => false }
  }

  private final class BooleanParser extends Parser {
    def apply(w: ColumnWriter, b: Array[Byte], s: Int, n: Int): Boolean =
      if (BooleanParser.spells(b, s, n, BooleanParser.trueWords)) { w.setBoolean(true); true }
      else if (BooleanParser.spells(b, s, n, BooleanParser.falseWords)) { w.setBoolean(false); true }
      else false
  }

  private object BooleanParser {
    val trueWords: Array[Array[Byte]] =
      Array("true", "t", "yes", "y", "1").map(_.getBytes(StandardCharsets.US_ASCII))
    val falseWords: Array[Array[Byte]] =
      Array("false", "f", "no", "n", "0").map(_.getBytes(StandardCharsets.US_ASCII))

    @inline private def lower(c: Byte): Int = if (c >= 'A' && c <= 'Z') c + 32 else c

    /** Whether the text is one of `words`, ignoring ASCII case. */
    def spells(b: Array[Byte], s: Int, n: Int, words: Array[Array[Byte]]): Boolean = {
      var k = 0
      while (k < words.length) {
        val word = words(k)
        if (word.length == n) {
          var i = 0
          while (i < n && lower(b(s + i)) == word(i)) i += 1
          if (i == n) return true
        }
        k += 1
      }
      false
    }
  }

  private final class DateParser(pattern: Option[String]) extends Parser {
    private val formatter = pattern.map(p => DateTimeFormatter.ofPattern(p, Locale.ROOT))
    def apply(w: ColumnWriter, b: Array[Byte], s: Int, n: Int): Boolean = {
      val fast = if (formatter.isEmpty) FastText.isoDate(b, s, n) else Int.MinValue
      if (fast != Int.MinValue) { w.setDate(fast); true }
      else slow(w, b, s, n)
    }

    private def slow(w: ColumnWriter, b: Array[Byte], s: Int, n: Int): Boolean =
      try {
        val text = utf8(b, s, n)
        val date = formatter match {
          case Some(f) => LocalDate.parse(text, f)
          case None => LocalDate.parse(text)
        }
        w.setDate(date.toEpochDay.toInt)
        true
      } catch { case _: java.time.DateTimeException => false }
  }

  /** ISO timestamps (`2024-01-31 12:00:00`, `T` allowed, fractions optional), or a pattern; wall-clock time
    * in `zone` (null: no zone, for timestamp_ntz).
    */
  private final class TimestampParser(pattern: Option[String], zone: ZoneId) extends Parser {
    private val formatter = pattern.map(p => DateTimeFormatter.ofPattern(p, Locale.ROOT))
    // A fixed offset (UTC, +02:00) turns a local time into an instant by arithmetic; a zone with rules goes
    // through java.time for its gaps and overlaps.
    private val fixedOffsetSeconds: Option[Long] =
      if (zone == null) Some(0L)
      else if (zone.getRules.isFixedOffset)
        Some(zone.getRules.getOffset(java.time.Instant.EPOCH).getTotalSeconds.toLong)
      else None
    private val fields = new Array[Long](4)

    // The fast path for ISO text: a value with its own offset is that instant (timestamp_ntz keeps its
    // wall-clock time), one without is wall-clock time at the fixed offset; a zone with rules asks java.time.
    def apply(w: ColumnWriter, b: Array[Byte], s: Int, n: Int): Boolean =
      if (formatter.isEmpty && FastText.isoDateTime(b, s, n, fields)) {
        val offset =
          if (zone != null && fields(3) != FastText.NoOffset) Some(fields(3)) else fixedOffsetSeconds
        offset match {
          case Some(o) =>
            w.setTimestamp((fields(0) * 86400L + fields(1) - o) * 1000000L + fields(2) / 1000L)
            true
          case None => slow(w, b, s, n)
        }
      } else slow(w, b, s, n)

    // A value that carries its own offset or zone (`-0700`, `Z`, `+02:00`, a zone id) is that instant; one
    // without is wall-clock time in `zone`. timestamp_ntz keeps the wall-clock time and drops the offset.
    private def slow(w: ColumnWriter, b: Array[Byte], s: Int, n: Int): Boolean =
      try {
        val text = utf8(b, s, n)
        val parsed: TemporalAccessor = formatter match {
          case Some(f) => f.parse(text)
          case None =>
            if (text.length == 10) LocalDate.parse(text).atStartOfDay()
            else DateTimeFormatter.ISO_DATE_TIME.parse(text.replace(' ', 'T'))
        }
        val local = LocalDateTime.from(parsed)
        val ownZone = parsed.query(TemporalQueries.zone())
        val micros =
          if (zone == null) DateTimeUtils.localDateTimeToMicros(local)
          else DateTimeUtils.instantToMicros(local.atZone(if (ownZone != null) ownZone else zone).toInstant)
        w.setTimestamp(micros)
        true
      } catch { case _: java.time.DateTimeException => false }
  }
}
