package sparkdrill.spark

import java.util.Properties

import org.scalatest.funsuite.AnyFunSuite

/** The jar refuses a Spark of the other line with an error that names both and the jar to use. */
class SparkLineCheckSuite extends AnyFunSuite {
  private val built: Properties = {
    val p = new Properties()
    val in = getClass.getResourceAsStream("/sparkdrill/spark-line.properties")
    try p.load(in)
    finally in.close()
    p
  }
  private val line = built.getProperty("line")
  private val scalaBinary = built.getProperty("scalaBinary")

  test("the jar records the line it was built for, and it is the Spark these tests run on") {
    assert(Set("spark4", "spark3.5")(line))
    val running = org.apache.spark.SPARK_VERSION
    assert(running.startsWith(if (line == "spark4") "4." else "3.5."), running)
    assert(scala.util.Properties.versionNumberString.startsWith(scalaBinary + "."))
    SparkLineCheck.check(running, scala.util.Properties.versionNumberString) // no error
  }

  test("a Spark of the other line is refused, naming both lines and the jar to use") {
    val (other, otherJar) =
      if (line == "spark4") ("3.5.9", "spark-drill-spark3.5_2.12-")
      else ("4.3.0", "spark-drill-spark4_2.13-")
    val otherScala = if (line == "spark4") "2.12.18" else "2.13.16"
    val e = intercept[UnsupportedOperationException](SparkLineCheck.check(other, otherScala))
    assert(e.getMessage.contains(s"spark-drill-${line}_$scalaBinary"), e.getMessage)
    assert(e.getMessage.contains(s"this session runs Spark $other on Scala $otherScala"), e.getMessage)
    assert(e.getMessage.contains(otherJar), e.getMessage)
  }

  test("the same Spark line on another Scala is refused") {
    val otherScala = if (scalaBinary == "2.12") "2.13.16" else "2.12.18"
    val running = if (line == "spark4") "4.0.0" else "3.5.9"
    val e = intercept[UnsupportedOperationException](SparkLineCheck.check(running, otherScala))
    assert(e.getMessage.contains(s"on Scala $otherScala"), e.getMessage)
  }

  test("an unsupported Spark is told which lines are supported") {
    val e = intercept[UnsupportedOperationException](SparkLineCheck.check("3.4.1", "2.12.17"))
    assert(e.getMessage.contains("Spark 4.x (Scala 2.13) and 3.5 (Scala 2.12 or 2.13)"), e.getMessage)
  }
}
