package sparkdrill.formats.excel

import sparkdrill.reader.{OptionSpec, ReaderOptions, TextValueOptions}
import sparkdrill.reader.OptionKind.{Bool, Int64, Text}

/** The options of `format=excel` (docs/options.md, "Excel"). */
private[excel] object ExcelOptions {
  val Sheet: OptionSpec[String] = OptionSpec.optional(
    "sheet",
    Text,
    "excel: the sheets read: a name, a glob over names (2024-*), or * for all; default the first sheet"
  )
  val DataAddress: OptionSpec[String] = OptionSpec.optional(
    "dataAddress",
    Text,
    "excel: the range read ('Sheet name'!B3, B3:H200, B3:H); without a sheet part, of every sheet read"
  )
  val MaxWorkbookBytes: OptionSpec[Long] = OptionSpec(
    "maxWorkbookBytes",
    Int64,
    256L << 20,
    "excel: a larger .xls workbook (read whole) fails the read in every mode, naming it"
  )
  // The option table holds one `header` and one `allTextMode` for every format (two declarations of a name
  // must be equal), so these are text's and JSON's declarations word for word; excel's own default of
  // `header` (true) is applied where it is read ([[header]]).
  val Header: OptionSpec[Boolean] =
    OptionSpec(
      "header",
      Bool,
      false,
      "the first non-blank line names the columns; each file by its own header"
    )
  val AllTextMode: OptionSpec[Boolean] = OptionSpec(
    "allTextMode",
    Bool,
    false,
    "every scalar is a string holding the token's text",
    Seq("primitivesAsString")
  )

  // Text cells take text's typing options (`inferTypes`, `nullValue`, `format.<column>`, ...), as SPEC 13 says.
  val all: Seq[OptionSpec[_]] =
    Seq(Sheet, DataAddress, Header, AllTextMode, MaxWorkbookBytes) ++ TextValueOptions.all

  /** Whether the first row of each range names the columns: true unless the user says otherwise. */
  def header(options: ReaderOptions): Boolean = !options.isSet(Header) || options(Header)
}
