package sparkdrill.spark.python

import java.util.{Collections, WeakHashMap}

import org.apache.spark.sql.SparkSession

import sparkdrill.projection.ColumnParser

/** The column parsers registered for each Spark session (driver only). Tables opened in a session ask its
  * parsers, in the order they were registered; a table keeps the parsers it was opened with.
  */
private[sparkdrill] object ColumnParserRegistry {
  // Weak keys: a stopped, unreferenced session takes its parsers with it.
  private val bySession =
    Collections.synchronizedMap(new WeakHashMap[SparkSession, Vector[ColumnParser]]())

  /** Called from Python (`spark_drill.register_column_parser`) with a Py4J proxy and the longest a call to
    * it may take (0: no limit).
    */
  def register(session: SparkSession, parser: PythonColumnParser, timeoutMillis: Long): Unit =
    add(
      session,
      new PythonParserAdapter(parser, session.conf.get("spark.sql.session.timeZone"), timeoutMillis)
    )

  /** Registers a JVM parser (Scala code and tests). */
  def add(session: SparkSession, parser: ColumnParser): Unit = bySession.synchronized {
    val current = Option(bySession.get(session)).getOrElse(Vector.empty)
    bySession.put(session, current.filterNot(_.id == parser.id) :+ parser)
  }

  def clear(session: SparkSession): Unit = bySession.remove(session)

  def forSession(session: SparkSession): Seq[ColumnParser] =
    Option(bySession.get(session)).getOrElse(Vector.empty)
}
