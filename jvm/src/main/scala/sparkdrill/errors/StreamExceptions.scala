package sparkdrill.errors

/** A stream stopped because of its schema (SPEC 11, "New columns"), under a stable error class that
  * `sd.run_stream` and jobs match on, never on the message: the class also leads the message, as Spark prints
  * its own (`[CLASS] text`), so it survives where only text travels (a StreamingQueryException's cause). It
  * ends the query as it stands: a task passes it on, not as a file it failed to read.
  */
private[sparkdrill] final class StreamStopException(
    val errorClass: String,
    text: String,
    val parameters: Map[String, String]
) extends IllegalStateException(s"[$errorClass] $text")
    with SparkDrillError
    with EndsTheQuery

/** A stream's state that another query holds: its lease. */
private[sparkdrill] final class StreamStateException(
    val errorClass: String,
    text: String,
    val parameters: Map[String, String]
) extends IllegalStateException(s"[$errorClass] $text")
    with SparkDrillError

/** A stream's file that cannot be read (a damaged schema version): an IOException, as its readers catch. */
private[sparkdrill] final class StreamIOException(
    val errorClass: String,
    text: String,
    val parameters: Map[String, String],
    cause: Throwable
) extends java.io.IOException(s"[$errorClass] $text", cause)
    with SparkDrillError

/** A schema version already written by another query: an IOException, as the writer's callers catch. */
private[sparkdrill] final class SchemaVersionTakenException(text: String, val parameters: Map[String, String])
    extends java.io.IOException(s"[${ErrorClasses.StreamSchemaVersionTaken}] $text")
    with SparkDrillError {
  def errorClass: String = ErrorClasses.StreamSchemaVersionTaken
}
