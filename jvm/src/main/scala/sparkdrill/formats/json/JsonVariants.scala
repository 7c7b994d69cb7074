package sparkdrill.formats.json

import java.math.BigDecimal
import java.nio.charset.StandardCharsets

import com.fasterxml.jackson.core.{JsonParser, JsonToken}
import com.fasterxml.jackson.core.exc.InputCoercionException

import sparkdrill.loader.{ColumnWriter, VariantEncoder, VariantTypes, VariantValueBuilder, VariantValueError}

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

  // The byte path's encoder: Spark's encoding from the record's bytes, no String made (VariantEncoder).
  private val enc = new VariantEncoder

  /** The value at the cursor (its first byte, or blanks before it) into `w`; the cursor after it. A value the
    * byte reader is not sure of, or that the encoder declines (a key twice), is left to Jackson ([[GiveUp]]),
    * whose path builds it with Spark's builder and decides.
    */
  def fromBytes(cursor: JsonCursor, w: ColumnWriter): Unit = {
    c = cursor
    enc.clear()
    try value()
    catch { case VariantEncoder.Declined => throw GiveUp }
    enc.writeTo(w)
  }

  private def value(): Unit =
    c.blank() match {
      case '{' => members()
      case '[' => elements()
      case '"' => string(key = false)
      case 't' => c.literal(JsonCursor.True); enc.appendBoolean(true)
      case 'f' => c.literal(JsonCursor.False); enc.appendBoolean(false)
      case 'n' => c.literal(JsonCursor.Null); enc.appendNull()
      case x if x == '-' || (x >= '0' && x <= '9') => number()
      case _ => throw GiveUp
    }

  private def members(): Unit = {
    c.enter()
    enc.startObject()
    if (c.blank() == '}') c.pos += 1
    else {
      var more = true
      while (more) {
        if (c.blank() != '"') throw GiveUp
        string(key = true)
        c.colon()
        value()
        more = c.more('}')
      }
    }
    enc.endObject()
    c.leave()
  }

  private def elements(): Unit = {
    c.enter()
    enc.startArray()
    if (c.blank() == ']') c.pos += 1
    else {
      var more = true
      while (more) {
        enc.element()
        value()
        more = c.more(']')
      }
    }
    enc.endArray()
    c.leave()
  }

  // The string whose opening quote is at the cursor, as a key or a value: its bytes as they are in the file
  // when it has no escape (the cursor checked its UTF-8), else decoded.
  private def string(key: Boolean): Unit = {
    val from = c.pos + 1
    c.pos = from
    val end = c.string()
    if (!c.escaped) {
      if (key) enc.key(c.buf, from, end - from) else enc.appendString(c.buf, from, end - from)
    } else {
      val n = escapes.decode(c.buf, from, end) // may grow `decoded`: read it after
      if (key) enc.key(escapes.decoded, 0, n) else enc.appendString(escapes.decoded, 0, n)
    }
  }

  // A number by parse_json's rule (VariantValueBuilder.appendNumber): a long when it is an integer that
  // fits one; a decimal when it has no exponent and at most 38 digits; else a double. Decimals of at most 18
  // significant digits are read from the bytes; longer ones through BigDecimal.
  private def number(): Unit = {
    val from = c.pos
    c.number()
    val until = c.pos
    if (c.integral && c.fitsLong) enc.appendLong(c.longValue)
    else if (!c.integral && !exponent(from, until) && smallDecimal(from, until)) ()
    else {
      val text = new String(c.buf, from, until - from, StandardCharsets.ISO_8859_1)
      val big = if (exponent(from, until)) null else new BigDecimal(text)
      if (big != null && c.integral && big.unscaledValue.bitLength < 64) enc.appendLong(big.longValue)
      else if (big != null && big.scale <= MaxDigits && big.precision <= MaxDigits) enc.appendDecimal(big)
      else enc.appendDouble(if (c.integral) big.doubleValue else c.double(from, until))
    }
  }

  private def exponent(from: Int, until: Int): Boolean = {
    var i = from
    while (i < until && c.buf(i) != 'e' && c.buf(i) != 'E') i += 1
    i < until
  }

  // A plain decimal (`-12.50`) of at most 18 significant digits, written; false when it has more.
  private def smallDecimal(from: Int, until: Int): Boolean = {
    var unscaled = 0L
    var digits = 0 // significant: from the first digit that is not a leading zero
    var scale = 0
    var fraction = false
    var i = if (c.buf(from) == '-') from + 1 else from
    while (i < until) {
      val b = c.buf(i)
      if (b == '.') fraction = true
      else {
        if (digits > 0 || b != '0') digits += 1
        if (digits > 18) return false
        unscaled = unscaled * 10 + (b - '0')
        if (fraction) scale += 1
      }
      i += 1
    }
    if (scale > MaxDigits) return false
    enc.appendDecimal(if (c.buf(from) == '-') -unscaled else unscaled, scale, math.max(digits, 1))
    true
  }

  private val MaxDigits = 38

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
