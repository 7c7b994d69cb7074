package sparkdrill.spark

import java.util.OptionalLong

import org.apache.hadoop.fs.Path
import org.apache.hadoop.io.compress.{CompressionCodecFactory, SplittableCompressionCodec}
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

import sparkdrill.scan.{FormatRegistry, ScanFile, ScanSpec, SplitPlanner, TablePlan}

/** The scan of one query over the files that survived pruning, and its batch: files cut into ranges and
  * packed into tasks as Spark does.
  */
final class DrillScan(
    plan: TablePlan,
    spec: ScanSpec,
    files: IndexedSeq[ScanFile],
    fileSchemas: IndexedSeq[StructType],
    pushedFilters: Seq[String],
    filesPruned: Int
) extends Scan
    with Batch
    with SupportsReportStatistics {

  override def readSchema(): StructType = spec.outputSchema

  override def description(): String = {
    val limit = if (spec.rowLimit == Long.MaxValue) "" else s", limit=${spec.rowLimit}"
    s"DrillScan[paths=[${plan.paths.mkString(", ")}], formats=[${files.map(_.format).distinct.mkString(", ")}], " +
      s"files=${files.size} of ${plan.files.size}, columns=[${spec.outputSchema.fieldNames.mkString(", ")}], " +
      s"pushedFilters=[${pushedFilters.mkString(", ")}]$limit]"
  }

  // Without this Spark plans the input partitions twice while planning.
  override def columnarSupportMode(): Scan.ColumnarSupportMode = Scan.ColumnarSupportMode.SUPPORTED

  override def toBatch: Batch = this

  // Without an estimate Spark assumes the scan is huge, and joins never broadcast it.
  override def estimateStatistics(): Statistics = new Statistics {
    override def sizeInBytes(): OptionalLong = OptionalLong.of(files.map(_.length).sum)
    override def numRows(): OptionalLong = OptionalLong.empty()
  }

  override def supportedCustomMetrics(): Array[CustomMetric] = DrillMetrics.supported

  override def reportDriverMetrics(): Array[CustomTaskMetric] =
    Array(DrillMetrics.task(DrillMetrics.FilesPruned, filesPruned.toLong))

  private lazy val partitions: Array[InputPartition] = {
    val session = SparkSession.active
    val codecs = new CompressionCodecFactory(SessionContext.hadoopConf(session, plan.options))
    // bzip2 splits by block, but a range of it cannot tell the file's line numbers and offsets.
    def splittable(file: ScanFile): Boolean =
      FormatRegistry.named(file.format).splittable(plan.options) && (codecs.getCodec(
        new Path(file.path)
      ) match {
        case null => true
        case _: SplittableCompressionCodec => !spec.readsRecordPositions
        case _ => false
      })
    val schemaOf = files.map(_.path).zip(fileSchemas).toMap
    // Column parsers run here, on the driver, once per file; executors only see their values.
    val parsedColumns = spec.parsedColumns
    val parsed =
      if (parsedColumns.isEmpty) Map.empty[String, IndexedSeq[Any]]
      else plan.parsedValues(parsedColumns, files)
    SplitPlanner
      .plan(files, fileSchemas, splittable, SessionContext.splitSettings(session))
      .zipWithIndex
      .map { case (tasks, i) =>
        val withMissing =
          tasks.map(t =>
            t.copy(
              missingRequired = plan.missingRequired(spec, schemaOf(t.file.path)),
              parsedValues = parsed.getOrElse(t.file.path, IndexedSeq.empty)
            )
          )
        DrillInputPartition(i, withMissing): InputPartition
      }
  }

  override def planInputPartitions(): Array[InputPartition] = partitions

  private lazy val hadoopConf: Broadcast[SerializableConfiguration] = {
    val session = SparkSession.active
    session.sparkContext.broadcast(
      new SerializableConfiguration(SessionContext.hadoopConf(session, plan.options))
    )
  }

  override def createReaderFactory(): PartitionReaderFactory = new DrillReaderFactory(spec, hadoopConf)
}
