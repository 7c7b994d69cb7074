package sparkdrill.reader

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.types.{Decimal, StringType, StructField, StructType}

import sparkdrill.loader.{ArrayWriter, ColumnWriter, MapWriter, TupleWriter}
import sparkdrill.errors.DrillErrors

/** A discovery's sample of text fields, for a format that discovers by its own code (delimited text): each
  * field as its string column would hold it, by the read's own converter (so `nullValue`, `emptyValue` and
  * blank fields are null or not exactly as when read), typed at the end by the format
  * ([[FormatPlugin.inferType]]).
  */
private[sparkdrill] final class TextSamples(columns: StructType, options: ReaderOptions) {
  private val values = Array.fill(columns.size)(ArrayBuffer.empty[String])
  private val last = new LastString
  private val converter = TextConverter(last, TextValueOptions.converterSettings(options), None)

  /** How many columns are sampled: fields past them are not. */
  def width: Int = columns.size

  /** Field bytes `bytes(start until start + length)` of column `column` (`quoted`: written in quotes). */
  def add(column: Int, bytes: Array[Byte], start: Int, length: Int, quoted: Boolean): Unit = {
    last.value = null
    converter.writeField(bytes, start, length, quoted)
    if (last.value != null) values(column) += last.value
  }

  /** The sampled columns, each typed by `plugin` from its values (`NullType` where none had one). */
  def schema(plugin: FormatPlugin): StructType =
    StructType(columns.fields.indices.map { i =>
      columns(i).copy(dataType = plugin.inferType(values(i).iterator, options))
    })
}

/** A string column's writer that keeps only the last value written (null after `setNull`). */
private final class LastString extends ColumnWriter {
  var value: String = _
  val field: StructField = StructField("sample", StringType, nullable = true)
  def isProjected: Boolean = true
  def setNull(): Unit = value = null
  def setBytes(bytes: Array[Byte], offset: Int, length: Int): Unit =
    value = new String(bytes, offset, length, java.nio.charset.StandardCharsets.UTF_8)
  def setString(v: String): Unit = value = v
  private def notText(what: String): Nothing =
    throw DrillErrors.internal(s"a sampled text field takes text, not $what")
  def setBoolean(v: Boolean): Unit = notText("a boolean")
  def setInt(v: Int): Unit = notText("an int")
  def setLong(v: Long): Unit = notText("a long")
  def setDouble(v: Double): Unit = notText("a double")
  def setDecimal(v: Decimal): Unit = notText("a decimal")
  def setDate(days: Int): Unit = notText("a date")
  def setTimestamp(micros: Long): Unit = notText("a timestamp")
  def setVariant(value: Array[Byte], metadata: Array[Byte]): Unit = notText("a variant")
  def array: ArrayWriter = notText("an array")
  def struct: TupleWriter = notText("a struct")
  def map: MapWriter = notText("a map")
}
