package sparkdrill.formats.json

import java.io.StringWriter
import java.time.{LocalDate, ZoneId}

import com.fasterxml.jackson.core.{JsonFactory, JsonParser, JsonToken}
import org.apache.spark.sql.catalyst.util.DateTimeUtils
import org.apache.spark.sql.types._

import sparkdrill.loader.{ColumnWriter, TupleWriter, VariantTypes, VariantValueError}
import sparkdrill.reader.Fills

/** A JSON value that cannot become its column's type: `path` names the column (`m.b`, `a[2]`, `m{}`);
  * `value` is a string's characters (`string`) or any other value's JSON text.
  */
private[sparkdrill] final class JsonConversionError(
    val path: String,
    val value: String,
    val dataType: DataType,
    val string: Boolean = false
) extends RuntimeException(s"cannot convert the JSON value to ${dataType.simpleString}")

/** Writes the JSON value the parser is on into a column writer of any type, with SPEC 5's conversions:
  * numbers widen (an integer into a double column), any value becomes text in a string column (objects and
  * arrays as their JSON text), a scalar into an array column is a one-element array, numeric and date strings
  * parse into typed columns, and null is null. Members the schema lacks are handed to `unknown`. Leaves the
  * parser on the value's last token.
  */
private[sparkdrill] final class JsonValueWriter(
    zone: ZoneId,
    factory: JsonFactory,
    validateAll: Boolean = false
) {

  /** Called with a top-level key the row has no column for; the parser is on its value. */
  var unknown: (String, JsonParser) => Unit = (_, p) => p.skipChildren()

  /** Whether [[unknown]] only skips the value of this key: then it is skipped without the call, decided
    * once per member name (a `count(*)` has no column for any key, and a trim, a lower-casing and a set
    * lookup per member were a tenth of its time).
    */
  var skipsUnknown: String => Boolean = { _ => true }

  /** Called with the column and the error when a value cannot be converted (the value is consumed). */
  var onError: (ColumnWriter, JsonConversionError) => Unit = (_, e) => throw e

  /** Writes the value the parser is on into the row's column `w`. */
  def writeColumn(w: ColumnWriter, parser: JsonParser): Unit = {
    here.clear()
    here.member(w.field.name)
    write(w, parser)
  }

  /** Writes the members of the record whose START_OBJECT the parser is on into the row `tuple`. */
  def writeRecord(tuple: TupleWriter, parser: JsonParser): Unit = {
    here.clear()
    writeMembers(tuple, parser, topLevel = true)
  }

  // Where the value being written is: only an error spells it out (building it per value was 4 % of reading
  // every column of the bench's JSON).
  private val here = new ValuePath

  private def write(w: ColumnWriter, parser: JsonParser): Unit =
    if (!w.isProjected && !validated(w)) parser.skipChildren()
    else if (VariantTypes.isVariant(w.dataType)) variant(w, parser)
    else if (parser.currentToken() == JsonToken.VALUE_NULL) w.setNull()
    else
      try writeValue(w, parser)
      catch { case e: JsonConversionError => onError(w, e) }

  private val variants = new JsonVariants

  // Any value, null too (the variant null, as parse_json's); an object with a key twice does not convert.
  private def variant(w: ColumnWriter, parser: JsonParser): Unit =
    try variants.fromParser(parser, w)
    catch {
      case e: VariantValueError =>
        onError(w, new JsonConversionError(here.toString, e.getMessage, w.dataType))
    }

  // validate=all: an unread column is still converted (into writers that keep nothing), so that a value that
  // does not convert counts whatever the projection (SPEC 6). Structs, arrays and maps too: a scalar where a
  // struct was found, or a bad member, is as bad unread as read. Anything goes into a string.
  private def validated(w: ColumnWriter): Boolean = validateAll && w.dataType != StringType

  private def writeValue(w: ColumnWriter, parser: JsonParser): Unit =
    w.dataType match {
      case _: StringType =>
        if (parser.currentToken() == JsonToken.VALUE_STRING) writeString(w, parser)
        else w.setString(text(parser))
      case _: StructType =>
        if (parser.currentToken() != JsonToken.START_OBJECT) fail(parser, w.dataType)
        else writeMembers(w.struct, parser, topLevel = false)
      case a: ArrayType => writeArray(w, a, parser)
      case m: MapType => writeMap(w, m, parser)
      case t => writeScalar(w, t, parser)
    }

  // A string's UTF-8 bytes, encoded from the parser's own character buffer: no String per value. Text that
  // is not all ASCII goes through String, which encodes unpaired surrogates as the JDK does.
  private var utf8 = new Array[Byte](256)

  private def writeString(w: ColumnWriter, parser: JsonParser): Unit = {
    val chars = parser.getTextCharacters
    val offset = parser.getTextOffset
    val length = parser.getTextLength
    if (length > utf8.length) utf8 = new Array[Byte](math.max(length, utf8.length * 2))
    var i = 0
    while (i < length && chars(offset + i) < 0x80) {
      utf8(i) = chars(offset + i).toByte
      i += 1
    }
    if (i == length) w.setBytes(utf8, 0, length)
    else w.setString(new String(chars, offset, length))
  }

  // Writers by key as the file spells it, per row or struct writer. Jackson hands out one String per
  // distinct name, so after the first record a member costs one hash lookup, not a trim, a lower-casing
  // and the loader's own lookup.
  private val writers =
    new java.util.IdentityHashMap[TupleWriter, java.util.HashMap[String, Option[ColumnWriter]]]()

  private def writerFor(tuple: TupleWriter, name: String): ColumnWriter = {
    var byKey = writers.get(tuple)
    if (byKey == null) {
      byKey = new java.util.HashMap[String, Option[ColumnWriter]]()
      writers.put(tuple, byKey)
    }
    var w = byKey.get(name)
    if (w == null) {
      val key = name.trim
      w = if (key.isEmpty) None else tuple.find(key)
      byKey.put(name, w)
    }
    w.orNull
  }

  // The members of each row or struct writer in the order they were first seen. Records of a file mostly
  // repeat one order, so the next name is first compared in place with the one after the member just read
  // (Jackson's `nextFieldName(SerializableString)` matches the raw bytes): no symbol-table or map lookup.
  // A member a record leaves out costs one lookup, which puts the expectation back in step.
  private val orders = new java.util.IdentityHashMap[TupleWriter, MemberOrder]()

  private def orderOf(tuple: TupleWriter): MemberOrder = {
    var order = orders.get(tuple)
    if (order == null) {
      order = new MemberOrder(
        name => writerFor(tuple, name),
        name => name.trim.isEmpty || skipsUnknown(name.trim)
      )
      orders.put(tuple, order)
    }
    order
  }

  /** Writes the members of the object whose START_OBJECT the parser is on. */
  private def writeMembers(tuple: TupleWriter, parser: JsonParser, topLevel: Boolean): Unit = {
    val order = orderOf(tuple)
    var expected = 0
    while (true) {
      var name: String = null
      var member: ColumnWriter = null
      var slot = -1
      if (expected < order.size && parser.nextFieldName(order.names(expected))) {
        slot = expected
        name = order.keys(expected)
        member = order.writers(expected)
        expected += 1
      } else {
        if (expected >= order.size) parser.nextToken()
        if (parser.currentToken() != JsonToken.FIELD_NAME) return
        name = parser.currentName()
        slot = order.slotOf(name)
        if (slot >= 0) {
          member = order.writers(slot)
          expected = slot + 1
        } else member = writerFor(tuple, name)
      }
      parser.nextToken()
      if (member != null) {
        here.member(member.field.name)
        write(member, parser)
        here.leave()
      } else if (!topLevel || (slot >= 0 && order.skips(slot))) parser.skipChildren()
      else if (name.trim.nonEmpty) unknown(name.trim, parser)
      else parser.skipChildren()
    }
  }

  private def writeArray(w: ColumnWriter, t: ArrayType, parser: JsonParser): Unit = {
    val array = w.array
    val element = array.element
    if (parser.currentToken() == JsonToken.START_ARRAY) {
      var index = 0
      while (parser.nextToken() != JsonToken.END_ARRAY) {
        if (parser.currentToken() == JsonToken.VALUE_NULL && !t.containsNull) Fills.writeZero(element)
        else {
          here.element(index)
          write(element, parser)
          here.leave()
        }
        array.save()
        index += 1
      }
    } else {
      // A scalar (or object) where the column is an array: a one-element array.
      here.element(0)
      write(element, parser)
      here.leave()
      array.save()
    }
  }

  private def writeMap(w: ColumnWriter, t: MapType, parser: JsonParser): Unit = {
    if (parser.currentToken() != JsonToken.START_OBJECT) fail(parser, t)
    val map = w.map
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      map.key.setString(parser.currentName())
      parser.nextToken()
      here.element(ValuePath.MapValue)
      write(map.value, parser)
      here.leave()
      map.save()
    }
  }

  private def writeScalar(w: ColumnWriter, t: DataType, parser: JsonParser): Unit = {
    val token = parser.currentToken()
    if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) fail(parser, t)
    if (token == JsonToken.VALUE_STRING && parser.getText.trim.isEmpty && t != BinaryType) {
      w.setNull(); return
    }
    try
      t match {
        case LongType => w.setLong(integral(parser, Long.MinValue, Long.MaxValue, t))
        case IntegerType => w.setInt(integral(parser, Int.MinValue, Int.MaxValue, t).toInt)
        case ShortType => w.setInt(integral(parser, Short.MinValue, Short.MaxValue, t).toInt)
        case ByteType => w.setInt(integral(parser, Byte.MinValue, Byte.MaxValue, t).toInt)
        case DoubleType | FloatType => w.setDouble(fractional(parser, t))
        case BooleanType =>
          token match {
            case JsonToken.VALUE_TRUE => w.setBoolean(true)
            case JsonToken.VALUE_FALSE => w.setBoolean(false)
            case JsonToken.VALUE_STRING if parser.getText.trim.equalsIgnoreCase("true") => w.setBoolean(true)
            case JsonToken.VALUE_STRING if parser.getText.trim.equalsIgnoreCase("false") =>
              w.setBoolean(false)
            case _ => fail(parser, t)
          }
        case d: DecimalType =>
          val v = token match {
            case JsonToken.VALUE_NUMBER_INT | JsonToken.VALUE_NUMBER_FLOAT => parser.getDecimalValue
            case JsonToken.VALUE_STRING => new java.math.BigDecimal(parser.getText.trim)
            case _ => fail(parser, t)
          }
          w.setDecimal(JsonScalars.decimal(v, d))
        case DateType =>
          token match {
            case JsonToken.VALUE_STRING => w.setDate(LocalDate.parse(parser.getText.trim).toEpochDay.toInt)
            case _ => fail(parser, t)
          }
        case TimestampType | TimestampNTZType =>
          val local = t == TimestampNTZType
          token match {
            case JsonToken.VALUE_NUMBER_INT =>
              w.setTimestamp(DateTimeUtils.millisToMicros(parser.getLongValue))
            case JsonToken.VALUE_STRING =>
              w.setTimestamp(JsonScalars.timestamp(parser.getText.trim, zone, local))
            case _ => fail(parser, t)
          }
        case BinaryType =>
          if (token != JsonToken.VALUE_STRING) fail(parser, t)
          val bytes = java.util.Base64.getDecoder.decode(parser.getText.trim)
          w.setBytes(bytes, 0, bytes.length)
        case other => fail(parser, other)
      }
    catch {
      case e: JsonConversionError => throw e
      case _: IllegalArgumentException | _: ArithmeticException | _: java.time.DateTimeException |
          _: com.fasterxml.jackson.core.exc.InputCoercionException =>
        fail(parser, t)
    }
  }

  // Integers; a fraction only when it has no fractional part (numbers are never rounded); numeric strings.
  private def integral(parser: JsonParser, min: Long, max: Long, t: DataType): Long = {
    val v: Long = parser.currentToken() match {
      case JsonToken.VALUE_NUMBER_INT => parser.getLongValue
      case JsonToken.VALUE_NUMBER_FLOAT => parser.getDecimalValue.longValueExact()
      case JsonToken.VALUE_TRUE => 1L
      case JsonToken.VALUE_FALSE => 0L
      case JsonToken.VALUE_STRING => new java.math.BigDecimal(parser.getText.trim).longValueExact()
      case _ => fail(parser, t)
    }
    if (v < min || v > max) fail(parser, t) else v
  }

  private def fractional(parser: JsonParser, t: DataType): Double =
    parser.currentToken() match {
      case JsonToken.VALUE_NUMBER_INT | JsonToken.VALUE_NUMBER_FLOAT => parser.getDoubleValue
      case JsonToken.VALUE_TRUE => 1.0
      case JsonToken.VALUE_FALSE => 0.0
      case JsonToken.VALUE_STRING => java.lang.Double.parseDouble(parser.getText.trim)
      case _ => fail(parser, t)
    }

  /** The value as text: a string's characters, any other value's JSON text (compact). */
  def text(parser: JsonParser): String = parser.currentToken() match {
    case JsonToken.VALUE_STRING => parser.getText
    case JsonToken.START_OBJECT | JsonToken.START_ARRAY =>
      val out = new StringWriter()
      val g = factory.createGenerator(out)
      g.copyCurrentStructure(parser)
      g.close()
      out.toString
    case _ => parser.getText
  }

  private def fail(parser: JsonParser, t: DataType): Nothing = {
    val string = parser.currentToken() == JsonToken.VALUE_STRING
    val value = text(parser) // consumes a structure, so the parser stays in step
    throw new JsonConversionError(here.toString, value, t, string)
  }
}
