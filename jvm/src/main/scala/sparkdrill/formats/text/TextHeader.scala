package sparkdrill.formats.text

import org.apache.spark.sql.types.{StringType, StructField, StructType}

import sparkdrill.reader.{ErrorContext, ParseMode, ScanException}

/** What delimited text's reader and its discovery both read the same way: the header, and the error of a
  * record whose quote is never closed.
  */
private[text] object TextHeader {

  /** The columns the parser's next record names (SPEC 9.5), all strings; empty for a file with no record. */
  def read(parser: CsvParser, errors: ErrorContext): StructType =
    if (!parser.next()) new StructType() // an empty file has no header and no rows
    else {
      if (parser.unterminatedQuote)
        throw errors.error(
          "unterminated quote in the header line",
          line = parser.recordLine,
          offset = parser.recordOffset
        )
      StructType(HeaderNames.clean(parser.fields).map(StructField(_, StringType, nullable = true)))
    }

  /** Why a record whose quote is never closed is malformed. */
  val UnclosedQuote = "a quoted field is never closed"

  /** The current record never closes a quote: it is malformed (`line` is its line in the file). */
  def unclosedQuote(parser: CsvParser, errors: ErrorContext, line: Long, mode: ParseMode): ScanException =
    errors.error(
      s"malformed record: $UnclosedQuote",
      line = line,
      offset = parser.recordOffset,
      value = parser.recordText,
      option = ParseMode.advice(mode)
    )
}
