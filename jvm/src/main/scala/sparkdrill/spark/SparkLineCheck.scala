package sparkdrill.spark

import java.util.Properties

/** Refuses a Spark of another line than the jar was built for, before any planning runs: a Spark 4 jar on
  * Spark 3.5 (or a Scala 2.12 jar on Scala 2.13) would otherwise fail later with a `NoSuchMethodError` deep in
  * the first query. Written with Java's library only, since the Scala library itself may be the mismatch.
  */
private[spark] object SparkLineCheck {
  private val resource = "/sparkdrill/spark-line.properties"

  /** Checked once per JVM, at the first `format("drill")` or `drill` catalog. */
  lazy val verified: Unit = check(org.apache.spark.SPARK_VERSION, scala.util.Properties.versionNumberString)

  def check(sparkVersion: String, scalaVersion: String): Unit = {
    val built = new Properties()
    val in = getClass.getResourceAsStream(resource)
    if (in == null) throw new IllegalStateException(s"spark-drill: $resource missing from the jar")
    try built.load(in)
    finally in.close()
    val line = built.getProperty("line")
    val scalaBinary = built.getProperty("scalaBinary")
    val runningLine = lineOf(sparkVersion)
    val runningScala = binaryOf(scalaVersion)
    if (line != runningLine || scalaBinary != runningScala) {
      val wanted =
        if (runningLine == null)
          "a supported Spark: spark-drill runs on Spark 4.x (Scala 2.13) and 3.5 (Scala 2.12 or 2.13)"
        else s"spark-drill-${runningLine}_$runningScala-<version>.jar (spark_drill.jar_path() picks it)"
      throw new UnsupportedOperationException(
        s"This spark-drill jar (spark-drill-${line}_$scalaBinary) is built for Spark ${describe(line)} on Scala " +
          s"$scalaBinary, but this session runs Spark $sparkVersion on Scala $scalaVersion. Use $wanted."
      )
    }
  }

  private def lineOf(sparkVersion: String): String =
    if (sparkVersion.startsWith("4.")) "spark4"
    else if (sparkVersion.startsWith("3.5.") || sparkVersion == "3.5") "spark3.5"
    else null

  private def binaryOf(scalaVersion: String): String = {
    val parts = scalaVersion.split("\\.")
    if (parts.length >= 2) parts(0) + "." + parts(1) else scalaVersion
  }

  private def describe(line: String): String = if (line == "spark4") "4.x" else line.substring("spark".length)
}
