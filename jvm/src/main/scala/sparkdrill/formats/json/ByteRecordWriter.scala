package sparkdrill.formats.json

import java.nio.charset.StandardCharsets
import java.time.{DateTimeException, LocalDate, ZoneId}

import org.apache.spark.sql.catalyst.util.DateTimeUtils
import org.apache.spark.sql.types._

import sparkdrill.loader.{ColumnWriter, TupleWriter, VariantTypes}
import sparkdrill.reader.{FastText, Fills}

/** Writes a JSON object straight from its bytes ([[JsonCursor]]) into a row or struct writer, by the rules of
  * [[JsonValueWriter]] (SPEC 5): members matched by trimmed, case-insensitive name, numbers widened, any scalar
  * as text in a string column, a scalar into an array column as a one-element array, numeric and date strings
  * parsed into typed columns, null as null; members without a column skipped unconverted.
  *
  * It writes what it is sure of and throws [[GiveUp]] on the rest, before anything of the record is kept:
  * any value that does not convert (Jackson's reader reports it, per mode), an object or array as text, a
  * member kept in the rescued-data column, and whatever the cursor leaves to Jackson. A string column gets a
  * string's bytes as they are in the file when it has no escape (they are well-formed UTF-8).
  *
  * @param topLevel what a top-level member without a column gets (a [[ByteMembers]] action), by trimmed name
  */
private[json] final class ByteRecordWriter(
    c: JsonCursor,
    zone: ZoneId,
    validateAll: Boolean,
    topLevel: String => Int
) {
  import ByteMembers.{Drop, Skip, Write}
  import ByteRecordWriter._

  private val escapes = new JsonEscapes
  private val variants = new JsonVariants
  private val temporalFields = new Array[Long](4)
  // A fixed offset (UTC, +02:00) turns a local time into an instant by arithmetic; None: a zone with rules,
  // read through java.time for its gaps and overlaps.
  private val fixedOffsetSeconds: Option[Long] =
    if (zone.getRules.isFixedOffset)
      Some(zone.getRules.getOffset(java.time.Instant.EPOCH).getTotalSeconds.toLong)
    else None

  /** Members of the last record counted as dropped (keys no file had). */
  var dropped = 0

  /** Writes the object at the cursor (on its `{`) into `tuple`, leaving the cursor past its `}`. */
  def writeRecord(tuple: TupleWriter): Unit = {
    dropped = 0
    writeMembers(membersOf(tuple, top = true))
  }

  /** Writes the value at the cursor (a whole record) into the column `w`, leaving the cursor past it. */
  def writeValue(w: ColumnWriter): Unit = {
    dropped = 0
    write(w, codeOf(w.dataType))
  }

  private val members = new java.util.IdentityHashMap[TupleWriter, ByteMembers]()
  // The few tuples a record's values go to (the row, its structs), compared by reference before the map: a
  // lookup per record and per struct value.
  private val recentTuples = new Array[TupleWriter](4)
  private val recentMembers = new Array[ByteMembers](4)

  private def membersOf(tuple: TupleWriter, top: Boolean): ByteMembers = {
    var i = 0
    while (i < recentTuples.length) {
      if (recentTuples(i) eq tuple) return recentMembers(i)
      i += 1
    }
    var m = members.get(tuple)
    if (m == null) {
      m = new ByteMembers(name => {
        val key = name.trim
        val w = if (key.isEmpty) None else tuple.find(key)
        if (w.isDefined) (Write, w.get)
        else (if (!top || key.isEmpty) Skip else topLevel(key), null)
      })
      members.put(tuple, m)
    }
    System.arraycopy(recentTuples, 0, recentTuples, 1, recentTuples.length - 1)
    System.arraycopy(recentMembers, 0, recentMembers, 1, recentMembers.length - 1)
    recentTuples(0) = tuple
    recentMembers(0) = m
    m
  }

  // The members of the object at the cursor. The position is kept in a local between members, and the
  // usual case (compact JSON, names in the order last seen, values skipped) calls out for nothing but the
  // value: this loop is most of a count(*) or of a filter's first read.
  private def writeMembers(m: ByteMembers): Unit = {
    c.enter()
    val buf = c.buf // one array for the whole record: at its end the record is read again
    val limit = c.limit
    var p = c.nonBlank(c.pos)
    if (buf(p) == '}') p += 1
    else {
      var expected = 0
      var more = true
      while (more) {
        if (buf(p) != '"') throw GiveUp // an unquoted name
        val from = p + 1
        val slot =
          if (expected < m.size && m.matches(expected, buf, from, limit)) {
            p = from + m.lengths(expected) + 1
            expected
          } else {
            c.escaped = false
            p = c.stringEnd(from)
            if (c.escaped || p - 1 - from > JsonCursor.MaxName) throw GiveUp
            val s = m.slotOf(buf, from, p - 1 - from)
            if (s < 0) throw GiveUp
            s
          }
        expected = slot + 1
        p = c.colonEnd(p)
        val action = m.actions(slot)
        if (action == Skip) p = c.valueEnd(p)
        else if (action == Write) {
          c.pos = p
          write(m.writers(slot), m.codes(slot))
          p = c.pos
        } else if (action == Drop) {
          dropped += 1
          p = c.valueEnd(p)
        } else throw GiveUp // rescued: Jackson's tree writes it
        if (p >= limit || buf(p) <= ' ') p = c.nonBlank(p)
        val b = buf(p)
        p += 1
        if (b == '}') more = false
        else if (b != ',') throw GiveUp
        else if (p >= limit || buf(p) <= ' ') p = c.nonBlank(p)
      }
    }
    c.pos = p
    c.leave()
  }

  // The value at the cursor into `w`, a column of type `code`.
  private def write(w: ColumnWriter, code: Int): Unit =
    if (!w.isProjected && !(validateAll && w.dataType != StringType)) c.skipValue()
    else if (code == AsVariant) variants.fromBytes(c, w) // a null too: the variant null, as parse_json's
    else if (c.buf(c.pos) == 'n') {
      c.literal(JsonCursor.Null)
      w.setNull()
    } else
      (code: @annotation.switch) match {
        case AsText => writeText(w)
        case AsStruct =>
          if (c.buf(c.pos) != '{') throw GiveUp
          writeMembers(membersOf(w.struct, top = false))
        case AsArray => writeArray(w)
        case AsMap => writeMap(w)
        case _ => writeScalar(w, code)
      }

  private def writeText(w: ColumnWriter): Unit = {
    val b = c.buf(c.pos)
    if (b == '"') {
      val from = c.pos + 1
      c.pos = from
      val end = c.string()
      if (!c.escaped) w.setBytes(c.buf, from, end - from)
      else {
        val n = escapes.decode(c.buf, from, end) // may grow `decoded`: read it after
        w.setBytes(escapes.decoded, 0, n)
      }
    } else if (b == '-' || (b >= '0' && b <= '9')) {
      val from = c.pos
      c.number()
      w.setBytes(c.buf, from, c.pos - from) // the number's text, as Jackson gives it
    } else if (b == 't') {
      c.literal(JsonCursor.True)
      w.setBytes(JsonCursor.True, 0, JsonCursor.True.length)
    } else if (b == 'f') {
      c.literal(JsonCursor.False)
      w.setBytes(JsonCursor.False, 0, JsonCursor.False.length)
    } else throw GiveUp // an object or array as its JSON text, which Jackson's generator spells
  }

  private def writeArray(w: ColumnWriter): Unit = {
    val t = w.dataType.asInstanceOf[ArrayType]
    val code = codeOf(t.elementType)
    val array = w.array
    val element = array.element
    if (c.buf(c.pos) == '[') {
      c.enter()
      if (c.blank() == ']') c.pos += 1
      else {
        var more = true
        while (more) {
          if (c.blank() == 'n' && !t.containsNull) {
            c.literal(JsonCursor.Null)
            Fills.writeZero(element)
          } else write(element, code)
          array.save()
          more = c.more(']')
        }
      }
      c.leave()
    } else { // a scalar (or object) where the column is an array: a one-element array
      write(element, code)
      array.save()
    }
  }

  private def writeMap(w: ColumnWriter): Unit = {
    if (c.buf(c.pos) != '{') throw GiveUp
    val map = w.map
    val code = codeOf(w.dataType.asInstanceOf[MapType].valueType)
    c.enter()
    if (c.blank() == '}') c.pos += 1
    else {
      var more = true
      while (more) {
        if (c.blank() != '"') throw GiveUp
        val from = c.pos + 1
        c.pos = from
        val end = c.string()
        if (!c.escaped) map.key.setBytes(c.buf, from, end - from)
        else {
          val n = escapes.decode(c.buf, from, end)
          map.key.setBytes(escapes.decoded, 0, n)
        }
        c.colon()
        write(map.value, code)
        map.save()
        more = c.more('}')
      }
    }
    c.leave()
  }

  private def writeScalar(w: ColumnWriter, code: Int): Unit = {
    val b = c.buf(c.pos)
    try
      if (b == '"') fromString(w, code)
      else if (b == '-' || (b >= '0' && b <= '9')) fromNumber(w, code)
      else if (b == 't' || b == 'f') {
        c.literal(if (b == 't') JsonCursor.True else JsonCursor.False)
        fromBoolean(w, code, b == 't')
      } else throw GiveUp // an object or array where a scalar goes, NaN
    catch {
      case _: IllegalArgumentException | _: ArithmeticException | _: DateTimeException => throw GiveUp
    }
  }

  private def fromBoolean(w: ColumnWriter, code: Int, v: Boolean): Unit =
    (code: @annotation.switch) match {
      case AsLong => w.setLong(if (v) 1L else 0L)
      case AsInt | AsShort | AsByte => w.setInt(if (v) 1 else 0)
      case AsDouble | AsFloat => w.setDouble(if (v) 1.0 else 0.0)
      case AsBoolean => w.setBoolean(v)
      case _ => throw GiveUp
    }

  private def fromNumber(w: ColumnWriter, code: Int): Unit = {
    val from = c.pos
    c.number()
    (code: @annotation.switch) match {
      case AsLong => w.setLong(integral(Long.MinValue, Long.MaxValue))
      case AsInt => w.setInt(integral(Int.MinValue, Int.MaxValue).toInt)
      case AsShort => w.setInt(integral(Short.MinValue, Short.MaxValue).toInt)
      case AsByte => w.setInt(integral(Byte.MinValue, Byte.MaxValue).toInt)
      case AsDouble | AsFloat =>
        // An integer as Jackson converts it: through a long, so `-0` is 0.0.
        w.setDouble(
          if (!c.integral) c.double(from, c.pos) else integral(Long.MinValue, Long.MaxValue).toDouble
        )
      case AsDecimal =>
        val text = new String(c.buf, from, c.pos - from, StandardCharsets.ISO_8859_1)
        w.setDecimal(
          JsonScalars.decimal(new java.math.BigDecimal(text), w.dataType.asInstanceOf[DecimalType])
        )
      case AsTimestamp | AsTimestampNtz =>
        w.setTimestamp(DateTimeUtils.millisToMicros(integral(Long.MinValue, Long.MaxValue)))
      case _ => throw GiveUp
    }
  }

  // The integer just scanned, within [min, max]; Jackson takes what is beyond 18 digits or has a fraction.
  private def integral(min: Long, max: Long): Long = {
    val v = c.longValue
    if (!c.fitsLong || v < min || v > max) throw GiveUp
    v
  }

  // A string into a typed column: blank is null; otherwise its trimmed text converts as Jackson's reader
  // converts it.
  private def fromString(w: ColumnWriter, code: Int): Unit = {
    val from = c.pos + 1
    c.pos = from
    val end = c.string()
    val (bytes, start, length) =
      if (!c.escaped) (c.buf, from, end - from)
      else {
        val n = escapes.decode(c.buf, from, end)
        (escapes.decoded, 0, n)
      }
    if (code != AsBinary && blank(bytes, start, length)) w.setNull()
    else if (!temporal(w, code, bytes, start, length)) {
      val text = new String(bytes, start, length, StandardCharsets.UTF_8).trim
      (code: @annotation.switch) match {
        case AsLong => w.setLong(exact(text, Long.MinValue, Long.MaxValue))
        case AsInt => w.setInt(exact(text, Int.MinValue, Int.MaxValue).toInt)
        case AsShort => w.setInt(exact(text, Short.MinValue, Short.MaxValue).toInt)
        case AsByte => w.setInt(exact(text, Byte.MinValue, Byte.MaxValue).toInt)
        case AsDouble | AsFloat => w.setDouble(java.lang.Double.parseDouble(text))
        case AsBoolean =>
          if (text.equalsIgnoreCase("true")) w.setBoolean(true)
          else if (text.equalsIgnoreCase("false")) w.setBoolean(false)
          else throw GiveUp
        case AsDecimal =>
          w.setDecimal(
            JsonScalars.decimal(new java.math.BigDecimal(text), w.dataType.asInstanceOf[DecimalType])
          )
        case AsDate => w.setDate(LocalDate.parse(text).toEpochDay.toInt)
        case AsTimestamp => w.setTimestamp(JsonScalars.timestamp(text, zone, local = false))
        case AsTimestampNtz => w.setTimestamp(JsonScalars.timestamp(text, zone, local = true))
        case AsBinary =>
          val decoded = java.util.Base64.getDecoder.decode(text)
          w.setBytes(decoded, 0, decoded.length)
        case _ => throw GiveUp
      }
    }
  }

  // ISO dates and timestamps straight from the string's bytes, with JsonScalars' answer (FastText declines
  // what it does not take, whitespace around the value included): false to read the text through java.time.
  // A timestamp with its own offset is that instant; timestamp_ntz refuses one (java.time says why).
  private def temporal(w: ColumnWriter, code: Int, b: Array[Byte], s: Int, n: Int): Boolean =
    if (code == AsDate) {
      val day = FastText.isoDate(b, s, n)
      if (day != Int.MinValue) w.setDate(day)
      day != Int.MinValue
    } else if (
      (code == AsTimestamp || code == AsTimestampNtz) && FastText.isoDateTime(b, s, n, temporalFields)
    ) {
      val own = temporalFields(3) != FastText.NoOffset
      val offset =
        if (code == AsTimestampNtz) { if (own) None else Some(0L) }
        else if (own) Some(temporalFields(3))
        else fixedOffsetSeconds
      offset.foreach { o =>
        w.setTimestamp(
          (temporalFields(0) * 86400L + temporalFields(1) - o) * 1000000L + temporalFields(2) / 1000L
        )
      }
      offset.isDefined
    } else false

  // Nothing but characters up to U+0020 (what String.trim removes).
  private def blank(bytes: Array[Byte], from: Int, length: Int): Boolean = {
    var i = from
    while (i < from + length && bytes(i) >= 0 && bytes(i) <= ' ') i += 1
    i == from + length
  }

  private def exact(text: String, min: Long, max: Long): Long = {
    val v = new java.math.BigDecimal(text).longValueExact()
    if (v < min || v > max) throw GiveUp
    v
  }
}

private[json] object ByteRecordWriter {
  // Column types, as the writer dispatches on them.
  final val AsText = 0
  final val AsLong = 1
  final val AsInt = 2
  final val AsShort = 3
  final val AsByte = 4
  final val AsDouble = 5
  final val AsFloat = 6
  final val AsBoolean = 7
  final val AsDecimal = 8
  final val AsDate = 9
  final val AsTimestamp = 10
  final val AsTimestampNtz = 11
  final val AsBinary = 12
  final val AsStruct = 13
  final val AsArray = 14
  final val AsMap = 15
  final val AsVariant = 16
  final val AsOther = 17

  def codeOf(t: DataType): Int = t match {
    case _: StringType => AsText
    case LongType => AsLong
    case IntegerType => AsInt
    case ShortType => AsShort
    case ByteType => AsByte
    case DoubleType => AsDouble
    case FloatType => AsFloat
    case BooleanType => AsBoolean
    case _: DecimalType => AsDecimal
    case DateType => AsDate
    case TimestampType => AsTimestamp
    case TimestampNTZType => AsTimestampNtz
    case BinaryType => AsBinary
    case _: StructType => AsStruct
    case _: ArrayType => AsArray
    case _: MapType => AsMap
    case t if VariantTypes.isVariant(t) => AsVariant
    case _ => AsOther
  }
}
