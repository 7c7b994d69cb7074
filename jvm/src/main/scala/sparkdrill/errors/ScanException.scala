package sparkdrill.errors

/** Names where an error happened: the scan adds the file; a reader adds line, offset, column and value. It is
  * the factory of a reader's errors (a record's, a value's), as [[DrillErrors]] is of every other: a reader
  * holds one for the file it reads.
  */
final case class ErrorContext(path: String, positionsKnown: Boolean = true) {

  /** The error, of class `kind` ([[ErrorClasses]]); without one, an error naming a column is an
    * unconvertible value and any other a malformed record, the two kinds a reader meets most.
    */
  def error(
      message: String,
      line: Long = -1,
      offset: Long = -1,
      column: String = null,
      value: String = null,
      option: String = null,
      kind: String = null
  ): ScanException = {
    val errorClass =
      if (kind != null) kind
      else if (column != null) ErrorClasses.UnconvertibleValue
      else ErrorClasses.MalformedRecord
    if (positionsKnown)
      new ScanException(
        errorClass,
        message,
        path,
        line,
        offset,
        Option(column),
        Option(value),
        Option(option)
      )
    else new ScanException(errorClass, message, path, -1, -1, Option(column), Option(value), Option(option))
  }

  /** The same context for a reader that cannot tell lines and offsets (a range of a bzip2 file). */
  def withoutPositions: ErrorContext = copy(positionsKnown = false)
}

/** A bad-input error a user can act on: it names the file, line, byte offset, column, a shortened value and
  * the option that changes the outcome, in the message and as the parameters of its error class. It keeps
  * at most `MaxKeptChars` of the value: the exception travels from executor to driver, and a 200 MB broken
  * record must not travel with it.
  */
final class ScanException(
    val errorClass: String,
    val reason: String,
    val path: String,
    val line: Long,
    val offset: Long,
    val column: Option[String],
    fullValue: Option[String],
    val option: Option[String]
) extends RuntimeException(
      s"[$errorClass] " + ScanException.format(reason, path, line, offset, column, fullValue, option)
    )
    with SparkDrillError {
  val value: Option[String] =
    fullValue.map(v => if (v.length <= ScanException.MaxKeptChars) v else v.take(ScanException.MaxKeptChars))

  /** reason, file, and line, offset, column, value (as kept, not shortened) and option where known. */
  def parameters: Map[String, String] =
    Map("reason" -> reason, "file" -> path) ++
      (if (line >= 0) Map("line" -> line.toString) else Map.empty) ++
      (if (offset >= 0) Map("offset" -> offset.toString) else Map.empty) ++
      column.map("column" -> _) ++ value.map("value" -> _) ++ option.map("option" -> _)
}

object ScanException {
  val MaxValueChars = 80
  val MaxKeptChars = 4096

  /** A value as an error quotes it: line ends and tabs escaped (the message stays one line), and cut short. */
  def shorten(value: String): String = {
    val oneLine = value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    if (oneLine.length <= MaxValueChars) oneLine
    else oneLine.take(MaxValueChars) + s"... (${value.length} chars)"
  }

  def format(
      reason: String,
      path: String,
      line: Long,
      offset: Long,
      column: Option[String],
      value: Option[String],
      option: Option[String]
  ): String = {
    val where = new StringBuilder(s"file $path")
    if (line >= 0) where.append(s", line $line")
    if (offset >= 0) where.append(s", byte offset $offset")
    column.foreach(c => where.append(s", column '$c'"))
    value.foreach(v => where.append(s", value '${shorten(v)}'"))
    val hint = option.map(o => s" ($o)").getOrElse("")
    s"spark-drill: $reason: $where$hint"
  }
}
