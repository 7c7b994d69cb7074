package sparkdrill.stream

import sparkdrill.errors.DrillErrors

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.spark.sql.types.{StructField, StructType}

import sparkdrill.reader.{CommonOptions, ReaderOptions}
import sparkdrill.scan.{Discovered, FileLister, QueryPlan, ScanFile, ScanOptions, TableScan}
import sparkdrill.scan.schema.ScanConfig
import sparkdrill.stream.schema._

/** A stream as `load()` fixed it (SPEC 11, "Schema"): its one input path, its options, the schema version it
  * reads under and the hidden columns `includeColumns` adds. Every micro-batch is planned from it.
  *
  * @param root the directory the input's files are listed from, qualified (state paths are relative to it)
  * @param version the schema: the user's (`.schema(...)`, version -1) or one stored in `schemaLocation`
  * @param include the hidden columns added as ordinary ones, at the end
  * @param positional whether the input's files bind fields by position (headerless text): kept in the
  *   stored version, else found from the files there when first asked ([[byPosition]])
  */
private[sparkdrill] final case class StreamDefinition(
    path: String,
    root: String,
    options: ReaderOptions,
    version: SchemaVersion,
    include: Seq[StructField],
    conf: Configuration,
    positional: () => Boolean
) {

  /** Whether the input's files bind fields by position. Only a stream that watches for new columns asks:
    * one under a defined schema that never does lists nothing for it (its input may be large, or empty).
    */
  lazy val byPosition: Boolean = positional()

  /** The stream's columns, as its DataFrame has them. */
  val schema: StructType = StructType(version.schema.fields ++ include)

  def definedByUser: Boolean = version.definedByUser

  /** The stream's own options, typed. */
  val settings: StreamSettings = StreamSettings.of(options, definedByUser)

  /** How this stream's schema grows: the tracker's, under this stream's options. */
  def evolution: SchemaEvolution = SchemaEvolution(options, byPosition)

  // What a micro-batch is read under: the version's data columns as a defined schema (types are frozen;
  // columns the schema lacks are dropped and counted, or rescued). Headerless text without a schema has the
  // one `columns` array: nothing to freeze, and a defined schema would bind its fields by position.
  private def defined: Option[StructType] = if (version.columnsArray) None else Some(version.dataSchema)

  private val readOptions = options.without(ScanOptions.Project)

  /** Plans a micro-batch's files against this schema: their reader schemas (discovered when the batch was
    * admitted, or now after a restart), resolved under [[defined]], then a plan of `required` (the stream's
    * columns, or fewer if Spark ever pushes a projection into a stream).
    */
  def plan(discovered: Discovered, required: StructType, session: StreamSession): (QueryPlan, TableScan) = {
    val scan = table(discovered, session)
    (scan.plan(required, Nil, Long.MaxValue, session.splits()), scan)
  }

  /** The reader schemas of files, through the discovery caches, as the plan reads them. */
  def discover(files: IndexedSeq[ScanFile], session: StreamSession): Discovered =
    TableScan.discover(files, readOptions, conf, session.discoverAll)

  private def table(discovered: Discovered, session: StreamSession): TableScan =
    TableScan.fromFiles(
      Seq(path),
      discovered.files,
      readOptions,
      defined,
      conf,
      session.discoverAll,
      session.parsers(),
      discovered = Some(discovered)
    )
}

private[sparkdrill] object StreamDefinition {

  /** What `spark.readStream.format("drill")...load(path)` builds: the schema from `.schema(...)`, else the
    * newest version in `schemaLocation`, else discovery of the files there now, stored as version 0.
    *
    * @param definedPerFile the names in `defined` that are per-file values (a catalog table's `dir0`)
    */
  def load(
      paths: Seq[String],
      readOptions: ReaderOptions,
      defined: Option[StructType],
      conf: Configuration,
      session: StreamSession,
      definedPerFile: Seq[String] = Nil
  ): StreamDefinition = {
    StreamOptions.checkScope(readOptions, streaming = true)
    if (paths.size != 1)
      throw DrillErrors.streamOnePath(paths)
    val path = paths.head
    val parsed = withEvolutionMode(readOptions, defined.isDefined)
    val settings = StreamSettings.of(parsed, defined.isDefined)
    val root = FileLister.rootOf(path, conf).toString
    val location = settings.schemaLocation
    // The files there now: version 0's discovery, and whether they bind fields by position.
    lazy val present = {
      val all =
        TableScan.list(Seq(path), parsed.updated(ScanOptions.IgnoreMissingFiles, true), conf, session.zone)
      StreamFiles.eligible(all, location.map(new Path(_)).toSeq, conf)
    }
    val version = defined match {
      case Some(schema) => userVersion(schema, definedPerFile, root)
      case None =>
        val dir = location.getOrElse(
          throw DrillErrors.streamNeedsSchemaLocation()
        )
        SchemaVersions.newest(dir, conf) match {
          case Some(v) =>
            if (v.inputPath != root)
              throw DrillErrors.schemaLocationOfAnotherPath(dir, v.inputPath, root)
            v
          case None =>
            val v = discovered(path, root, present, parsed, conf, session, dir)
            SchemaVersions.write(dir, v, conf)
            v
        }
    }
    // Kept in the version since version 0: a restart need not list the input to know it.
    val byPosition = version.byPosition match {
      case Some(kept) => () => kept
      case None => () => positional(version, present, parsed)
    }
    val include = includeColumns(settings.includeColumns, parsed, version, defined)
    StreamDefinition(path, root, parsed, version, include, conf, byPosition)
  }

  // Whether the input's files bind fields by position: the files there now decide, as for a batch read of
  // them (a JSON input's `.csv`-less directory is not positional though headerless CSV would be).
  private def positional(
      version: SchemaVersion,
      present: IndexedSeq[ScanFile],
      options: ReaderOptions
  ): Boolean =
    if (version.columnsArray) true
    else if (options.get(ScanOptions.Format).isDefined || present.isEmpty) TableScan.bindsByPosition(options)
    else TableScan.bindsByPosition(present, options)

  // `rescue` keeps unknown columns in the rescued-data column, which the schema then has (SPEC 11). A defined
  // schema is the user's: the stream cannot write new versions of it.
  private def withEvolutionMode(options: ReaderOptions, defined: Boolean): ReaderOptions =
    EvolutionMode.of(options, defined) match {
      case EvolutionMode.Rescue if !options.isSet(CommonOptions.RescuedDataColumn) =>
        options.updated(CommonOptions.RescuedDataColumn, "_rescued_data")
      case mode if options.isSet(ScanOptions.Project) && mode.evolves =>
        throw DrillErrors.streamEvolvesProjection(mode.name)
      case mode if defined && mode.evolves =>
        throw DrillErrors.streamEvolvesDefinedSchema(mode.name)
      case _ => options
    }

  private def userVersion(schema: StructType, perFile: Seq[String], root: String): SchemaVersion =
    SchemaVersion(-1, schema, perFile, columnsArray = false, root, "", None, Nil, System.currentTimeMillis())

  // Version 0: what a batch read of the files there now would give as `*`.
  private def discovered(
      path: String,
      root: String,
      listed: IndexedSeq[ScanFile],
      options: ReaderOptions,
      conf: Configuration,
      session: StreamSession,
      location: String
  ): SchemaVersion = {
    if (listed.isEmpty)
      throw DrillErrors.streamNoFiles(path, location)
    val table =
      TableScan.fromFiles(Seq(path), listed, options, None, conf, session.discoverAll, session.parsers())
    val perFile = table.resolved.output.filter(_.isPerFile).map(_.name)
    val v0 = SchemaVersion(
      version = 0,
      schema = table.schema,
      perFileColumns = perFile,
      columnsArray = table.columnsArray,
      inputPath = root,
      fingerprint = ScanOptions.discoveryFingerprint(options),
      cause = None,
      added = table.schema.fieldNames.toSeq,
      writtenAtMillis = System.currentTimeMillis()
    )
    v0.copy(byPosition = Some(positional(v0, listed, options)))
  }

  // `includeColumns`: file columns (SPEC 3) and `_line`/`_offset`, by their labels, as ordinary columns.
  private def includeColumns(
      names: Seq[String],
      options: ReaderOptions,
      version: SchemaVersion,
      defined: Option[StructType]
  ): Seq[StructField] = {
    val labels = ScanConfig.fromOptions(options, defined, Nil, byPosition = false).implicitLabels
    names.map { name =>
      val kind = labels
        .kindOf(name)
        .getOrElse(
          throw DrillErrors.includeColumnsNotHidden(name, labels.all.map(_._1))
        )
      if (version.schema.fieldNames.exists(_.equalsIgnoreCase(name)))
        throw DrillErrors.includeColumnsClash(name)
      StructField(labels.label(kind), kind.dataType, nullable = true)
    }
  }
}
