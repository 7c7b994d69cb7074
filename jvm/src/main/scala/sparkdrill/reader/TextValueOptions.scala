package sparkdrill.reader

import java.util.Locale

import OptionKind._

/** Options of formats whose fields are text typed by the scan (delimited text, log lines): null spellings,
  * date and timestamp patterns, `inferTypes` and `format.<column>`. One declaration each, shared by every
  * such format (docs/options.md).
  */
object TextValueOptions {
  val NullValue: OptionSpec[String] =
    OptionSpec.optional("nullValue", Text, "a field equal to this text is null")
  val EmptyValue: OptionSpec[String] =
    OptionSpec.optional("emptyValue", Text, "what an empty quoted field becomes in a string column")
  val DateFormat: OptionSpec[String] =
    OptionSpec.optional("dateFormat", Text, "java.time pattern of date columns (default ISO)")
  val TimestampFormat: OptionSpec[String] =
    OptionSpec.optional("timestampFormat", Text, "java.time pattern of timestamp columns (default ISO)")
  val InferTypes: OptionSpec[Boolean] = OptionSpec(
    "inferTypes",
    Bool,
    false,
    "types text columns from a sample of each file (boolean, int, bigint, double, date, timestamp)",
    Seq("inferSchema")
  )
  val ColumnFormat: PrefixOptionSpec =
    PrefixOptionSpec("format.", "format.<column>: the date or timestamp pattern of one column")

  /** The typing options a format of text fields takes (`emptyValue` is delimited text's own: it needs quotes). */
  val all: Seq[OptionSpec[_]] = Seq(NullValue, DateFormat, TimestampFormat, InferTypes)

  /** The converters' settings for one read. */
  def converterSettings(options: ReaderOptions): TextConverter.Settings =
    TextConverter.Settings(
      nullValue = options.get(NullValue),
      emptyValue = options.get(EmptyValue),
      dateFormat = options.get(DateFormat),
      timestampFormat = options.get(TimestampFormat),
      columnFormats = options.withPrefix(ColumnFormat).map { case (k, v) => k.toLowerCase(Locale.ROOT) -> v },
      zone = CommonOptions.zone(options)
    )

  /** Records discovery samples: with `inferTypes`, `sampleRows` of them; else none (names only). */
  def sampleRows(options: ReaderOptions): Int =
    if (options(InferTypes)) CommonOptions.sampleLimit(options) else 0
}
