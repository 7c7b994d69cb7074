package sparkdrill.reader

import org.apache.spark.sql.types.StringType

import sparkdrill.loader.ColumnWriter

import OptionKind._

/** Options every reader shares: bad-record handling, the corrupt-record and rescued-data columns, sampling
  * for discovery and the time zone of values written without one.
  */
object CommonOptions {
  val Mode: OptionSpec[ParseMode] = OptionSpec(
    "mode",
    new Choice(ParseMode.all.map(m => m.name -> m)),
    ParseMode.Permissive,
    "what a malformed record does: PERMISSIVE keeps it with nulls, DROPMALFORMED drops it, FAILFAST fails"
  )
  val CorruptRecordColumn: OptionSpec[String] = OptionSpec.optional(
    "columnNameOfCorruptRecord",
    Text,
    "a string column that holds a malformed record's raw text"
  )
  val RescuedDataColumn: OptionSpec[String] = OptionSpec.optional(
    "rescuedDataColumn",
    Text,
    "a string column that keeps values with no column (fields past the header, keys after discovery) as JSON"
  )
  val RescuedDataType: OptionSpec[String] = OptionSpec(
    "rescuedDataType",
    Choice.words("string", "variant"),
    "string",
    "variant (Spark 4): the rescued-data column is a VARIANT object, not JSON text"
  )
  val SingleVariantColumn: OptionSpec[String] = OptionSpec.optional(
    "singleVariantColumn",
    Text,
    "Spark 4: each record is one VARIANT in this column (JSON: the record; text, log: its named fields)"
  )
  val Validate: OptionSpec[String] = OptionSpec(
    "validate",
    Choice.words("projected", "all"),
    "projected",
    "all: every column is converted, so counts and DROPMALFORMED do not depend on the projection"
  )
  val MaxRecordTextBytes: OptionSpec[Int] = OptionSpec(
    "maxRecordTextBytes",
    Int32,
    1 << 20,
    "bytes of a record's text the corrupt-record and rescued-data columns keep at most (longer text is cut)"
  )
  val SampleRows: OptionSpec[Int] = OptionSpec(
    "sampleRows",
    Int32,
    1000,
    "records per file that discovery reads to type columns (JSON; text with inferTypes); -1 for all"
  )
  // Read by discovery (each file's sample) and by the scan (the union of the files): one option for both.
  val MapInferenceThreshold: OptionSpec[Int] = OptionSpec(
    "mapInferenceThreshold",
    Int32,
    200,
    "an object column whose objects hold more than this many distinct keys is a map<string, T>; -1: never"
  )
  val TimeZone: OptionSpec[String] = OptionSpec.optional(
    "timeZone",
    Text,
    "zone of timestamps written without one (default: the session time zone)"
  )

  val all: Seq[OptionSpec[_]] =
    Seq(
      Mode,
      CorruptRecordColumn,
      RescuedDataColumn,
      RescuedDataType,
      SingleVariantColumn,
      MaxRecordTextBytes,
      Validate,
      SampleRows,
      MapInferenceThreshold,
      TimeZone
    )

  /** `sampleRows` as a count: -1 is every record. */
  def sampleLimit(options: ReaderOptions): Int = options(SampleRows) match {
    case -1 => Int.MaxValue
    case n => math.max(1, n)
  }

  /** `mapInferenceThreshold` as [[TypeLattice.join]] takes it: -1 (or any negative) is never. */
  def mapThreshold(options: ReaderOptions): Int = math.max(TypeLattice.NoMaps, options(MapInferenceThreshold))

  def parseMode(options: ReaderOptions): ParseMode = options(Mode)

  /** `text` cut to at most `maxRecordTextBytes` UTF-8 bytes (at a character boundary), with a marker that
    * says how much was cut: a huge or hostile record cannot fill a column without bound.
    */
  def capText(text: String, options: ReaderOptions): String = {
    val max = math.max(0, options(MaxRecordTextBytes))
    if (text.length.toLong * 3 <= max) text // even at 3 bytes a char it fits
    else {
      val bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8)
      if (bytes.length <= max) text
      else {
        var end = max
        while (end > 0 && (bytes(end) & 0xc0) == 0x80) end -= 1 // not inside a character
        new String(bytes, 0, end, java.nio.charset.StandardCharsets.UTF_8) +
          s"... (${bytes.length - end} more bytes; maxRecordTextBytes)"
      }
    }
  }

  def validateAll(options: ReaderOptions): Boolean = options(Validate) == "all"

  /** Whether a reader converts a column's values: the query reads it, or `validate=all` judges every record
    * by every typed column (its writer then keeps nothing).
    */
  def converts(writer: ColumnWriter, options: ReaderOptions): Boolean =
    writer.isProjected || (validateAll(options) && writer.dataType != StringType)

  def zone(options: ReaderOptions): java.time.ZoneId =
    options.get(TimeZone).map(java.time.ZoneId.of).getOrElse(java.time.ZoneOffset.UTC)
}
