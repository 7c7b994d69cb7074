package sparkdrill.spark

import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.read.{Batch, InputPartition, PartitionReaderFactory, Scan}
import org.apache.spark.sql.types.StructType
import org.apache.spark.util.SerializableConfiguration

import org.apache.hadoop.fs.Path
import org.apache.hadoop.io.compress.CompressionCodecFactory

import sparkdrill.scan.{FormatRegistry, ScanFile, ScanSpec, SplitPlanner, TablePlan}

/** The scan of one query, and its batch: files cut into ranges and packed into tasks as Spark does. */
final class DrillScan(plan: TablePlan, spec: ScanSpec) extends Scan with Batch {

  override def readSchema(): StructType = spec.outputSchema

  override def description(): String =
    s"DrillScan[${plan.description}, columns=[${spec.outputSchema.fieldNames.mkString(", ")}]]"

  // Without this Spark plans the input partitions twice while planning.
  override def columnarSupportMode(): Scan.ColumnarSupportMode = Scan.ColumnarSupportMode.SUPPORTED

  override def toBatch: Batch = this

  private lazy val partitions: Array[InputPartition] = {
    val session = SparkSession.active
    val codecs = new CompressionCodecFactory(SessionContext.hadoopConf(session, plan.options))
    def splittable(file: ScanFile): Boolean =
      FormatRegistry.named(file.format).splittable(plan.options) && codecs.getCodec(
        new Path(file.path)
      ) == null
    SplitPlanner
      .plan(plan.files, plan.fileSchemas, splittable, SessionContext.splitSettings(session))
      .zipWithIndex
      .map { case (tasks, i) => DrillInputPartition(i, tasks): InputPartition }
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
