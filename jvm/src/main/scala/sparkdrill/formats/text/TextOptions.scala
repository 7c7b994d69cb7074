package sparkdrill.formats.text

import sparkdrill.reader.{OptionKind, OptionSpec, PrefixOptionSpec, TextValueOptions}
import sparkdrill.reader.OptionKind._

/** The options of delimited text (docs/options.md, Text). */
private[sparkdrill] object TextOptions {
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
  val NullValue: OptionSpec[String] = TextValueOptions.NullValue
  val EmptyValue: OptionSpec[String] = TextValueOptions.EmptyValue
  val DateFormat: OptionSpec[String] = TextValueOptions.DateFormat
  val TimestampFormat: OptionSpec[String] = TextValueOptions.TimestampFormat
  val InferTypes: OptionSpec[Boolean] = TextValueOptions.InferTypes
  val MultiLine: OptionSpec[Boolean] = OptionSpec(
    "multiLine",
    Bool,
    false,
    "reads each file whole (no byte-range splits), for quoted fields that hold line ends"
  )
  val ColumnFormat: PrefixOptionSpec = TextValueOptions.ColumnFormat

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
