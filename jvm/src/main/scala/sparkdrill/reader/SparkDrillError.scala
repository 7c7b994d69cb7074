package sparkdrill.reader

/** An error of spark-drill's that Spark, PySpark and Spark Connect know by its class (a condition such as
  * `SPARK_DRILL_MALFORMED_RECORD`) and its named message parameters, so that a client (`sd.ScanError`) reads
  * the file, line or value from the parameters instead of parsing the message. The message leads with
  * `[CLASS]`, as Spark prints its own, so the class survives where only text travels.
  */
private[sparkdrill] trait SparkDrillError extends ErrorClassShim {

  /** The parameters, by name; only those the error has (no line for an error of a whole file). */
  def parameters: Map[String, String]

  // Built by hand, not with a collection converter: those differ between Scala 2.12 and 2.13.
  override def getMessageParameters: java.util.Map[String, String] = {
    val out = new java.util.LinkedHashMap[String, String]()
    parameters.foreach { case (k, v) => out.put(k, v) }
    out
  }
}

/** The error classes: one per kind of error, each a condition a job or client may match on. */
object ErrorClasses {

  /** A record that cannot be parsed (broken JSON, a quoted field never closed, a broken header). */
  val MalformedRecord = "SPARK_DRILL_MALFORMED_RECORD"

  /** A value that does not convert to its column's type, in FAILFAST. */
  val UnconvertibleValue = "SPARK_DRILL_UNCONVERTIBLE_VALUE"

  /** A record larger than the reader may hold (`maxRecordBytes`). */
  val RecordTooLarge = "SPARK_DRILL_RECORD_TOO_LARGE"

  /** A record runs across the place where the file was split for parallel reading. */
  val SplitBoundary = "SPARK_DRILL_SPLIT_BOUNDARY"

  /** A file listed at planning is gone when read. */
  val MissingFile = "SPARK_DRILL_MISSING_FILE"

  /** A file that cannot be read: corrupt or truncated compression, an I/O error. */
  val UnreadableFile = "SPARK_DRILL_UNREADABLE_FILE"

  /** A Python column parser raised, or answered with a value of another type. */
  val ColumnParserFailed = "SPARK_DRILL_COLUMN_PARSER_FAILED"

  /** An option name no format knows. */
  val UnknownOption = "SPARK_DRILL_UNKNOWN_OPTION"

  /** An option of Spark's own readers with no counterpart here, or one given to the wrong kind of read. */
  val UnsupportedOption = "SPARK_DRILL_UNSUPPORTED_OPTION"

  /** An option's value that does not parse or is out of range, or two spellings of one option disagreeing. */
  val BadOptionValue = "SPARK_DRILL_BAD_OPTION_VALUE"

  /** Files whose schemas conflict (`typeConflict=fail`, `schemaMode=fail`) or a schema no table can have. */
  val SchemaConflict = "SPARK_DRILL_SCHEMA_CONFLICT"

  /** A projection the table cannot serve (a member of a column that is not a struct, say). */
  val BadProjection = "SPARK_DRILL_BAD_PROJECTION"
}
