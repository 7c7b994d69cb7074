package sparkdrill.scan

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.StructType

import sparkdrill.loader.{LoaderOptions, ProjectionFilter, ResultSetLoader, ResultSetLoaders}
import sparkdrill.errors.{DrillErrors, ErrorContext, ScanException}
import sparkdrill.reader.{CommonOptions, DiscoveryContext, FileInput, FormatPlugin, ReaderOptions, Sampling}

/** The discovery pass: takes the format's schema when it is known without a file (a log pattern's groups),
  * else asks the format to discover each file ([[FormatPlugin.discover]]): its early schema (a header) or the
  * schema of its first records, by its own code (JSON) or through the reader that later reads it (text).
  */
private[sparkdrill] object SchemaDiscovery {

  /** Discovers many files at once: locally, or as a Spark job (the Spark adapter provides one). None for a
    * file left out as corrupt (`ignoreCorruptFiles`).
    */
  type Many = (IndexedSeq[ScanFile], ReaderOptions, Configuration) => IndexedSeq[Option[StructType]]

  /** Files one after the other on this thread. */
  val locally: Many = (files, options, conf) => files.map(f => discover(f, options, conf))

  /** Files on the driver's planning threads, in order. For local files: discovering 100,000 two-line files
    * took 2.3-3.3 s this way on two cores, against 3.4-3.8 s as a Spark job (serialized files, cold
    * executor threads).
    */
  val onDriverThreads: Many = (files, options, conf) => {
    val chunks = files.grouped(math.max(1, files.size / (DriverThreads.Threads * 4) + 1)).toSeq
    DriverThreads.map(chunks)(chunk => locally(chunk, options, conf)).flatten.toIndexedSeq
  }

  /** Whether every file is on the local file system (see [[onDriverThreads]]). */
  def allLocal(files: IndexedSeq[ScanFile], conf: Configuration): Boolean =
    files.forall(f => LocalFiles.isLocal(f.path, conf))

  /** The reader schema of one file: its early schema, or what its format samples from its first records. */
  def discover(file: ScanFile, options: ReaderOptions, conf: Configuration): Option[StructType] = {
    val plugin = FormatRegistry.named(file.format)
    // singleVariantColumn types nothing: a file is read for its names alone (a header), or not at all.
    val sampleRows =
      if (options.get(CommonOptions.SingleVariantColumn).isDefined) 0 else plugin.sampleRows(options)
    val known = if (sampleRows <= 0) plugin.knownSchema(options) else None
    if (known.isDefined) known else sampleOrHeader(file, plugin, options, conf, sampleRows)
  }

  private def sampleOrHeader(
      file: ScanFile,
      plugin: FormatPlugin,
      options: ReaderOptions,
      conf: Configuration,
      sampleRows: Int
  ): Option[StructType] = {
    val input = new HadoopFileInput(file.path, 0L, Long.MaxValue, conf)
    val context = new FileDiscovery(input, file.displayPath, options, sampleRows, plugin)
    try Some(plugin.discover(context))
    catch {
      case e: ScanException => throw e
      // Deleted since it was listed (a stream's file, between its listing and its micro-batch).
      case e: Exception if ScanLifecycle.isMissing(e) && options(ScanOptions.IgnoreMissingFiles) => None
      case e: Exception if ScanLifecycle.isCorrupt(e) && options(ScanOptions.IgnoreCorruptFiles) => None
      // A corrupt or truncated compressed file, an unreadable one: name it.
      case e: Exception =>
        throw DrillErrors.undiscoverableFile(file.displayPath, e)
    } finally input.close()
  }
}

/** Discovery of one file, for its format ([[FormatPlugin.discover]]); through the format's reader on request. */
private final class FileDiscovery(
    val file: FileInput,
    displayPath: String,
    val options: ReaderOptions,
    val sampleRows: Int,
    plugin: FormatPlugin
) extends DiscoveryContext {
  val errorContext: ErrorContext = ErrorContext(displayPath)

  // With no rows to sample, the reader only declares its columns: it is built, never asked for a batch.
  def throughReader(): StructType = {
    val headerOnly = sampleRows <= 0
    val projection = if (headerOnly) ProjectionFilter.None else ProjectionFilter.All
    var loader: ResultSetLoader = null
    val negotiator = new FileNegotiator(
      file,
      displayPath,
      options,
      definedSchema = None,
      fileSchema = None,
      projection = projection,
      makeLoader = schema => {
        val batchRows = if (headerOnly) 1 else math.min(sampleRows, LoaderOptions.DefaultBatchRows)
        loader = ResultSetLoaders.create(LoaderOptions(batchRows = batchRows), schema, projection)
        loader
      }
    )
    try {
      val reader = plugin.newReader(negotiator)
      try Sampling.schemaOf(plugin, options, reader, Option(loader), sampleRows)
      finally reader.close()
    } finally if (loader != null) loader.close()
  }
}
