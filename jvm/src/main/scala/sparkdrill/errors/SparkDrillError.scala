package sparkdrill.errors

/** An error of spark-drill's that Spark, PySpark and Spark Connect know by its class (a condition such as
  * `SPARK_DRILL_MALFORMED_RECORD`, one of [[ErrorClasses]]) and its named message parameters, so that a
  * client (`sd.ScanError`, `sd.run_stream`, the CLI) reads the file, line or value from the parameters
  * instead of parsing the message. The message leads with `[CLASS]`, as Spark prints its own, so the class
  * survives where only text travels. Every one is made by [[DrillErrors]].
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

/** An error that ends the query as it stands: a task passes it on as it is, not as a file it failed to read.
  * Here, not in `scan` (where the task's loop reads it), so that the factory depends on nothing of ours.
  */
private[sparkdrill] trait EndsTheQuery
