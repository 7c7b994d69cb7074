package sparkdrill.errors

/** A schema that cannot be resolved at planning: a type conflict under `typeConflict=fail`, a file that
  * differs under `schemaMode=fail`, a projection the table cannot serve, a bad provided schema. The message
  * names the column(s), file(s) and the option that changes the outcome; the class tells which it is, and
  * `option` names the option whose value is wrong, when one is.
  */
private[sparkdrill] final class SchemaException(
    message: String,
    val errorClass: String = ErrorClasses.SchemaConflict,
    option: Option[String] = None,
    column: Option[String] = None
) extends IllegalArgumentException(s"[$errorClass] spark-drill: $message")
    with SparkDrillError {
  def parameters: Map[String, String] =
    Map("reason" -> message) ++ option.map("option" -> _) ++ column.map("column" -> _)
}
