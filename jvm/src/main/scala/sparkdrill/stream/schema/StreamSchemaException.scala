package sparkdrill.stream.schema

import sparkdrill.reader.ErrorClassShim
import sparkdrill.scan.EndsTheQuery

/** A stream stopped because of its schema (SPEC 11, "New columns"), under a stable error class that
  * `sd.run_stream` and jobs match on, never on the message: the class also leads the message, as Spark prints
  * its own (`[CLASS] text`), so it survives where only text travels (a StreamingQueryException's cause).
  */
private[sparkdrill] final class StreamSchemaException(val errorClass: String, text: String)
    extends IllegalStateException(s"[$errorClass] $text")
    with ErrorClassShim
    with EndsTheQuery

private[sparkdrill] object StreamSchemaException {

  /** The schema changed; the new version is in `schemaLocation`: build the DataFrame again and restart. */
  val Changed = "SPARK_DRILL_STREAM_SCHEMA_CHANGED"

  /** `failOnNewColumns` met a column the schema lacks: the schema stays as it is. */
  val NewColumns = "SPARK_DRILL_STREAM_NEW_COLUMNS"

  /** The DataFrame was built on an older version than `schemaLocation` holds. */
  val Stale = "SPARK_DRILL_STREAM_STALE_SCHEMA"
}
