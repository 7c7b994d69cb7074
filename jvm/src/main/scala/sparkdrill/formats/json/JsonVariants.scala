package sparkdrill.formats.json

import java.math.BigDecimal
import java.nio.charset.StandardCharsets

import com.fasterxml.jackson.core.{JsonParser, JsonToken}
import com.fasterxml.jackson.core.exc.InputCoercionException

import sparkdrill.loader.{ColumnWriter, VariantTypes, VariantValueBuilder, VariantValueError}

/** JSON values as VARIANTs (SPEC 14), by `parse_json`'s rules so that the bytes are its bytes: an integer
  * that fits a long is the smallest integer type that holds it; any other number written without an exponent
  * is a decimal when it fits 38 digits (`1.50` keeps its scale), else a double, as is a number with an
  * exponent; strings, booleans and null as they are; objects with their keys sorted (a key twice is an
  * error unless `spark.sql.variant.allowDuplicateKeys`, then the last one counts).
  *
  * Two sources: the record's bytes under a [[JsonCursor]] (the byte reader's path: no tokens, no text made
  * again; [[GiveUp]] on what it leaves to Jackson), and Jackson's parser (the records the byte reader left).
  */
private[json] final class JsonVariants {
  // Made on first use: only a read with a VARIANT column has one (and only Spark 4 can make one).
  private var built: VariantValueBuilder = _
  private def b: VariantValueBuilder = {
    if (built == null) built = VariantTypes.builder(VariantTypes.allowDuplicateKeys)
    built
  }
  private val escapes = new JsonEscapes
  private var c: JsonCursor = _ // the byte path's, for the value being read

  /** The value at the cursor (its first byte, or blanks before it) into `w`; the cursor after it. A value the
    * byte reader is not sure of, or that cannot be a VARIANT, is left to Jackson ([[GiveUp]]), which decides.
    */
  def fromBytes(cursor: JsonCursor, w: ColumnWriter): Unit = {
    c = cursor
    b.clear()
    try value()
    catch { case _: VariantValueError => throw GiveUp }
    b.writeTo(w)
  }

  private def value(): Unit =
    c.blank() match {
      case '{' => members()
      case '[' => elements()
      case '"' => b.appendString(string())
      case 't' => c.literal(JsonCursor.True); b.appendBoolean(true)
      case 'f' => c.literal(JsonCursor.False); b.appendBoolean(false)
      case 'n' => c.literal(JsonCursor.Null); b.appendNull()
      case x if x == '-' || (x >= '0' && x <= '9') => number()
      case _ => throw GiveUp
    }

  private def members(): Unit = {
    c.enter()
    b.startObject()
    if (c.blank() == '}') c.pos += 1
    else {
      var more = true
      while (more) {
        if (c.blank() != '"') throw GiveUp
        b.key(string())
        c.colon()
        value()
        more = c.more('}')
      }
    }
    b.endObject()
    c.leave()
  }

  private def elements(): Unit = {
    c.enter()
    b.startArray()
    if (c.blank() == ']') c.pos += 1
    else {
      var more = true
      while (more) {
        b.element()
        value()
        more = c.more(']')
      }
    }
    b.endArray()
    c.leave()
  }

  // The string whose opening quote is at the cursor, decoded.
  private def string(): String = {
    val from = c.pos + 1
    c.pos = from
    val end = c.string()
    if (!c.escaped) new String(c.buf, from, end - from, StandardCharsets.UTF_8)
    else {
      val n = escapes.decode(c.buf, from, end)
      new String(escapes.decoded, 0, n, StandardCharsets.UTF_8)
    }
  }

  private def number(): Unit = {
    val from = c.pos
    c.number()
    if (c.integral && c.fitsLong) b.appendLong(c.longValue)
    else {
      val text = new String(c.buf, from, c.pos - from, StandardCharsets.ISO_8859_1)
      if (c.integral) {
        val v = new BigDecimal(text)
        if (v.unscaledValue.bitLength < 64) b.appendLong(v.longValue) else b.appendNumber(text, double(text))
      } else b.appendNumber(text, double(text))
    }
  }

  private def double(text: String): Double = java.lang.Double.parseDouble(text)

  /** The value the parser is on into `w`, the parser left on its last token. A key twice (when not allowed),
    * or a value too large, throws [[VariantValueError]].
    */
  def fromParser(p: JsonParser, w: ColumnWriter): Unit = {
    b.clear()
    // On an object or array, the parser's context is the value's own: its closing token leaves it.
    val container = p.currentToken().isStructStart
    val level = p.getParsingContext.getNestingDepth
    try parsed(p)
    catch {
      case e: VariantValueError =>
        if (container) while (p.getParsingContext.getNestingDepth >= level) p.nextToken() // past the rest
        throw e
    }
    b.writeTo(w)
  }

  private def parsed(p: JsonParser): Unit = p.currentToken() match {
    case JsonToken.START_OBJECT =>
      b.startObject()
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        b.key(p.currentName())
        p.nextToken()
        parsed(p)
      }
      b.endObject()
    case JsonToken.START_ARRAY =>
      b.startArray()
      while (p.nextToken() != JsonToken.END_ARRAY) {
        b.element()
        parsed(p)
      }
      b.endArray()
    case JsonToken.VALUE_STRING => b.appendString(p.getText)
    case JsonToken.VALUE_NUMBER_INT =>
      try b.appendLong(p.getLongValue)
      catch { case _: InputCoercionException => b.appendNumber(p.getText, p.getDoubleValue) }
    case JsonToken.VALUE_NUMBER_FLOAT => b.appendNumber(p.getText, p.getDoubleValue)
    case JsonToken.VALUE_TRUE => b.appendBoolean(true)
    case JsonToken.VALUE_FALSE => b.appendBoolean(false)
    case _ => b.appendNull()
  }
}
