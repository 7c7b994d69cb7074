package sparkdrill.spark

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession

/** Spark 3.5: the session is one concrete class whose session state is public. The Spark 4 shim has the
  * same members.
  */
private[spark] object SessionShim {

  /** The session's Hadoop configuration with `options` applied, as Spark's own file sources build it. */
  def hadoopConf(session: SparkSession, options: Map[String, String]): Configuration =
    session.sessionState.newHadoopConfWithOptions(options)

  /** A setting the session was given (not a default). */
  def explicitly(session: SparkSession, key: String): Option[String] =
    if (session.sessionState.conf.contains(key)) Some(session.conf.get(key)) else None
}
