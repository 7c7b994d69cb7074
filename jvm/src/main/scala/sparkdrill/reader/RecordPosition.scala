package sparkdrill.reader

/** Where the current record of a split stands in its file: what the hidden `_line`, `_offset` and `sheet`
  * columns, error messages and the rescued-data column name. Asked only when one of them needs it, so a
  * format may count lines lazily (delimited text counts a split's earlier lines only when `_line` is read).
  */
trait RecordPosition {

  /** The current record's 1-based line, or -1 where lines are unknown (a range of a bzip2 file). */
  def line: Long

  /** The current record's byte offset in the uncompressed file, or -1 where unknown. */
  def offset: Long

  /** The sheet of the current record, for a format whose files have sheets (the hidden `sheet` column). */
  def sheet: Option[String] = None
}
