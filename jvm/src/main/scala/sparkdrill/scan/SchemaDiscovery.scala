package sparkdrill.scan

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.StructType

import sparkdrill.formats.ReaderOptions
import sparkdrill.loader.{LoaderOptions, ProjectionFilter, ResultSetLoaders}

/** The discovery pass: asks each file for its early schema (a header) or the schema of its first rows,
  * through the same reader code that later reads it.
  */
object SchemaDiscovery {

  /** Discovers many files at once: locally, or as a Spark job (the Spark adapter provides one). */
  type Many = (IndexedSeq[ScanFile], ReaderOptions, Configuration) => IndexedSeq[StructType]

  /** Files one after the other on this thread. */
  val locally: Many = (files, options, conf) => files.map(f => discover(f, options, conf, sampleRows = 0))

  /** The reader schema of one file. `sampleRows` = 0 reads only the early schema. */
  def discover(file: ScanFile, options: ReaderOptions, conf: Configuration, sampleRows: Int): StructType = {
    val plugin = FormatRegistry.named(file.format)
    val input = new HadoopFileInput(file.path, 0L, Long.MaxValue, conf)
    val headerOnly = sampleRows == 0
    val loaderOptions = LoaderOptions(batchRows = if (headerOnly) 1 else math.max(1, sampleRows))
    var loader: sparkdrill.loader.ResultSetLoader = null
    val negotiator = new FileNegotiator(
      input,
      file.displayPath,
      options,
      definedSchema = None,
      fileSchema = None,
      projection = if (headerOnly) ProjectionFilter.None else ProjectionFilter.All,
      headerOnly = headerOnly,
      makeLoader = schema => {
        loader = ResultSetLoaders.create(
          loaderOptions,
          schema,
          if (headerOnly) ProjectionFilter.None else ProjectionFilter.All
        )
        loader
      }
    )
    try {
      val reader = plugin.newReader(negotiator)
      try {
        if (!headerOnly) reader.next()
        if (loader == null) new StructType() else loader.schema
      } finally reader.close()
    } finally {
      if (loader != null) loader.close()
      input.close()
    }
  }
}
