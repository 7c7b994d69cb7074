package sparkdrill.spark

import java.time.ZoneId

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.classic
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import org.apache.spark.network.util.JavaUtils

import sparkdrill.scan.SplitPlanner

/** What the driver-side planning takes from the running session. */
private[spark] object SessionContext {

  def active: SparkSession = SparkSession.active

  /** The session's Hadoop configuration with the read options applied, as Spark's own file sources do. */
  def hadoopConf(session: SparkSession, options: CaseInsensitiveStringMap): Configuration = {
    val asGiven = options.asCaseSensitiveMap().asScala.toMap
    session match {
      case c: classic.SparkSession => c.sessionState.newHadoopConfWithOptions(asGiven)
      case other =>
        val conf = new Configuration(other.sparkContext.hadoopConfiguration)
        asGiven.foreach { case (k, v) => conf.set(k, v) }
        conf
    }
  }

  def splitSettings(session: SparkSession): SplitPlanner.Settings = {
    def bytes(key: String, default: String): Long =
      JavaUtils.byteStringAsBytes(session.conf.get(key, default))
    SplitPlanner.Settings(
      maxPartitionBytes = bytes("spark.sql.files.maxPartitionBytes", "128m"),
      openCostInBytes = bytes("spark.sql.files.openCostInBytes", "4m"),
      minPartitions = session.conf
        .getOption("spark.sql.files.minPartitionNum")
        .map(_.toInt)
        .getOrElse(session.sparkContext.defaultParallelism)
    )
  }

  def zone(session: SparkSession): ZoneId = ZoneId.of(session.conf.get("spark.sql.session.timeZone"))
}
