package sparkdrill.errors

/** Format plugins, Python column parsers and the catalog: what spark-drill is extended or reached by. */
trait PluginErrors {

  def formatNamedTwice(name: String, classes: Seq[String]): DrillException =
    new DrillException(
      ErrorClasses.PluginConflict,
      s"two formats are named '$name': ${classes.mkString(", ")}",
      Map("format" -> name, "plugins" -> classes.mkString(", "))
    )

  def suffixClaimedTwice(suffix: String, formats: Seq[String]): DrillException =
    new DrillException(
      ErrorClasses.PluginConflict,
      s"formats ${formats.mkString(", ")} all claim the suffix .$suffix",
      Map("suffix" -> suffix, "plugins" -> formats.mkString(", "))
    )

  /** The parser raised `raised` (Python's exception, as text) when asked to type `column`, at planning. */
  def columnParserRaised(parser: String, column: String, raised: String): DrillException =
    new DrillException(
      ErrorClasses.ColumnParserFailed,
      s"column parser '$parser' raised $raised for column '$column'",
      Map("parser" -> parser, "column" -> column)
    )

  def columnParserBadType(parser: String, column: String, ddl: String, cause: Throwable): DrillException =
    new DrillException(
      ErrorClasses.ColumnParserFailed,
      s"column parser '$parser' gave column '$column' the type '$ddl', which is not a Spark SQL type",
      Map("parser" -> parser, "column" -> column, "value" -> ddl),
      cause
    )

  /** The parser raised `raised` when asked for `file`'s value of `column`. */
  def columnParserRaisedOnFile(
      parser: String,
      file: String,
      column: String,
      raised: String
  ): ScanException = {
    val e = new ScanException(
      ErrorClasses.ColumnParserFailed,
      s"column parser '$parser' raised $raised",
      file,
      -1,
      -1,
      Some(column),
      None,
      None
    )
    e
  }

  def columnParserWrongValue(
      parser: String,
      file: String,
      column: String,
      typeName: String,
      value: String
  ): ScanException =
    new ScanException(
      ErrorClasses.ColumnParserFailed,
      s"column parser '$parser' returned a value that is not a $typeName",
      file,
      -1,
      -1,
      Some(column),
      Some(value),
      None
    )

  /** `what`: what it was asked, as "parsing column 'x'". */
  def columnParserTimeout(parser: String, seconds: Double, what: String): DrillException =
    new DrillException(
      ErrorClasses.ColumnParserTimeout,
      s"column parser '$parser' did not answer within $seconds s while $what " +
        "(register_column_parser's timeout sets the limit)",
      Map("parser" -> parser, "seconds" -> seconds.toString)
    )

  /** The call to Python failed (its process gone, say): Py4J's error is the cause. */
  def columnParserCallFailed(parser: String, what: String, cause: Throwable): DrillException =
    new DrillException(
      ErrorClasses.ColumnParserFailed,
      s"column parser '$parser' failed while $what: ${cause.getMessage}",
      Map("parser" -> parser),
      cause
    )

  def readOnlyCatalog(catalog: String): DrillUnsupportedException =
    new DrillUnsupportedException(
      ErrorClasses.ReadOnlyCatalog,
      s"the $catalog catalog only reads files; it cannot change them",
      Map("catalog" -> catalog)
    )
}
