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
import org.apache.spark.sql.types.StructType
import org.apache.spark.util.SerializableConfiguration

import sparkdrill.scan.{QueryPlan, TableScan}

/** One query's scan as Spark sees it: the plan the scan layer made, handed over as input partitions.
  *
  * @param fileFilters the pushed predicates that prune files at planning
  * @param rowFilters the pushed predicates readers judge records by before converting them
  */
private[sparkdrill] final class DrillScan(
    table: TableScan,
    plan: QueryPlan,
    fileFilters: Seq[String],
    rowFilters: Seq[String] = Nil
) extends Scan
    with Batch
    with SupportsReportStatistics {

  override def readSchema(): StructType = plan.spec.outputSchema

  override def description(): String = {
    val limit = if (plan.spec.rowLimit == Long.MaxValue) "" else s", limit=${plan.spec.rowLimit}"
    val rows = if (rowFilters.isEmpty) "" else s", rowFilters=[${rowFilters.mkString(", ")}]"
    s"DrillScan[paths=[${table.paths.mkString(", ")}], formats=[${plan.files.map(_.format).distinct.mkString(", ")}], " +
      s"files=${plan.files.size} of ${table.files.size}, columns=[${readSchema().fieldNames.mkString(", ")}], " +
      s"pushedFilters=[${(fileFilters ++ rowFilters).mkString(", ")}]$rows$limit]"
  }

  // Without this Spark plans the input partitions twice while planning.
  override def columnarSupportMode(): Scan.ColumnarSupportMode = Scan.ColumnarSupportMode.SUPPORTED

  override def toBatch: Batch = this

  // Without an estimate Spark assumes the scan is huge, and joins never broadcast it.
  override def estimateStatistics(): Statistics = new Statistics {
    override def sizeInBytes(): OptionalLong = OptionalLong.of(plan.files.map(_.length).sum)
    override def numRows(): OptionalLong = OptionalLong.empty()
  }

  override def supportedCustomMetrics(): Array[CustomMetric] = DrillMetrics.supported

  override def reportDriverMetrics(): Array[CustomTaskMetric] =
    Array(DrillMetrics.task(DrillMetrics.FilesPruned, plan.filesPruned.toLong))

  override def planInputPartitions(): Array[InputPartition] =
    plan.tasks.zipWithIndex.map { case (tasks, i) => DrillInputPartition(i, tasks): InputPartition }

  private lazy val hadoopConf: Broadcast[SerializableConfiguration] =
    SparkSession.active.sparkContext.broadcast(new SerializableConfiguration(table.hadoopConf))

  override def createReaderFactory(): PartitionReaderFactory =
    new DrillReaderFactory(Some(plan.spec), hadoopConf)
}
