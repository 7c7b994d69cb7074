package sparkdrill.formats.json

import com.fasterxml.jackson.core.JsonProcessingException

import sparkdrill.reader.{ErrorContext, ParseMode, ScanException}

/** The error of a broken JSON record, for the reader and for discovery alike. */
private[json] object JsonMalformed {

  /** Names the current record of `records` (its first line and offset, its text) and Jackson's reason; where
    * in the record, unless its parser counts from the record's own start (`located` false: a record read
    * again from its bytes; a limit such as the nesting depth reports no location either).
    */
  def error(
      records: JsonRecords,
      errors: ErrorContext,
      e: JsonProcessingException,
      mode: ParseMode,
      located: Boolean
  ): ScanException = {
    records.toBroken()
    val where = if (located) records.location(e) else None
    errors.error(
      s"malformed JSON (${String.valueOf(e.getOriginalMessage).split("\\R", 2)(0)}" +
        s"${where.getOrElse("")})",
      line = records.line,
      offset = records.offset,
      value = records.text(records.nextRecordStart),
      option =
        if (records.inRootArray) "a broken record inside a root array cannot be skipped"
        else ParseMode.advice(mode)
    )
  }
}
