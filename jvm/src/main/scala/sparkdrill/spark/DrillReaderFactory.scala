package sparkdrill.spark

import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.metric.CustomTaskMetric
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReader, PartitionReaderFactory}
import org.apache.spark.sql.vectorized.ColumnarBatch
import org.apache.spark.util.SerializableConfiguration

import sparkdrill.scan.{FileTask, ScanLifecycle, ScanSpec}
import sparkdrill.errors.DrillErrors

/** The files of one task. Small: the schema travels once, in the reader factory. */
private[sparkdrill] final case class DrillInputPartition(index: Int, tasks: Array[FileTask])
    extends InputPartition

/** The files of one task of a micro-batch, with what its readers are handed: a stream's factory is made once
  * per query and knows no micro-batch, so nothing depends on the order Spark asks for partitions and factory.
  */
private[sparkdrill] final case class StreamInputPartition(index: Int, tasks: Array[FileTask], spec: ScanSpec)
    extends InputPartition

/** Shipped to executors: makes a columnar reader per input partition; `spec` is a batch query's (a stream's
  * partitions carry their own).
  */
private[sparkdrill] final class DrillReaderFactory(
    spec: Option[ScanSpec],
    conf: Broadcast[SerializableConfiguration]
) extends PartitionReaderFactory {

  override def supportColumnarReads(partition: InputPartition): Boolean = true

  override def createReader(partition: InputPartition): PartitionReader[InternalRow] =
    throw DrillErrors.notSupported("spark-drill reads only columnar batches")

  override def createColumnarReader(partition: InputPartition): PartitionReader[ColumnarBatch] =
    partition match {
      case p: DrillInputPartition if spec.isDefined =>
        new DrillPartitionReader(new ScanLifecycle(spec.get, p.tasks, conf.value.value))
      case p: StreamInputPartition =>
        new DrillPartitionReader(new ScanLifecycle(p.spec, p.tasks, conf.value.value))
      case other =>
        throw DrillErrors.internalArgument(s"unknown input partition type: ${other.getClass.getName}")
    }
}

/** Spark's `DataSourceRDD` closes it on success, failure and kill: the only place memory is freed. */
private[sparkdrill] final class DrillPartitionReader(lifecycle: ScanLifecycle)
    extends PartitionReader[ColumnarBatch] {
  override def next(): Boolean = lifecycle.next()
  override def get(): ColumnarBatch = lifecycle.batch
  override def close(): Unit = lifecycle.close()

  override def currentMetricsValues(): Array[CustomTaskMetric] = Array(
    DrillMetrics.task(DrillMetrics.FilesRead, lifecycle.filesRead),
    DrillMetrics.task(DrillMetrics.FilesSkipped, lifecycle.filesSkipped),
    DrillMetrics.task(DrillMetrics.FilesCorrupt, lifecycle.filesCorrupt),
    DrillMetrics.task(DrillMetrics.BytesRead, lifecycle.bytesRead),
    DrillMetrics.task(DrillMetrics.RowsRead, lifecycle.rowsRead),
    DrillMetrics.task(DrillMetrics.Batches, lifecycle.batchesRead),
    DrillMetrics.task(DrillMetrics.OverflowRows, lifecycle.overflowRows),
    DrillMetrics.task(DrillMetrics.DroppedValues, lifecycle.droppedValues),
    DrillMetrics.task(DrillMetrics.RowsFiltered, lifecycle.rowsFiltered)
  )
}
