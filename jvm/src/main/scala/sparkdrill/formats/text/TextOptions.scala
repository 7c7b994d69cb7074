package sparkdrill.formats.text

import sparkdrill.reader.{OptionKind, OptionSpec, PrefixOptionSpec}
import sparkdrill.reader.OptionKind._

/** The options of delimited text (docs/options.md, Text). */
object TextOptions {
  val Header: OptionSpec[Boolean] =
    OptionSpec(
      "header",
      Bool,
      false,
      "the first non-blank line names the columns; each file by its own header"
    )
  val Delimiter: OptionSpec[Byte] = OptionSpec.optional(
    "delimiter",
    OneByte,
    "the one-byte field delimiter (default , for csv, tab for tsv, | for psv); \\t and \\u0001 spellings work",
    aliases = Seq("sep", "fieldDelimiter")
  )
  val Quote: OptionSpec[Int] =
    OptionSpec("quote", OptionalByte, '"'.toInt, "the quote character; an empty string turns quoting off")
  val Escape: OptionSpec[Int] = OptionSpec.optional(
    "escape",
    OptionalByte,
    "the escape character (default: the quote, so a doubled quote is one quote)"
  )
  val Comment: OptionSpec[Int] =
    OptionSpec("comment", OptionalByte, -1, "lines starting with this character are skipped (default: none)")
  val LineDelimiter: OptionSpec[Array[Byte]] = OptionSpec.optional(
    "lineDelimiter",
    LineEnd,
    "the record separator, one or two bytes (default: \\n, \\r\\n or \\r)",
    aliases = Seq("lineSep")
  )
  val SkipFirstLine: OptionSpec[Boolean] =
    OptionSpec("skipFirstLine", Bool, false, "drops each file's first line (before the header)")
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
  val MultiLine: OptionSpec[Boolean] = OptionSpec(
    "multiLine",
    Bool,
    false,
    "reads each file whole (no byte-range splits), for quoted fields that hold line ends"
  )
  val ColumnFormat: PrefixOptionSpec =
    PrefixOptionSpec("format.", "format.<column>: the date or timestamp pattern of one column")

  val all: Seq[OptionSpec[_]] = Seq(
    Header,
    Delimiter,
    Quote,
    Escape,
    Comment,
    LineDelimiter,
    SkipFirstLine,
    NullValue,
    EmptyValue,
    DateFormat,
    TimestampFormat,
    InferTypes,
    MultiLine
  )

  /** One or two bytes that end a record. */
  object LineEnd extends OptionKind[Array[Byte]]("string") {
    def parse(option: String, text: String): Array[Byte] = {
      val bytes = sparkdrill.reader.Escapes.unescape(text).getBytes("UTF-8")
      if (bytes.length < 1 || bytes.length > 2) bad(option, text, "1 or 2 bytes")
      bytes
    }
    override def show(value: Array[Byte]): String =
      sparkdrill.reader.Escapes.escape(new String(value, "UTF-8"))
  }
}
