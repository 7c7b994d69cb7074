package sparkdrill.reader

import sparkdrill.loader.{ColumnWriter, RowWriter}

/** What every reader does with bad input, per `mode` (SPEC 6), in one place: a record that cannot be parsed,
  * and a value that cannot be converted. Counts what it keeps with nulls or drops (`malformed`), and fills
  * the corrupt-record column (`columnNameOfCorruptRecord`) when the query reads it.
  */
final class BadRecords(options: ReaderOptions, writer: RowWriter) {
  val mode: ParseMode = CommonOptions.parseMode(options)

  /** The corrupt-record column's writer when the query reads it, else null. */
  val corrupt: ColumnWriter =
    if (writer == null) null
    else options.get(CommonOptions.CorruptRecordColumn).flatMap(writer.find).filter(_.isProjected).orNull

  /** Records kept with nulls (PERMISSIVE) or dropped (DROPMALFORMED). */
  var malformed: Long = 0L

  /** A record that cannot be parsed. FAILFAST throws `error`; DROPMALFORMED drops it; PERMISSIVE saves a row
    * of nulls (with `writeImplicit`'s columns) holding the record's `raw` text in the corrupt-record column.
    */
  def brokenRecord(error: => ScanException, raw: => String)(writeImplicit: => Unit): Unit = mode match {
    case ParseMode.FailFast => throw error
    case ParseMode.DropMalformed => malformed += 1
    case ParseMode.Permissive =>
      malformed += 1
      writer.start()
      writeImplicit
      if (corrupt != null) corrupt.setString(CommonOptions.capText(raw, options))
      writer.save()
  }

  /** A value of the record being written that cannot be converted. FAILFAST throws `error`; DROPMALFORMED
    * returns false (the caller leaves the row unsaved); PERMISSIVE returns true (the caller writes null, or
    * a NOT NULL column's zero, and keeps the row).
    */
  def badValue(error: => ScanException): Boolean = mode match {
    case ParseMode.FailFast => throw error
    case ParseMode.DropMalformed => malformed += 1; false
    case ParseMode.Permissive => malformed += 1; true
  }

  /** A text value that does not convert to its column's type (delimited text, the record-reader template):
    * per mode as [[badValue]], the error naming the file, line, offset, column and value; when the row is kept
    * the column takes null, or a NOT NULL column its type's zero.
    */
  def unconvertible(
      errors: ErrorContext,
      w: ColumnWriter,
      line: Long,
      offset: Long,
      value: => String
  ): Boolean = {
    val field = w.field
    val keep = badValue(
      errors.error(
        s"cannot convert the value to ${field.dataType.simpleString}",
        line = line,
        offset = offset,
        column = field.name,
        value = value,
        option = ParseMode.advice(mode)
      )
    )
    if (keep) { if (field.nullable) w.setNull() else Fills.writeZero(w) }
    keep
  }

  /** After a PERMISSIVE row with a bad value: the record's raw text into the corrupt-record column. */
  def keepRaw(raw: => String): Unit =
    if (corrupt != null) corrupt.setString(CommonOptions.capText(raw, options))
}
