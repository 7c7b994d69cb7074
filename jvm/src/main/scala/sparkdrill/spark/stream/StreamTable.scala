package sparkdrill.spark.stream

import java.util

import org.apache.spark.sql.connector.catalog.{SupportsRead, Table, TableCapability}
import org.apache.spark.sql.connector.read.{Scan, ScanBuilder, SupportsPushDownRequiredColumns}
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import sparkdrill.spark.{DrillTable, ParallelDiscovery, SessionContext}
import sparkdrill.spark.python.ColumnParserRegistry
import sparkdrill.stream.{StreamDefinition, StreamSession}

/** The table `spark.readStream.format("drill").load(path)` reads: micro-batch reads only, and no metadata
  * columns (Spark has none in streams: its analyzer would add them to a scan that never sees them), so
  * `includeColumns` makes hidden columns ordinary ones.
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
  def open(options: CaseInsensitiveStringMap, defined: Option[StructType]): StreamTable = {
    val session = SessionContext.active
    val definition = StreamDefinition.load(
      DrillTable.paths(options),
      DrillTable.readOptions(options, session),
      defined,
      SessionContext.hadoopConf(session, options),
      streamSession(session)
    )
    new StreamTable(definition)
  }

  /** What the stream engine takes from `session`. */
  def streamSession(session: SparkSession): StreamSession = StreamSession(
    SessionContext.zone(session),
    ParallelDiscovery(session),
    () => ColumnParserRegistry.forSession(session),
    () => SessionContext.splitSettings(session)
  )
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
