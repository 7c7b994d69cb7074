package sparkdrill.spark.stream

import java.util

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.spark.sql.connector.catalog.{SupportsRead, Table, TableCapability}
import org.apache.spark.sql.connector.read.{Scan, ScanBuilder, SupportsPushDownRequiredColumns}
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import sparkdrill.spark.{DrillTable, ParallelDiscovery, SessionContext}
import sparkdrill.errors.DrillErrors
import sparkdrill.reader.ReaderOptions
import sparkdrill.spark.python.ColumnParserRegistry
import sparkdrill.stream.{StreamDefinition, StreamOptions, StreamSession}

/** The table a read with a streaming-only option gets (`spark.readStream.format("drill")
  * .option("schemaLocation", ...).load(path)`): micro-batch reads only (a batch read of it ends in
  * [[sparkdrill.spark.DrillSource.createRelation]], the error naming those options), and no metadata columns
  * (Spark has none in streams), so `includeColumns` makes hidden columns ordinary ones.
  */
private[sparkdrill] final class StreamTable(val definition: StreamDefinition)
    extends Table
    with SupportsRead {
  override def name(): String = s"drill stream ${definition.path}"

  override def schema(): StructType = definition.schema

  override def capabilities(): util.Set[TableCapability] = util.EnumSet.of(TableCapability.MICRO_BATCH_READ)

  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder = new StreamScanBuilder(
    definition
  )
}

private[sparkdrill] object StreamTable {

  /** What `spark.readStream.format("drill")...load(path)` builds: the schema from `.schema(...)`, else the
    * newest version in `schemaLocation`, else discovery of the files there now, stored as version 0.
    */
  def open(
      options: CaseInsensitiveStringMap,
      parsed: ReaderOptions,
      defined: Option[StructType]
  ): StreamTable = {
    val session = SessionContext.active
    new StreamTable(definition(options, parsed, defined, session))
  }

  /** [[open]], or, when the stream cannot be defined (no `schemaLocation`, several paths, no files yet, ...),
    * a table holding that error until Spark asks for its columns.
    */
  def openOrHold(
      options: CaseInsensitiveStringMap,
      parsed: ReaderOptions,
      defined: Option[StructType]
  ): Table =
    try open(options, parsed, defined)
    catch { case NonFatal(e) => new UnopenedStreamTable(options, e) }

  /** The stream of a [[DrillTable]] (`readStream.schema(...)...load(path)` without a streaming-only option, or
    * `readStream.table("drill.\`path\`")`): under the table's schema, with the table's options and the
    * read's streaming ones. A catalog table's read may give no other: the catalog discovered its columns
    * without them.
    */
  def streamOf(
      table: DrillTable,
      readOptions: CaseInsensitiveStringMap,
      required: StructType,
      checkpoint: String
  ): MicroBatchStream = {
    val schema = table.streamSchema.getOrElse(throw DrillErrors.streamNeedsSchemaLocation())
    val session = SessionContext.active
    val changing =
      discoveryOptions(readOptions).filter { case (k, v) => table.options.get(k) != v }.keys.toSeq
    if (changing.nonEmpty) throw DrillErrors.streamTableOptions(table.name(), changing.sorted)
    val options = new util.HashMap[String, String](table.options.asCaseSensitiveMap())
    options.putAll(readOptions.asCaseSensitiveMap())
    val merged = new CaseInsensitiveStringMap(options)
    val stream =
      definition(merged, DrillTable.readOptions(merged, session), Some(schema), session, table.streamPerFile)
    new DrillMicroBatchStream(stream, required, checkpoint)
  }

  // The read's options that shape what discovery finds or which columns there are: all but the streaming-only
  // ones that choose files and state.
  private def discoveryOptions(options: CaseInsensitiveStringMap): Map[String, String] = {
    val all = options.asCaseSensitiveMap().asScala.toMap
    val streaming = StreamOptions.named(DrillTable.parse(all)).map(_.toLowerCase).toSet -
      StreamOptions.IncludeColumns.key.toLowerCase
    all.filter { case (k, _) => !streaming(k.toLowerCase) }
  }

  private def definition(
      options: CaseInsensitiveStringMap,
      parsed: ReaderOptions,
      defined: Option[StructType],
      session: SparkSession,
      definedPerFile: Seq[String] = Nil
  ): StreamDefinition =
    StreamDefinition.load(
      DrillTable.paths(options),
      parsed,
      defined,
      SessionContext.hadoopConf(session, options),
      streamSession(session),
      definedPerFile
    )

  /** What the stream engine takes from `session`. */
  def streamSession(session: SparkSession): StreamSession = StreamSession(
    SessionContext.zone(session),
    ParallelDiscovery(session),
    () => ColumnParserRegistry.forSession(session),
    () => SessionContext.splitSettings(session)
  )
}

/** A read with a streaming-only option whose stream could not be defined. Which read it is, Spark says next:
  * a stream asks for the table's columns (at `load()`), and gets the error; a batch read finds no batch
  * capability and falls back to [[sparkdrill.spark.DrillSource.createRelation]], whose error names the
  * streaming-only options, the one that matters to it.
  */
private[sparkdrill] final class UnopenedStreamTable(options: CaseInsensitiveStringMap, error: Throwable)
    extends Table
    with SupportsRead {
  override def name(): String = s"drill stream ${DrillTable.paths(options).mkString(",")}"

  override def schema(): StructType = throw error

  override def capabilities(): util.Set[TableCapability] = util.EnumSet.of(TableCapability.MICRO_BATCH_READ)

  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder = throw error
}

private[sparkdrill] object UnopenedStreamTable {

  /** What `inferSchema` answers for it (Spark hands it back to `getTable`). */
  val noColumns: StructType = new StructType()
}

/** Spark (4.0 to 4.3) never pushes anything into a streaming scan; if a later one pushes the columns it needs,
  * the stream reads only those.
  */
private[sparkdrill] final class StreamScanBuilder(definition: StreamDefinition)
    extends ScanBuilder
    with SupportsPushDownRequiredColumns {
  private var required: StructType = definition.schema

  override def pruneColumns(requiredSchema: StructType): Unit = required = requiredSchema

  override def build(): Scan = new StreamScan(definition, required)
}

private[sparkdrill] final class StreamScan(definition: StreamDefinition, required: StructType) extends Scan {
  override def readSchema(): StructType = required

  override def description(): String =
    s"DrillStream[path=${definition.path}, columns=[${required.fieldNames.mkString(", ")}]]"

  override def toMicroBatchStream(checkpointLocation: String): MicroBatchStream =
    new DrillMicroBatchStream(definition, required, checkpointLocation)
}
