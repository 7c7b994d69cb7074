package sparkdrill.stream.schema

import java.util.Locale

import org.apache.spark.sql.types.StructType

import sparkdrill.projection.Projection
import sparkdrill.reader.ReaderOptions
import sparkdrill.scan.{Discovered, ScanOptions, TableScan}
import sparkdrill.stream.EvolutionMode
import sparkdrill.scan.schema.{EarlierColumns, FileSchema, ScanConfig, ScanSchemaTracker}

/** The one way a stream's schema grows (SPEC 11, "One schema, batch or stream"): the scan schema tracker's
  * resolution of the version so far (leading, its columns keeping their types; under type widening, joined
  * as another file's would be) with the reader schemas of files that version has not seen, diffed against
  * the version. The driver's barrier and a task's past-sample finding both call it, so every option that
  * shapes batch discovery (map inference, widening, partition styles, a provided schema, names that differ
  * only in case) shapes a stream's versions the same way.
  *
  * @param options the stream's read options (its `schemaEvolutionMode` among them)
  * @param byPosition the files bind fields by position (headerless text), as the tracker is told in batch
  */
private[sparkdrill] final case class SchemaEvolution(options: ReaderOptions, byPosition: Boolean) {
  private val mode = EvolutionMode.of(options, definedByUser = false)

  // A `project` list names the stream's columns; what files bring beyond it is seen against `*`.
  private val config = ScanConfig.fromOptions(options.without(ScanOptions.Project), byPosition = byPosition)

  /** The version after `version` for `files` (in any order: the tracker takes them in path order), None when
    * they bring nothing it lacks: new columns (data, a hive key, a deeper `dirN`) appended in the tracker's
    * order, and under type widening the wider types of existing columns.
    *
    * @param cause the file that brought the change (the first in admission order), for the version's record
    */
  def next(version: SchemaVersion, files: Seq[FileSchema], cause: String): Option[SchemaVersion] = {
    // Headerless text without a schema: the one `columns` array binds by position, nothing leads.
    val earlier =
      if (version.columnsArray) None
      else
        Some(EarlierColumns(version.dataSchema, frozen = !mode.widens, s"schema version ${version.version}"))
    val resolved = ScanSchemaTracker.resolve(config.copy(earlier = earlier), Projection.wildcard, files)
    val known = version.schema.fields.map(f => lower(f.name) -> f).toMap
    val widened = resolved.output.flatMap { c =>
      known.get(lower(c.name)).filter(_.dataType != c.field.dataType).map(_.copy(dataType = c.field.dataType))
    }
    val added = resolved.output.filterNot(c => known.contains(lower(c.name)))
    if (added.isEmpty && widened.isEmpty) None
    else {
      val wider = widened.map(f => lower(f.name) -> f).toMap
      val kept = version.schema.fields.map(f => wider.getOrElse(lower(f.name), f))
      Some(
        SchemaVersion(
          version = version.version + 1,
          schema = StructType(kept ++ added.map(_.field)),
          perFileColumns = version.perFileColumns ++ added.filter(_.isPerFile).map(_.name),
          columnsArray = version.columnsArray,
          inputPath = version.inputPath,
          fingerprint = ScanOptions.discoveryFingerprint(options),
          cause = Some(cause),
          added = added.map(_.name) ++ widened.map(f => s"${f.name} (widened)"),
          writtenAtMillis = System.currentTimeMillis(),
          byPosition = version.byPosition
        )
      )
    }
  }

  /** The tracker's input for discovered files, as the planner makes it. */
  def fileSchemas(found: Discovered): IndexedSeq[FileSchema] = TableScan.forTracker(found, options, config)

  /** What `file` alone brings that `version` lacks: the names of [[next]]'s additions, empty when nothing. */
  def brings(version: SchemaVersion, file: FileSchema): Seq[String] =
    next(version, Seq(file), file.path).map(_.added).getOrElse(Nil)

  private def lower(s: String): String = s.toLowerCase(Locale.ROOT)
}
