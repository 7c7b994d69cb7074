package sparkdrill.spark

import java.util.OptionalLong

import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.metric.{CustomMetric, CustomTaskMetric}
import org.apache.spark.sql.connector.read.{
  Batch,
  InputPartition,
  PartitionReaderFactory,
  Scan,
  Statistics,
  SupportsReportStatistics
}
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.apache.spark.util.SerializableConfiguration

import sparkdrill.scan.{QueryPlan, TableScan}
import sparkdrill.spark.stream.StreamTable

/** One query's scan as Spark sees it: the plan the scan layer made, handed over as input partitions; or, when
  * Spark streams the table, the stream (SPEC 11, "Entry points").
  *
  * @param options the options Spark hands the scan (a stream's, from `readStream.option(...)`)
  * @param required the columns Spark asked for
  * @param planned the plan of those columns, made once when the batch is first asked for
  * @param fileFilters the pushed predicates that prune files at planning
  * @param rowFilters the pushed predicates readers judge records by before converting them
  */
private[sparkdrill] final class DrillScan(
    drillTable: DrillTable,
    options: CaseInsensitiveStringMap,
    required: StructType,
    planned: () => QueryPlan,
    fileFilters: Seq[String],
    rowFilters: Seq[String] = Nil
) extends Scan
    with Batch
    with SupportsReportStatistics {

  private lazy val table: TableScan = drillTable.scan
  private lazy val plan: QueryPlan = planned()
  private var stream: Option[MicroBatchStream] = None

  override def readSchema(): StructType = required

  override def description(): String = stream.map(_.toString).getOrElse {
    val limit = if (plan.spec.rowLimit == Long.MaxValue) "" else s", limit=${plan.spec.rowLimit}"
    val rows = if (rowFilters.isEmpty) "" else s", rowFilters=[${rowFilters.mkString(", ")}]"
    s"DrillScan[paths=[${table.paths.mkString(", ")}], formats=[${plan.files.map(_.format).distinct.mkString(", ")}], " +
      s"files=${plan.files.size} of ${table.files.size}, columns=[${readSchema().fieldNames.mkString(", ")}], " +
      s"pushedFilters=[${(fileFilters ++ rowFilters).mkString(", ")}]$rows$limit]"
  }

  // Without this Spark plans the input partitions twice while planning.
  override def columnarSupportMode(): Scan.ColumnarSupportMode = Scan.ColumnarSupportMode.SUPPORTED

  override def toBatch: Batch = this

  override def toMicroBatchStream(checkpointLocation: String): MicroBatchStream = {
    val started = StreamTable.streamOf(drillTable, options, required, checkpointLocation)
    stream = Some(started)
    started
  }

  // Without an estimate Spark assumes the scan is huge, and joins never broadcast it.
  override def estimateStatistics(): Statistics = new Statistics {
    override def sizeInBytes(): OptionalLong = OptionalLong.of(plan.files.map(_.length).sum)
    override def numRows(): OptionalLong = OptionalLong.empty()
  }

  override def supportedCustomMetrics(): Array[CustomMetric] = DrillMetrics.supported

  // A stream's scan has no batch plan: its micro-batches report their own.
  override def reportDriverMetrics(): Array[CustomTaskMetric] =
    if (stream.isDefined) Array.empty
    else Array(DrillMetrics.task(DrillMetrics.FilesPruned, plan.filesPruned.toLong))

  override def planInputPartitions(): Array[InputPartition] =
    plan.tasks.zipWithIndex.map { case (tasks, i) => DrillInputPartition(i, tasks): InputPartition }

  private lazy val hadoopConf: Broadcast[SerializableConfiguration] =
    SparkSession.active.sparkContext.broadcast(new SerializableConfiguration(table.hadoopConf))

  override def createReaderFactory(): PartitionReaderFactory =
    new DrillReaderFactory(Some(plan.spec), hadoopConf)
}
