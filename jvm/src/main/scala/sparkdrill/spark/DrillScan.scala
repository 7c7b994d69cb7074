package sparkdrill.spark

import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.read.{Batch, InputPartition, PartitionReaderFactory, Scan}
import org.apache.spark.sql.types.StructType
import org.apache.spark.util.SerializableConfiguration

import sparkdrill.scan.{FileTask, ScanSpec, TablePlan}

/** The scan of one query, and its batch: one input partition per file for now. */
final class DrillScan(plan: TablePlan, spec: ScanSpec) extends Scan with Batch {

  override def readSchema(): StructType = spec.outputSchema

  override def description(): String =
    s"DrillScan[${plan.description}, columns=[${spec.outputSchema.fieldNames.mkString(", ")}]]"

  // Without this Spark plans the input partitions twice while planning.
  override def columnarSupportMode(): Scan.ColumnarSupportMode = Scan.ColumnarSupportMode.SUPPORTED

  override def toBatch: Batch = this

  private lazy val partitions: Array[InputPartition] =
    plan.files.zipWithIndex.map { case (file, i) =>
      DrillInputPartition(i, Array(FileTask(file, 0L, Long.MaxValue, None))): InputPartition
    }.toArray

  override def planInputPartitions(): Array[InputPartition] = partitions

  private lazy val hadoopConf: Broadcast[SerializableConfiguration] = {
    val session = SparkSession.active
    session.sparkContext.broadcast(
      new SerializableConfiguration(SessionContext.hadoopConf(session, plan.options))
    )
  }

  override def createReaderFactory(): PartitionReaderFactory = new DrillReaderFactory(spec, hadoopConf)
}
