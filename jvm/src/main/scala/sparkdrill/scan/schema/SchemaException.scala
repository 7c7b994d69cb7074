package sparkdrill.scan.schema

/** A schema that cannot be resolved at planning: a type conflict under `typeConflict=fail`, a file that
  * differs under `schemaMode=fail`, a projection the table cannot serve, a bad provided schema. The message
  * names the column(s), file(s) and the option that changes the outcome.
  */
private[sparkdrill] final class SchemaException(message: String)
    extends IllegalArgumentException(s"spark-drill: $message")
