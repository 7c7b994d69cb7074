package sparkdrill.spark

import java.time.ZoneId

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import org.apache.spark.network.util.JavaUtils

import sparkdrill.scan.SplitPlanner

/** What the driver-side planning takes from the running session. */
private[spark] object SessionContext {

  def active: SparkSession = SparkSession.active

  /** The session's Hadoop configuration with the read options applied, as Spark's own file sources do. */
  def hadoopConf(session: SparkSession, options: CaseInsensitiveStringMap): Configuration =
    SessionShim.hadoopConf(session, options.asCaseSensitiveMap().asScala.toMap)

  def splitSettings(session: SparkSession): SplitPlanner.Settings = {
    def bytes(key: String, default: String): Long =
      JavaUtils.byteStringAsBytes(session.conf.get(key, default))
    // Spark's 4 MB estimate of a file's open cost packs 32 two-line files into a task: 100,000 such files
    // were 3,125 tasks, and task overhead was most of a count(*) (11.4 s; 4.7 s at 256 KiB). Spark's setting
    // still wins when set in the session; spark.drill.files.openCostInBytes wins over both.
    val spark = SessionShim.explicitly(session, "spark.sql.files.openCostInBytes")
    SplitPlanner.Settings(
      maxPartitionBytes = bytes("spark.sql.files.maxPartitionBytes", "128m"),
      openCostInBytes = JavaUtils.byteStringAsBytes(
        session.conf.getOption(OpenCostKey).orElse(spark).getOrElse(DefaultOpenCost)
      ),
      minPartitions = session.conf
        .getOption("spark.sql.files.minPartitionNum")
        .map(_.toInt)
        .getOrElse(session.sparkContext.defaultParallelism)
    )
  }

  val OpenCostKey = "spark.drill.files.openCostInBytes"
  val DefaultOpenCost = "256k"

  def zone(session: SparkSession): ZoneId = ZoneId.of(session.conf.get("spark.sql.session.timeZone"))
}
