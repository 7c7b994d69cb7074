package sparkdrill.stream.schema

import sparkdrill.errors.DrillErrors

import scala.annotation.tailrec

import java.io.IOException

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.StructType

import sparkdrill.projection.FileInfo
import sparkdrill.reader.ReaderOptions
import sparkdrill.scan.LateColumns
import sparkdrill.stream.EvolutionMode
import sparkdrill.scan.schema.{Discovery, FileSchema}

/** A stream's answer to a JSON member first met past the discovery sample, in a task (SPEC 11, "New
  * columns"): the micro-batch reading it stops before it commits. An evolving mode first writes the next
  * version to `schemaLocation` (from the task: the driver never learns why a task failed), so the restart
  * replays the same micro-batch, whose files the source logged, with the new columns; `failOnNewColumns`
  * keeps the schema.
  *
  * @param location the stream's `schemaLocation`
  * @param version the version the micro-batch reads under
  * @param options the stream's read options: the next version is [[SchemaEvolution]]'s, as at the barrier
  */
private[sparkdrill] final case class PastSampleColumns(
    location: String,
    version: SchemaVersion,
    options: ReaderOptions
) extends LateColumns {
  private def mode: EvolutionMode = EvolutionMode.of(options, definedByUser = false)

  override def stop(file: String, columns: StructType, line: Long, conf: Configuration): Nothing = {
    val names = columns.fieldNames.toSeq
    if (!mode.evolves) throw DrillErrors.streamNewColumns(file, names, mode.name, Some(line))
    val written = writeNext(file, columns, conf)
    throw DrillErrors.streamSchemaChanged(
      file,
      names,
      version.version,
      written.version,
      location,
      Some(line),
      written.added
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
    // The members as a file of their own: its partition columns are the version's already (the barrier saw
    // the file), and its JSON reader types them as discovery does.
    val found = FileSchema(FileInfo(file, Nil, 0L, 0L), columns, Discovery.Sampled)
    SchemaEvolution(options, byPosition = false).next(newest, Seq(found), file) match {
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
