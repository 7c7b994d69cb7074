package sparkdrill.errors

import org.apache.spark.SparkThrowable

/** An error Spark (and PySpark, also under Connect) knows by its class: Spark 4 asks `getCondition`. */
private[sparkdrill] trait ErrorClassShim extends SparkThrowable {
  def errorClass: String
  override def getCondition: String = errorClass
  // Not one of Spark's own classes: its table of SQL states has no entry to look up.
  override def getSqlState: String = null
}
