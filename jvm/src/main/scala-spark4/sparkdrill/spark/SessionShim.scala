package sparkdrill.spark

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.{classic, SparkSession}

/** Spark 4: the session state lives on the classic session (org.apache.spark.sql.classic, 4.0+); a Connect
  * session on the server is classic too. The Spark 3.5 shim has the same members.
  */
private[spark] object SessionShim {

  /** The session's Hadoop configuration with `options` applied, as Spark's own file sources build it. */
  def hadoopConf(session: SparkSession, options: Map[String, String]): Configuration = session match {
    case c: classic.SparkSession => c.sessionState.newHadoopConfWithOptions(options)
    case other =>
      val conf = new Configuration(other.sparkContext.hadoopConfiguration)
      options.foreach { case (k, v) => conf.set(k, v) }
      conf
  }

  /** A setting the session was given (not a default). */
  def explicitly(session: SparkSession, key: String): Option[String] = session match {
    case c: classic.SparkSession if c.sessionState.conf.contains(key) => Some(c.conf.get(key))
    case _ => None
  }
}
