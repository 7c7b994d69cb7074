package sparkdrill

import org.apache.spark.sql.SparkSession
import org.scalatest.{BeforeAndAfterAll, Suite}

/** A real local Spark for one suite: two threads, no UI, two shuffle partitions, UTC; a suite adds settings
  * with `sparkConf`. Started before the suite's first test and stopped after its last.
  */
trait LocalSpark extends BeforeAndAfterAll { self: Suite =>
  protected var spark: SparkSession = _

  /** Settings beyond the defaults (a plugin jar, another time zone). */
  protected def sparkConf: Map[String, String] = Map.empty

  override def beforeAll(): Unit = {
    super.beforeAll()
    val defaults = Map(
      "spark.ui.enabled" -> "false",
      "spark.sql.shuffle.partitions" -> "2",
      "spark.sql.session.timeZone" -> "UTC"
    )
    spark = (defaults ++ sparkConf)
      .foldLeft(SparkSession.builder().master("local[2]")) { case (b, (k, v)) => b.config(k, v) }
      .getOrCreate()
  }

  override def afterAll(): Unit =
    try if (spark != null) spark.stop()
    finally super.afterAll()
}
