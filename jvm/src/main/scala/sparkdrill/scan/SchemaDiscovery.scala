package sparkdrill.scan

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.StructType

import sparkdrill.formats.ReaderOptions
import org.apache.spark.sql.types.StringType

import sparkdrill.formats.text.TextTypeInference
import sparkdrill.loader.{LoaderOptions, ProjectionFilter, ResultSetLoader, ResultSetLoaders}

/** The discovery pass: asks each file for its early schema (a header) or the schema of its first rows,
  * through the same reader code that later reads it.
  */
object SchemaDiscovery {

  /** Discovers many files at once: locally, or as a Spark job (the Spark adapter provides one). */
  type Many = (IndexedSeq[ScanFile], ReaderOptions, Configuration) => IndexedSeq[StructType]

  /** Files one after the other on this thread. */
  val locally: Many = (files, options, conf) =>
    files.map(f => discover(f, options, conf, sampleRows(options)))

  /** Rows sampled per file: none (headers only) unless `inferTypes=true`, then `sampleRows` (default 1000;
    * -1 for all).
    */
  def sampleRows(options: ReaderOptions): Int =
    if (!options.boolean("inferTypes", default = false)) 0
    else
      options.int("sampleRows", 1000) match {
        case -1 => Int.MaxValue
        case n => math.max(1, n)
      }

  /** The reader schema of one file. `sampleRows` = 0 reads only the early schema. */
  def discover(file: ScanFile, options: ReaderOptions, conf: Configuration, sampleRows: Int): StructType = {
    val plugin = FormatRegistry.named(file.format)
    val input = new HadoopFileInput(file.path, 0L, Long.MaxValue, conf)
    val headerOnly = sampleRows == 0
    val loaderOptions = LoaderOptions(batchRows = if (headerOnly) 1 else math.min(sampleRows, 4096))
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
      try
        reader match {
          case sampler: sparkdrill.formats.SchemaSampler => sampler.sampledSchema // JSON samples its records
          case _ if headerOnly || loader == null => Option(loader).map(_.schema).getOrElse(new StructType())
          case _ => inferTypes(reader, loader, sampleRows)
        }
      finally reader.close()
    } finally {
      if (loader != null) loader.close()
      input.close()
    }
  }

  // Text columns arrive as strings; each column's type is the narrowest every sampled value reads as.
  private def inferTypes(
      reader: sparkdrill.formats.BatchReader,
      loader: ResultSetLoader,
      limit: Int
  ): StructType = {
    val schema = loader.schema
    val samples = Array.fill(schema.size)(scala.collection.mutable.ArrayBuffer.empty[String])
    var rows = 0
    var more = true
    while (more && rows < limit) {
      more = reader.next()
      val batch = loader.harvest()
      val names = loader.projectedSchema.fieldNames
      var r = 0
      while (r < batch.numRows && rows < limit) {
        names.indices.foreach { c =>
          val v = batch.column(c)
          if (!v.isNullAt(r) && loader.projectedSchema(c).dataType == StringType)
            samples(schema.fieldIndex(names(c))) += v.getUTF8String(r).toString
        }
        r += 1
        rows += 1
      }
    }
    StructType(schema.fields.zipWithIndex.map { case (f, i) =>
      if (f.dataType == StringType) f.copy(dataType = TextTypeInference.infer(samples(i).iterator)) else f
    })
  }
}
