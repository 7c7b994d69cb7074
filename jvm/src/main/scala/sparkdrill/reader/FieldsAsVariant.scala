package sparkdrill.reader

import java.nio.charset.StandardCharsets

import scala.collection.mutable

import org.apache.spark.sql.types._

import sparkdrill.errors.DrillErrors
import sparkdrill.loader.{
  ArrayWriter,
  ColumnWriter,
  MapWriter,
  TupleWriter,
  VariantTypes,
  VariantValueBuilder
}

/** `singleVariantColumn` for formats of text fields (SPEC 14): a record is one VARIANT object of its named
  * fields, in `column`. A field is a string, or with `inferTypes` the type a column of that one value would
  * get (a boolean, a long, a double, a date, a timestamp); `nullValue`, an unquoted empty field and the
  * date and timestamp patterns read as they do for columns, through the same [[TextConverter]]s. A field past
  * the names is `column_N` (N 1-based), as in the rescued-data column; a short record's missing fields are
  * left out.
  *
  * Per record: [[start]], [[field]] for each field, [[finish]].
  */
private[sparkdrill] final class FieldsAsVariant(
    options: ReaderOptions,
    names: IndexedSeq[String],
    column: ColumnWriter
) {
  private val b: VariantValueBuilder = VariantTypes.builder(allowDuplicateKeys = false) // names are unique
  private val infer = options(TextValueOptions.InferTypes)
  private val settings = TextValueOptions.converterSettings(options)
  private val member = new MemberWriter(b)
  // One converter per type a value may take, made when first needed.
  private val converters = mutable.HashMap.empty[DataType, TextConverter]
  private def converter(t: DataType): TextConverter =
    converters.getOrElseUpdate(t, TextConverter(member.typed(t), settings, None))
  private val strings = converter(StringType)

  def start(): Unit = {
    b.clear()
    b.startObject()
  }

  /** Field `i`'s bytes; `quoted`: it stood in quotes (an empty one is then "", not null). */
  def field(i: Int, bytes: Array[Byte], start: Int, length: Int, quoted: Boolean): Unit = {
    b.key(if (i < names.length) names(i) else s"column_${i + 1}")
    value(bytes, start, length, quoted)
  }

  /** Field `i`'s bytes, whose value is of type `known` of itself ([[FieldRecords.typeOf]]: a workbook's
    * number cell); a string type leaves it to `inferTypes`.
    */
  def field(i: Int, bytes: Array[Byte], start: Int, length: Int, known: DataType): Unit =
    if (known == StringType || known == NullType || length == 0)
      field(i, bytes, start, length, quoted = false)
    else {
      b.key(if (i < names.length) names(i) else s"column_${i + 1}")
      if (!converter(known).write(bytes, start, length)) value(bytes, start, length, quoted = false)
    }

  private def value(bytes: Array[Byte], start: Int, length: Int, quoted: Boolean): Unit =
    if (!infer || length == 0) strings.writeField(bytes, start, length, quoted)
    else {
      val t = TextTypeInference.typeOf(new String(bytes, start, length, StandardCharsets.UTF_8))
      // A value its own type does not read after all (a pattern given for dates): a string.
      if (t == StringType || t == NullType || !converter(t).write(bytes, start, length))
        strings.writeField(bytes, start, length, quoted)
    }

  /** Ends the record's object and writes it. */
  def finish(): Unit = {
    b.endObject()
    b.writeTo(column)
  }
}

/** Where a [[TextConverter]] writes a member's value: straight into the VARIANT being built, typed as the
  * converter's column would be. A converter that fails writes nothing.
  */
private final class MemberWriter(b: VariantValueBuilder) {
  def typed(t: DataType): ColumnWriter = new ColumnWriter {
    val field: StructField = StructField("member", t, nullable = true)
    def isProjected: Boolean = true
    def setNull(): Unit = b.appendNull()
    def setBoolean(v: Boolean): Unit = b.appendBoolean(v)
    def setInt(v: Int): Unit = b.appendLong(v.toLong)
    def setLong(v: Long): Unit = b.appendLong(v)
    def setDouble(v: Double): Unit = b.appendDouble(v)
    def setDecimal(v: Decimal): Unit = b.appendDecimal(v.toJavaBigDecimal)
    def setBytes(bytes: Array[Byte], offset: Int, length: Int): Unit =
      b.appendString(new String(bytes, offset, length, StandardCharsets.UTF_8))
    def setString(v: String): Unit = b.appendString(v)
    def setDate(days: Int): Unit = b.appendDate(days)
    def setTimestamp(micros: Long): Unit = b.appendTimestamp(micros, ntz = t == TimestampNTZType)
    def setVariant(value: Array[Byte], metadata: Array[Byte]): Unit = nested("a variant")
    def array: ArrayWriter = nested("an array")
    def struct: TupleWriter = nested("a struct")
    def map: MapWriter = nested("a map")
    private def nested(what: String): Nothing =
      throw DrillErrors.internal(s"a text field's VARIANT member takes a scalar, not $what")
  }
}
