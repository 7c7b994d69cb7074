package sparkdrill.scan

import java.time.ZoneId
import java.util.Locale

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.io.compress.SplittableCompressionCodec
import org.apache.spark.sql.types.{StructField, StructType}

import sparkdrill.projection.{ColumnParser, Projection, ProjectionParser, SparkProjection}
import sparkdrill.reader.{CommonOptions, OptionSpec, ReaderOptions, RowFilter}
import sparkdrill.scan.cache.{CachedDiscovery, DiscoveryStats}
import sparkdrill.scan.schema._
import sparkdrill.errors.{DrillErrors, SparkDrillError}

/** A table as planned at `load()`: the listed files, what discovery found in each (and how: from a cache or
  * read), and the schema the scan schema tracker resolved from them. Immutable; every query on the table is
  * planned from it by [[plan]].
  */
private[sparkdrill] final class TableScan private (
    val paths: Seq[String],
    val options: ReaderOptions,
    val files: IndexedSeq[ScanFile],
    val fileSchemas: IndexedSeq[StructType],
    val discoveryStats: DiscoveryStats,
    val resolved: ResolvedSchema,
    config: ScanConfig,
    val hadoopConf: Configuration,
    val times: PlanningTimes
) {

  /** Whether the table's one column is headerless text's `columns` array (no provided or defined schema). */
  def columnsArray: Boolean = config.columnsArray

  /** The columns of `*` (or of the `project` option), as Spark's table schema. One instance: the data
    * source recognises its own inferred schema by identity.
    */
  val schema: StructType = resolved.schema

  /** Columns selectable by name but not in `*`: file columns, hidden partition columns, parsers' columns. */
  val metadataColumns: Seq[StructField] = resolved.metadataColumns

  def reports: Seq[FileReport] = resolved.reports

  /** The per-file string column `name` stands for, for pruning (see [[ProjectionResolver.perFileColumn]]). */
  def fileColumn(name: String): Option[FilePredicate.Column] =
    resolved.perFileColumn(name).map { case (parser, column) => FilePredicate.Column(parser, column) }

  /** The table column Spark's top-level column `name` stands for, when readers can judge pushed predicates
    * on it ([[RowFilter]]): a column the files hold (not the corrupt-record or rescued-data column, which
    * readers fill themselves), of a type the filter compares, and whole in the table's schema (not narrowed
    * by the `project` option). A data column wins over a per-file column of the same name, as everywhere.
    */
  def rowFilterColumn(name: String): Option[StructField] =
    resolved.table.find(name).map(_._1).filter(c => rowFilterable(c, name)).map(_.field)

  private def rowFilterable(c: ScanColumn, name: String): Boolean = {
    // The corrupt-record and rescued-data columns, also when a provided or defined schema names them.
    val readers = Seq(CommonOptions.CorruptRecordColumn, CommonOptions.RescuedDataColumn)
    val filledByReaders =
      c.origin == ColumnOrigin.Reader || readers.flatMap(options.get(_)).exists(_.equalsIgnoreCase(c.name))
    val whole = schema.fields.exists(f => f.name.equalsIgnoreCase(name) && f.dataType == c.dataType)
    !filledByReaders && whole && RowFilter.compares(c.dataType)
  }

  /** Plans one query: the columns Spark requires (`requiredSchema`, metadata columns marked by Spark), the
    * file predicates it pushed, a row limit, and the row filter readers judge records by; files are pruned,
    * cut into ranges and packed into tasks.
    */
  def plan(
      required: StructType,
      predicates: Seq[FilePredicate],
      rowLimit: Long,
      splits: SplitPlanner.Settings,
      rowFilter: Option[RowFilter] = None
  ): QueryPlan = {
    val started = System.nanoTime()
    val kept = files.indices.filter(i => FilePredicate.keeps(predicates, files(i)))
    val plan = resolved.plan(SparkProjection.fromRequiredSchema(required))
    val spec = specOf(required, plan).copy(rowLimit = rowLimit, rowFilter = rowFilter)
    val keptFiles = kept.map(files)
    val tasks = SplitPlanner.plan(keptFiles, kept.map(fileSchemas), splittable(spec), splits)
    // Column parsers run here, on the driver, once per column for all kept files; executors get values.
    val constants = plan.constants(keptFiles.map(_.info))
    val byPath = keptFiles.map(_.path).zip(constants).toMap
    val withValues = tasks.map(_.map(t => t.copy(constants = byPath(t.file.path))))
    TableScan.logPlan(keptFiles.size, withValues.length, System.nanoTime() - started)
    QueryPlan(spec, withValues, keptFiles, files.size - keptFiles.size)
  }

  private def specOf(required: StructType, plan: ScanPlan): ScanSpec = {
    val slots = plan.constantColumns.zipWithIndex.toMap
    val sources: Array[OutputSource] = plan.output.zipWithIndex.map { case (column, i) =>
      column.source match {
        case ColumnSource.TableColumn(ri) => OutputSource.Reader(ri)
        case ColumnSource.ColumnsArray(ri, _) => OutputSource.Reader(ri)
        case ColumnSource.RecordColumn(_, ri) => OutputSource.Reader(ri)
        case _ => OutputSource.Constant(slots(i), required(i).dataType)
      }
    }.toArray
    val input = plan.readerInput
    val readerColumns = input.columns.map(_.field)
    // validate=all: the other table columns are converted too (to judge records the same way whatever the
    // projection), through writers that keep nothing: the loader's filter leaves them out.
    val validated =
      if (!CommonOptions.validateAll(options)) Nil
      else {
        val taken = readerColumns.map(_.name.toLowerCase(Locale.ROOT)).toSet
        resolved.table.columns.filterNot(c => taken(c.key)).map(_.field)
      }
    val elements = input.columns.collect {
      case c if c.indexes.isDefined && config.columnsArray => c.field.name -> c.indexes.get
    }.toMap
    ScanSpec(
      outputSchema = required,
      sources = sources,
      readerSchema = StructType(readerColumns ++ validated),
      projection = input.filter,
      requestedElements = elements,
      fills = fills,
      fillsWhereAbsent = input.columns.zipWithIndex.collect {
        case (c, i) if c.fromFile && !c.field.nullable => i -> c.fill.literal(c.field.dataType).value
      }.toMap,
      options = options,
      loaderOptions = ScanOptions.loaderOptions(options),
      positionalSchema = if (config.positional) Some(positionalSchema) else None,
      tableColumns = resolved.table.columns.map(_.key).toSet
    )
  }

  /** The table columns in field order, for files that bind them by position. */
  private def positionalSchema: StructType =
    StructType(resolved.table.columns.filter(_.position.isDefined).sortBy(_.position.get).map(_.field))

  // NOT NULL columns: their DEFAULT or zero, as internal values (the same for every query of the table).
  private lazy val fills: Map[String, Any] =
    resolved.table.columns.collect {
      case c if !c.nullable => c.key -> c.fill.literal(c.dataType).value
    }.toMap

  private lazy val codecs = Codecs(hadoopConf)

  // bzip2 splits by block, but a range of it cannot tell the file's line numbers and offsets.
  private def splittable(spec: ScanSpec)(file: ScanFile): Boolean =
    FormatRegistry.named(file.format).splittable(options) && (codecs.forFile(file.path) match {
      case null => true
      case _: SplittableCompressionCodec => !spec.readsRecordPositions
      case _ => false
    })
}

/** What discovery found: the files it could read, in listing order, with their reader schemas. */
private[sparkdrill] final case class Discovered(
    files: IndexedSeq[ScanFile],
    schemas: IndexedSeq[StructType],
    stats: DiscoveryStats
)

private[sparkdrill] object Discovered {

  /** No files: what a plan made from the schema alone starts from. */
  val none: Discovered = Discovered(IndexedSeq.empty, IndexedSeq.empty, DiscoveryStats(0, 0, 0, 0, Nil))
}

/** Milliseconds the planner's steps took on the driver (discovery: of the files no cache held). */
private[sparkdrill] final case class PlanningTimes(discoveryMillis: Long, resolveMillis: Long)

/** One query's plan: what every task needs, the tasks (each a few file ranges), and the files kept. */
private[sparkdrill] final case class QueryPlan(
    spec: ScanSpec,
    tasks: Array[Array[FileTask]],
    files: IndexedSeq[ScanFile],
    filesPruned: Int
)

/** The one planner: lists the files, runs discovery and resolves the schema with the scan schema tracker. */
private[sparkdrill] object TableScan {

  /** Options as the user gave them (names as spelt), checked against the one option table and the options of
    * the layer above that reads them (`also`: a stream's).
    */
  def parseOptions(raw: Map[String, String], also: Seq[OptionSpec[_]] = Nil): ReaderOptions = {
    val options = ScanOptions.catalog.including(also).parse(raw)
    if (!options(ScanOptions.RecursiveFileLookup))
      throw DrillErrors.recursiveFileLookupOff(ScanOptions.RecursiveFileLookup.name)
    options.get(ScanOptions.Format).foreach(FormatRegistry.named(_).validateNamed(options))
    FormatRegistry.plugins.foreach(_.validate(options))
    options
  }

  /** Lists and discovers the files of `paths` and resolves their schema: [[list]], then [[fromFiles]].
    *
    * @param options the read options, parsed (see [[parseOptions]]); `timeZone` should be set
    * @param definedSchema the user's schema (`.schema(...)`), exactly the output of `*`
    * @param discoverAll how to run discovery over many files (a Spark job, from the adapter)
    * @param parsers column parsers beyond the built-in ones (Python parsers)
    */
  def open(
      paths: Seq[String],
      options: ReaderOptions,
      definedSchema: Option[StructType],
      conf: Configuration,
      zone: ZoneId,
      discoverAll: SchemaDiscovery.Many = SchemaDiscovery.locally,
      parsers: Seq[ColumnParser] = Nil
  ): TableScan = {
    if (paths.isEmpty) throw DrillErrors.noPath()
    val started = System.nanoTime()
    val listed = list(paths, options, conf, zone)
    if (listed.isEmpty)
      throw DrillErrors.noFiles(paths, bySuffix(options))
    fromFiles(
      paths,
      listed,
      options,
      definedSchema,
      conf,
      discoverAll,
      parsers,
      (System.nanoTime() - started) / 1000000
    )
  }

  /** For a listing with no file: without `format`, which suffixes are read, and what the formats that do not
    * claim theirs under these options need (`.log`: a pattern), in their own words.
    */
  private def bySuffix(options: ReaderOptions): String =
    if (options.get(ScanOptions.Format).isDefined) ""
    else {
      val (claimed, unclaimed) = FormatRegistry.plugins.partition(_.claimsSuffix(options))
      val needs = unclaimed.map { p =>
        val why = scala.util.Try(p.validateNamed(options)).failed.toOption.map(reasonOf).getOrElse("")
        s"; .${p.suffixes.mkString(", .")} only with format ${p.name}'s options" +
          (if (why.isEmpty) "" else s" ($why)")
      }
      s" (without the option format, files are read by suffix: .${claimed.flatMap(_.suffixes).mkString(", .")}" +
        needs.mkString + ")"
    }

  // A classed error's reason from its parameters, not cut out of its message; another's message.
  private def reasonOf(e: Throwable): String = e match {
    case d: SparkDrillError => d.parameters.getOrElse("reason", e.getMessage)
    case other => String.valueOf(other.getMessage).stripPrefix("spark-drill: ")
  }

  /** The planner's first step: the files of `paths` (SPEC 2), sorted by path. */
  def list(
      paths: Seq[String],
      options: ReaderOptions,
      conf: Configuration,
      zone: ZoneId,
      memo: Option[DirectoryMemo] = None
  ): IndexedSeq[ScanFile] =
    FileLister.list(paths, conf, options, zone, memo)

  /** The planner's next steps on files given explicitly (a load's listing, or a micro-batch's new files):
    * discovery, through the discovery caches, then resolution by the scan schema tracker.
    *
    * @param paths the paths the files were listed from (for messages and `describe`)
    * @param listingMillis how long listing took, for the log line only
    */
  def fromFiles(
      paths: Seq[String],
      listed: IndexedSeq[ScanFile],
      options: ReaderOptions,
      definedSchema: Option[StructType],
      conf: Configuration,
      discoverAll: SchemaDiscovery.Many = SchemaDiscovery.locally,
      parsers: Seq[ColumnParser] = Nil,
      listingMillis: Long = 0L,
      discovered: Option[Discovered] = None
  ): TableScan = {
    val started = System.nanoTime()
    // Discovery runs under a defined schema too: splits past a file's header need the header's order.
    // Files discovery found corrupt (under ignoreCorruptFiles) are left out of the table. Files whose
    // schema a cache holds (same path, length, time and discovery options) are not read again; a stream
    // hands over what it discovered when it admitted the files.
    val found = discovered.getOrElse(discover(listed, options, conf, discoverAll))
    val discoveredAt = System.nanoTime()
    val files = found.files
    val fileSchemas = found.schemas
    val config = ScanConfig.fromOptions(options, definedSchema, parsers, bindsByPosition(files, options))
    val trackerInput = forTracker(found, options, config)
    val projection =
      options.get(ScanOptions.Project).map(ProjectionParser.parse).getOrElse(Projection.wildcard)
    val resolved = ScanSchemaTracker.resolve(config, projection, trackerInput)
    val done = System.nanoTime()
    // Where a load's time goes, for a user wondering why load() of a large tree is slow (and the bench).
    log.info(
      f"spark-drill: load of ${listed.size}%d files: listing $listingMillis%d ms, " +
        f"discovery ${(discoveredAt - started) / 1e6}%.0f ms, " +
        f"schema ${(done - discoveredAt) / 1e6}%.0f ms"
    )
    val timings = PlanningTimes((discoveredAt - started) / 1000000, (done - discoveredAt) / 1000000)
    new TableScan(paths, options, files, fileSchemas, found.stats, resolved, config, conf, timings)
  }

  /** The planner's discovery step: each file's reader schema, through the discovery caches; files found
    * corrupt (under `ignoreCorruptFiles`) are left out.
    */
  def discover(
      listed: IndexedSeq[ScanFile],
      options: ReaderOptions,
      conf: Configuration,
      discoverAll: SchemaDiscovery.Many
  ): Discovered = {
    val (schemas, stats) = CachedDiscovery.discover(listed, options, conf, discoverAll)
    val kept = listed.zip(schemas).collect { case (f, Some(s)) => f -> s }
    Discovered(kept.map(_._1), kept.map(_._2), stats)
  }

  /** Whether files read under `options` alone would bind fields by position: the `format`'s answer, else
    * that of any format that claims files by suffix under them (for a stream planned before its files land).
    */
  def bindsByPosition(options: ReaderOptions): Boolean =
    options.get(ScanOptions.Format) match {
      case Some(name) => FormatRegistry.named(name).bindsByPosition(options)
      case None => FormatRegistry.plugins.filter(_.claimsSuffix(options)).exists(_.bindsByPosition(options))
    }

  /** Whether any of `files` binds its fields by position (headerless text): the tracker's `byPosition`. */
  def bindsByPosition(files: Seq[ScanFile], options: ReaderOptions): Boolean =
    files.map(_.format).distinct.exists(f => FormatRegistry.named(f).bindsByPosition(options))

  /** The tracker's input for discovered files: each file's reader schema, or none for a positional file under
    * a provided or defined schema (its `columns` array is what the schema replaces).
    */
  def forTracker(found: Discovered, options: ReaderOptions, config: ScanConfig): IndexedSeq[FileSchema] =
    found.files.indices.map { i =>
      val plugin = FormatRegistry.named(found.files(i).format)
      // singleVariantColumn: whatever a file names, the table sees its one VARIANT (the reader keeps the
      // file's own names, a header, for the object it writes).
      val own = VariantOptions.singleColumn(options).getOrElse {
        if (plugin.bindsByPosition(options) && config.positional) new StructType() else found.schemas(i)
      }
      val how = if (plugin.sampleRows(options) > 0) Discovery.Sampled else Discovery.HeaderOnly
      FileSchema(found.files(i).info, own, how)
    }

  private val log = org.slf4j.LoggerFactory.getLogger(classOf[TableScan])

  private def logPlan(files: Int, tasks: Int, nanos: Long): Unit =
    log.info(f"spark-drill: query plan of $files%d files in $tasks%d tasks: ${nanos / 1e6}%.0f ms")
}
