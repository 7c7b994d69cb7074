package sparkdrill.spark.stream

import java.util.Locale

import org.apache.spark.sql.types.{StringType, StructField, StructType}

import sparkdrill.reader.{ReaderOptions, TypeLattice}
import sparkdrill.scan.{ScanFile, ScanOptions, StreamOptions}
import sparkdrill.scan.schema.PartitionStyle

/** How a stream meets columns its schema lacks (SPEC 11, "New columns"): `schemaEvolutionMode`. */
private[sparkdrill] object EvolutionMode {
  val AddNewColumns = "addNewColumns"
  val Rescue = "rescue"
  val None = "none"
  val FailOnNewColumns = "failOnNewColumns"
  val WithTypeWidening = "addNewColumnsWithTypeWidening"

  /** The mode set, else `addNewColumns` for a discovered schema and `none` for a defined one or a `project`
    * list (whose columns the user chose: others are not new to it).
    */
  def of(options: ReaderOptions, definedByUser: Boolean): String =
    options
      .get(StreamOptions.SchemaEvolutionMode)
      .getOrElse(if (definedByUser || options.isSet(ScanOptions.Project)) None else AddNewColumns)

  /** Whether the stream looks at each new file's columns before it plans a micro-batch. */
  def watches(mode: String): Boolean =
    mode == AddNewColumns || mode == FailOnNewColumns || mode == WithTypeWidening

  /** Whether a change makes a new schema version (else the query stops and the schema stays). */
  def evolves(mode: String): Boolean = mode == AddNewColumns || mode == WithTypeWidening
}

/** What one file brings that a schema version lacks: data columns (with their discovered types), per-file
  * columns (a hive key, a deeper `dirN`), and, under type widening, columns whose type widens.
  */
private[sparkdrill] final case class FileChange(
    file: ScanFile,
    newColumns: Seq[StructField],
    newPerFile: Seq[String],
    widened: Seq[StructField]
) {
  def names: Seq[String] =
    newColumns.map(_.name) ++ newPerFile ++ widened.map(f => s"${f.name} (now ${f.dataType.simpleString})")
}

/** Compares new files with the stream's schema version, and makes the next version. Pure. */
private[sparkdrill] object SchemaChanges {
  private def lower(s: String): String = s.toLowerCase(Locale.ROOT)

  /** What `file` (its discovered reader schema `schema`) brings that `version` lacks, if anything. */
  def of(
      version: SchemaVersion,
      file: ScanFile,
      schema: StructType,
      options: ReaderOptions,
      widening: Boolean
  ): Option[FileChange] = {
    val known = version.schema.fields.map(f => lower(f.name) -> f).toMap
    // Headerless text without a schema: the one `columns` array holds every field, nothing to add.
    val data = if (version.columnsArray) Seq.empty[StructField] else schema.fields.toSeq
    val added = data.filterNot(f => known.contains(lower(f.name)))
    val widened =
      if (!widening) Nil
      else
        data.flatMap { f =>
          known.get(lower(f.name)).flatMap { old =>
            val wider = TypeLattice.widen(old.dataType, f.dataType)
            if (wider == old.dataType) scala.None else Some(old.copy(dataType = wider))
          }
        }
    val perFile = newPartitions(version, file, options).filterNot(n => known.contains(lower(n)))
    if (added.isEmpty && perFile.isEmpty && widened.isEmpty) scala.None
    else Some(FileChange(file, added, perFile, widened))
  }

  // The per-file columns a file's directories give that `*` would show: dirN up to its depth, or hive keys.
  private def newPartitions(version: SchemaVersion, file: ScanFile, options: ReaderOptions): Seq[String] =
    if (!options(ScanOptions.PartitionColumns) || version.definedByUser) Nil
    else if (options(ScanOptions.PartitionStyle) == PartitionStyle.Hive)
      file.dirs.toSeq.flatMap { d =>
        val eq = d.indexOf('=')
        if (eq > 0) Some(d.substring(0, eq)) else scala.None
      }
    else file.dirs.indices.map(i => s"${options(ScanOptions.PartitionLabel)}$i")

  /** The version after `version` with `columns` (met past discovery in `cause`) appended, those it lacks,
    * typed as discovery types them (a column seen only as null is a string); None when it has them all.
    */
  def withColumns(
      version: SchemaVersion,
      columns: StructType,
      cause: String,
      fingerprint: String
  ): Option[SchemaVersion] = {
    val known = version.schema.fieldNames.map(lower).toSet
    val added = columns.fields.toSeq
      .filterNot(f => known(lower(f.name)))
      .map(f => StructField(f.name, TypeLattice.toType(TypeLattice.of(f.dataType)), nullable = true))
    if (added.isEmpty) scala.None
    else
      Some(
        SchemaVersion(
          version = version.version + 1,
          schema = StructType(version.schema.fields ++ added),
          perFileColumns = version.perFileColumns,
          columnsArray = version.columnsArray,
          inputPath = version.inputPath,
          fingerprint = fingerprint,
          cause = Some(cause),
          added = added.map(_.name),
          writtenAtMillis = System.currentTimeMillis()
        )
      )
  }

  /** The version after `version` for `changes` (in admission order): existing columns keep their place and
    * type (or take the widened one), new data and per-file columns follow in first-seen order, each new data
    * column typed by the union of the types the files gave it.
    */
  def next(version: SchemaVersion, changes: Seq[FileChange], fingerprint: String): SchemaVersion = {
    val widened = changes.flatMap(_.widened).groupBy(f => lower(f.name)).map { case (k, fs) =>
      k -> fs.map(_.dataType).reduce((a, b) => TypeLattice.widen(a, b))
    }
    val kept = version.schema.fields.toSeq.map { f =>
      widened.get(lower(f.name)).fold(f)(t => f.copy(dataType = TypeLattice.widen(f.dataType, t)))
    }
    val newData = changes.flatMap(_.newColumns)
    val dataOrder = sparkdrill.scan.Distinct.by(newData.map(_.name))(lower)
    val data = dataOrder.map { name =>
      val types = newData.filter(f => lower(f.name) == lower(name)).map(_.dataType)
      StructField(name, types.reduce((a, b) => TypeLattice.widen(a, b)), nullable = true)
    }
    val perFile = sparkdrill.scan.Distinct
      .by(changes.flatMap(_.newPerFile))(lower)
      .filterNot(n => data.exists(f => lower(f.name) == lower(n)))
      .map(StructField(_, StringType, nullable = true))
    SchemaVersion(
      version = version.version + 1,
      schema = StructType(kept ++ data ++ perFile),
      perFileColumns = version.perFileColumns ++ perFile.map(_.name),
      columnsArray = version.columnsArray,
      inputPath = version.inputPath,
      fingerprint = fingerprint,
      cause = Some(changes.head.file.displayPath),
      added = data.map(_.name) ++ perFile.map(_.name) ++ widened.keys.toSeq.sorted.map(k => s"$k (widened)"),
      writtenAtMillis = System.currentTimeMillis()
    )
  }
}
