package sparkdrill.scan

import sparkdrill.errors.DrillErrors

import sparkdrill.reader.{OptionSpec, ReaderOptions}
import sparkdrill.reader.OptionKind._

/** How a stream meets columns its schema lacks (SPEC 11, "New columns"): option `schemaEvolutionMode`.
  *
  * @param watches the stream looks at each new file's columns before it plans a micro-batch (and stops a
  *   micro-batch at a JSON member met past the sample)
  * @param evolves a change makes a new schema version (else the query stops and the schema stays)
  * @param widens a type that widens is a change too
  */
private[sparkdrill] sealed abstract class EvolutionMode(
    val name: String,
    val watches: Boolean,
    val evolves: Boolean,
    val widens: Boolean
) extends Serializable {
  override def toString: String = name
}

private[sparkdrill] object EvolutionMode {
  case object AddNewColumns extends EvolutionMode("addNewColumns", true, true, false)
  case object AddNewColumnsWithTypeWidening
      extends EvolutionMode("addNewColumnsWithTypeWidening", true, true, true)
  case object Rescue extends EvolutionMode("rescue", false, false, false)
  case object Ignore extends EvolutionMode("none", false, false, false)
  case object FailOnNewColumns extends EvolutionMode("failOnNewColumns", true, false, false)

  val all: Seq[EvolutionMode] =
    Seq(AddNewColumns, Rescue, Ignore, FailOnNewColumns, AddNewColumnsWithTypeWidening)

  /** The mode set, else `addNewColumns` for a discovered schema and `none` for a defined one or a `project`
    * list (whose columns the user chose: others are not new to it).
    */
  def of(options: ReaderOptions, definedByUser: Boolean): EvolutionMode =
    options
      .get(StreamOptions.SchemaEvolutionMode)
      .getOrElse(if (definedByUser || options.isSet(ScanOptions.Project)) Ignore else AddNewColumns)
}

/** The options only a stream takes (SPEC 11): part of the one option table ([[ScanOptions.catalog]]), and
  * refused on a batch read. They choose files and state, never what discovery finds in a file.
  */
private[sparkdrill] object StreamOptions {
  val SchemaLocation: OptionSpec[String] = OptionSpec.optional(
    "schemaLocation",
    Text,
    "a directory (any Hadoop file system) keeping the stream's schema versions; required without .schema(...)"
  )
  val IncludeExistingFiles: OptionSpec[Boolean] = OptionSpec(
    "includeExistingFiles",
    Bool,
    true,
    "false: files already there when the stream first starts are never read (stored with the stream's state)"
  )
  val MinFileAge: OptionSpec[Long] = OptionSpec(
    "minFileAge",
    Duration,
    0L,
    "a file is held back until its modification time is this far behind the listing (30s, 5m)"
  )
  val MaxFilesPerTrigger: OptionSpec[Int] =
    OptionSpec("maxFilesPerTrigger", Int32, 1000, "at most this many files per micro-batch")
  val MaxBytesPerTrigger: OptionSpec[Long] = OptionSpec(
    "maxBytesPerTrigger",
    Size,
    10L << 30,
    "at most about this many bytes per micro-batch (at least one file); with maxFilesPerTrigger, the first reached ends it"
  )
  val IncludeColumns: OptionSpec[String] = OptionSpec.optional(
    "includeColumns",
    Text,
    "hidden columns a stream adds as ordinary ones, at the end: filename,lmt,_line"
  )
  val SchemaEvolutionMode: OptionSpec[EvolutionMode] = OptionSpec.optional(
    "schemaEvolutionMode",
    new Choice[EvolutionMode](EvolutionMode.all.map(m => m.name -> m)),
    "what a stream does with columns its schema lacks (docs/streaming.md); default addNewColumns, none with .schema(...)"
  )

  val ListChangedDirectoriesOnly: OptionSpec[Boolean] = OptionSpec(
    "listChangedDirectoriesOnly",
    Bool,
    false,
    "a trigger lists again only directories whose modification time changed (local file systems, HDFS; not a FUSE mount of an object store)"
  )

  val all: Seq[OptionSpec[_]] = Seq(
    SchemaLocation,
    IncludeExistingFiles,
    MinFileAge,
    MaxFilesPerTrigger,
    MaxBytesPerTrigger,
    IncludeColumns,
    SchemaEvolutionMode,
    ListChangedDirectoriesOnly
  )

  private lazy val streamOnly: Set[String] = all.map(_.key).toSet

  /** Options a stream refuses: none yet; a batch-only option goes here. */
  private val batchOnly: Set[String] = Set.empty

  /** Where an option applies: `both`, `batch` or `stream` (for other languages' option tables). */
  def scope(spec: OptionSpec[_]): String =
    if (streamOnly(spec.key)) "stream" else if (batchOnly(spec.key)) "batch" else "both"

  /** A batch read given streaming-only options, or a stream given batch-only ones: an error naming them. */
  def checkScope(options: ReaderOptions, streaming: Boolean): Unit = {
    val wrong = if (streaming) batchOnly else streamOnly
    val named = ScanOptions.catalog.options.filter(s => wrong(s.key) && options.isSet(s)).map(_.name)
    if (named.nonEmpty) throw DrillErrors.optionsOfTheOtherRead(named, streaming)
  }
}
