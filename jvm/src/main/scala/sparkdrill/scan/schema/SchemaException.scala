package sparkdrill.scan.schema

import sparkdrill.reader.{ErrorClasses, SparkDrillError}

/** A schema that cannot be resolved at planning: a type conflict under `typeConflict=fail`, a file that
  * differs under `schemaMode=fail`, a projection the table cannot serve, a bad provided schema. The message
  * names the column(s), file(s) and the option that changes the outcome; the class tells which it is, and
  * `option` names the option whose value is wrong, when one is.
  */
private[sparkdrill] final class SchemaException(
    message: String,
    val errorClass: String = ErrorClasses.SchemaConflict,
    option: Option[String] = None
) extends IllegalArgumentException(s"[$errorClass] spark-drill: $message")
    with SparkDrillError {
  def parameters: Map[String, String] = Map("reason" -> message) ++ option.map("option" -> _)
}

private[sparkdrill] object SchemaException {

  /** The option `providedSchema` does not parse or defines something a table cannot have. */
  def providedSchema(message: String): SchemaException =
    new SchemaException(message, ErrorClasses.BadOptionValue, Some("providedSchema"))

  /** The projection asks for what the table cannot give. */
  def projection(message: String): SchemaException = new SchemaException(message, ErrorClasses.BadProjection)
}
