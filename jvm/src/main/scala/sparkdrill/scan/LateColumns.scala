package sparkdrill.scan

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.StructType

/** What a read does when a reader meets columns the table lacks past discovery (a JSON member first seen
  * after the sample), instead of dropping or rescuing their values: a stream whose schema evolves stops the
  * micro-batch there, before it commits (SPEC 11, "New columns"). Shipped to tasks with the [[ScanSpec]].
  */
private[sparkdrill] trait LateColumns extends Serializable {

  /** Records what the query needs to go on with `columns` (met in `file` at `line`), then throws an error
    * that [[sparkdrill.errors.EndsTheQuery]].
    */
  def stop(file: String, columns: StructType, line: Long, conf: Configuration): Nothing
}
