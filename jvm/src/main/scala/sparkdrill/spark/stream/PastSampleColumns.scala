package sparkdrill.spark.stream

import scala.annotation.tailrec

import java.io.IOException

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.StructType

import sparkdrill.scan.LateColumns

/** A stream's answer to a JSON member first met past the discovery sample, in a task (SPEC 11, "New
  * columns"): the micro-batch reading it stops before it commits. An evolving mode first writes the next
  * version to `schemaLocation` (from the task: the driver never learns why a task failed), so the restart
  * replays the same micro-batch, whose files the source logged, with the new columns; `failOnNewColumns`
  * keeps the schema.
  *
  * @param location the stream's `schemaLocation`
  * @param version the version the micro-batch reads under
  */
private[sparkdrill] final case class PastSampleColumns(
    location: String,
    version: SchemaVersion,
    mode: String,
    fingerprint: String
) extends LateColumns {

  override def stop(file: String, columns: StructType, line: Long, conf: Configuration): Nothing = {
    val names = columns.fieldNames.mkString(", ")
    val where =
      s"$file has, at line $line (past the discovery sample), columns the stream's schema lacks: $names"
    if (!EvolutionMode.evolves(mode))
      throw new StreamSchemaException(
        StreamSchemaException.NewColumns,
        s"$where. schemaEvolutionMode=$mode stops here and keeps the schema: give a schema that has them " +
          "(.schema(...), or a new version in schemaLocation), then restart"
      )
    val written = writeNext(file, columns, conf)
    throw new StreamSchemaException(
      StreamSchemaException.Changed,
      s"the stream's schema changed: $where. Version ${written.version} (adding ${written.added.mkString(", ")})" +
        s" is in schemaLocation $location, after version ${version.version}. Build the DataFrame again and " +
        "restart the query from the same checkpoint (sd.run_stream does both): the micro-batch that read it is " +
        "read again, with the new columns"
    )
  }

  // Tasks of one micro-batch (and a task's retries) may meet new members at once: each appends what the
  // newest version lacks, and one that finds its number taken looks again. Bounded: a version only grows.
  @tailrec
  private def writeNext(
      file: String,
      columns: StructType,
      conf: Configuration,
      attempt: Int = 0
  ): SchemaVersion = {
    val newest = SchemaVersions.newest(location, conf).filter(_.version > version.version).getOrElse(version)
    SchemaChanges.withColumns(newest, columns, file, fingerprint) match {
      case None => newest // another task (or an earlier attempt of this one) wrote them
      case Some(next) =>
        val written =
          try { SchemaVersions.write(location, next, conf); true }
          catch { case _: IOException if attempt < PastSampleColumns.Attempts => false } // taken: look again
        if (written) next else writeNext(file, columns, conf, attempt + 1)
    }
  }
}

private[sparkdrill] object PastSampleColumns {
  private val Attempts = 20
}
