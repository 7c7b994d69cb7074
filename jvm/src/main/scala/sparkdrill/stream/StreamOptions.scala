package sparkdrill.stream

import sparkdrill.errors.DrillErrors

import sparkdrill.reader.{OptionSpec, ReaderOptions}
import sparkdrill.reader.OptionKind._
import sparkdrill.scan.ScanOptions

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

/** The options only a stream takes (SPEC 11), declared here where the stream engine reads them: the adapter
  * parses every read against the scan's option table and these ([[sparkdrill.scan.TableScan.parseOptions]]'s
  * `also`), and a batch read given one is refused. They choose files and state, never what discovery finds
  * in a file, so they stay out of discovery's fingerprint.
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

  val FileEvents: OptionSpec[String] = OptionSpec(
    "fileEvents",
    new Choice[String](Seq("off" -> "off", "sqs" -> "sqs")),
    "off",
    "sqs: after one listing at the first start, new files come from S3 event notifications read from queueUrl (docs/object-stores.md)"
  )
  val QueueUrl: OptionSpec[String] = OptionSpec.optional(
    "queueUrl",
    Text,
    "the SQS queue S3 sends the input bucket's object-created events to (with fileEvents=sqs)"
  )
  val QueueRegion: OptionSpec[String] = OptionSpec.optional(
    "queueRegion",
    Text,
    "the queue's region, if neither its URL nor fs.s3a.endpoint.region says it"
  )
  val QueueEndpoint: OptionSpec[String] = OptionSpec.optional(
    "queueEndpoint",
    Text,
    "the endpoint SQS is reached at, if not the queue URL's own host (a VPC endpoint)"
  )
  val QueueVisibilityTimeout: OptionSpec[Long] = OptionSpec(
    "queueVisibilityTimeout",
    Duration,
    300000L,
    "how long a received event stays hidden from other receivers while its file waits (renewed at half); after a crash, its file is read once this has passed"
  )
  val BackfillInterval: OptionSpec[Long] = OptionSpec.optional(
    "backfillInterval",
    Duration,
    "with fileEvents: list the whole input this often and read what no event announced (1d, 6h); default never"
  )
  val AllowOverwrites: OptionSpec[Boolean] = OptionSpec(
    "allowOverwrites",
    Bool,
    false,
    "a file whose length or modification time changed after it was read is read again, as a new version"
  )
  // SPEC 11.1, "cleanSource": what becomes of a file once its micro-batch committed (CleanSource).
  val CleanSource: OptionSpec[CleanMode] = OptionSpec(
    "cleanSource",
    new Choice[CleanMode](CleanMode.all.map(m => m.name -> m)),
    CleanMode.Off,
    "off, archive (move under cleanSourceArchiveDir) or delete a file cleanSourceRetention after its micro-batch committed"
  )
  val CleanSourceArchiveDir: OptionSpec[String] = OptionSpec.optional(
    "cleanSourceArchiveDir",
    Text,
    "where cleanSource=archive moves read files, keeping their path under the input (any Hadoop file system; not under the input)"
  )
  val CleanSourceRetention: OptionSpec[Long] = OptionSpec(
    "cleanSourceRetention",
    Duration,
    30L * 86400000L,
    "how long after its micro-batch committed a file is archived or deleted (7d, 12h)"
  )

  val all: Seq[OptionSpec[_]] = Seq(
    SchemaLocation,
    IncludeExistingFiles,
    MinFileAge,
    MaxFilesPerTrigger,
    MaxBytesPerTrigger,
    IncludeColumns,
    SchemaEvolutionMode,
    ListChangedDirectoriesOnly,
    FileEvents,
    QueueUrl,
    QueueRegion,
    QueueEndpoint,
    QueueVisibilityTimeout,
    BackfillInterval,
    AllowOverwrites,
    CleanSource,
    CleanSourceArchiveDir,
    CleanSourceRetention
  )

  private lazy val streamOnly: Set[String] = all.map(_.key).toSet

  /** Options a stream refuses: none yet; a batch-only option goes here. */
  private val batchOnly: Set[String] = Set.empty

  /** Where an option applies: `both`, `batch` or `stream` (for other languages' option tables). */
  def scope(spec: OptionSpec[_]): String =
    if (streamOnly(spec.key)) "stream" else if (batchOnly(spec.key)) "batch" else "both"

  /** The streaming-only options set in `options`, by name: any of them makes a read a stream's (SPEC 11). */
  def named(options: ReaderOptions): Seq[String] = all.filter(options.isSet).map(_.name)

  /** A batch read given streaming-only options, or a stream given batch-only ones: an error naming them. */
  def checkScope(options: ReaderOptions, streaming: Boolean): Unit = {
    val wrong = if (streaming) ScanOptions.catalog.options.filter(s => batchOnly(s.key)) else all
    val named = wrong.filter(options.isSet).map(_.name)
    if (named.nonEmpty) throw DrillErrors.optionsOfTheOtherRead(named, streaming)
  }
}

/** A stream's own options, typed, one field each: what the engine reads, parsed once when the stream is
  * defined.
  *
  * @param evolutionMode `schemaEvolutionMode`, or its default for the stream ([[EvolutionMode.of]])
  * @param includeColumns the hidden columns to add as ordinary ones, by label as given
  */
private[sparkdrill] final case class StreamSettings(
    schemaLocation: Option[String],
    includeExistingFiles: Boolean,
    minFileAgeMillis: Long,
    maxFilesPerTrigger: Int,
    maxBytesPerTrigger: Long,
    includeColumns: Seq[String],
    evolutionMode: EvolutionMode,
    listChangedDirectoriesOnly: Boolean,
    fileEvents: Option[QueueSettings],
    backfillIntervalMillis: Option[Long],
    allowOverwrites: Boolean,
    clean: CleanSettings = CleanSettings.Off
)

private[sparkdrill] object QueueSettings {

  /** A queue URL's parts, checked when the stream is defined: a scheme, a host and the queue's path. */
  def uri(url: String): java.net.URI = {
    val parsed =
      try new java.net.URI(url)
      catch { case e: java.net.URISyntaxException => throw DrillErrors.badQueueUrl(url, e.getReason) }
    if (
      parsed.getScheme == null || parsed.getHost == null || parsed.getPath == null || parsed.getPath.length < 2
    )
      throw DrillErrors.badQueueUrl(url, "it needs a scheme, a host and the queue's path")
    parsed
  }
}

/** Where a stream's file events come from (`fileEvents=sqs`). */
private[sparkdrill] final case class QueueSettings(
    url: String,
    region: Option[String],
    endpoint: Option[String],
    visibilitySeconds: Int
)

/** `cleanSource` and its two companions, typed: `archiveDir` is set exactly when the mode is `archive`. */
private[sparkdrill] final case class CleanSettings(
    mode: CleanMode,
    archiveDir: Option[String],
    retentionMillis: Long
)

private[sparkdrill] object CleanSettings {
  val Off: CleanSettings = CleanSettings(CleanMode.Off, None, StreamOptions.CleanSourceRetention.default.get)

  def of(options: ReaderOptions): CleanSettings = {
    val mode = options(StreamOptions.CleanSource)
    val dir = options.get(StreamOptions.CleanSourceArchiveDir).map(_.trim).filter(_.nonEmpty)
    if (mode == CleanMode.Archive && dir.isEmpty) throw DrillErrors.streamNeedsArchiveDir()
    CleanSettings(
      mode,
      if (mode == CleanMode.Archive) dir else None,
      options(StreamOptions.CleanSourceRetention)
    )
  }
}

/** What `cleanSource` does with a file whose micro-batch committed (SPEC 11.1); `name` is also how the state
  * and `drill-state`'s `archive_mode` spell it.
  */
private[sparkdrill] sealed abstract class CleanMode(val name: String) extends Serializable {
  override def toString: String = name
}

private[sparkdrill] object CleanMode {
  case object Off extends CleanMode("off")
  case object Archive extends CleanMode("archive")
  case object Delete extends CleanMode("delete")

  val all: Seq[CleanMode] = Seq(Off, Archive, Delete)
}

private[sparkdrill] object StreamSettings {
  import StreamOptions._

  /** The stream options of `options`, checked (`maxFilesPerTrigger` at least 1). */
  def of(options: ReaderOptions, definedByUser: Boolean): StreamSettings = {
    val settings = StreamSettings(
      schemaLocation = options.get(SchemaLocation),
      includeExistingFiles = options(IncludeExistingFiles),
      minFileAgeMillis = options(MinFileAge),
      maxFilesPerTrigger = options(MaxFilesPerTrigger),
      maxBytesPerTrigger = options(MaxBytesPerTrigger),
      includeColumns = options.get(IncludeColumns).toSeq.flatMap(_.split(',')).map(_.trim).filter(_.nonEmpty),
      evolutionMode = EvolutionMode.of(options, definedByUser),
      listChangedDirectoriesOnly = options(ListChangedDirectoriesOnly),
      fileEvents = options(FileEvents) match {
        case "off" =>
          val needEvents =
            Seq(QueueUrl, QueueRegion, QueueEndpoint, QueueVisibilityTimeout, BackfillInterval).filter(
              options.isSet
            )
          if (needEvents.nonEmpty) throw DrillErrors.optionNeedsFileEvents(needEvents.map(_.name))
          None
        case _ =>
          val url = options.get(QueueUrl).getOrElse(throw DrillErrors.fileEventsNeedQueueUrl())
          QueueSettings.uri(url)
          val visibility = options(QueueVisibilityTimeout)
          if (visibility < 1000L || visibility > 12L * 3600 * 1000)
            throw DrillErrors.badQueueVisibilityTimeout(visibility)
          Some(
            QueueSettings(
              url,
              options.get(QueueRegion),
              options.get(QueueEndpoint),
              (visibility / 1000).toInt
            )
          )
      },
      backfillIntervalMillis = options.get(BackfillInterval),
      allowOverwrites = options(AllowOverwrites),
      clean = CleanSettings.of(options)
    )
    if (settings.maxFilesPerTrigger < 1) throw DrillErrors.badMaxFilesPerTrigger(settings.maxFilesPerTrigger)
    settings.backfillIntervalMillis.filter(_ <= 0).foreach(ms => throw DrillErrors.badBackfillInterval(ms))
    settings
  }
}
