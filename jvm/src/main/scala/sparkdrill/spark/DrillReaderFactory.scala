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

/** Shipped to executors: makes a columnar reader per input partition. */
private[sparkdrill] final class DrillReaderFactory(spec: ScanSpec, conf: Broadcast[SerializableConfiguration])
    extends PartitionReaderFactory {

  override def supportColumnarReads(partition: InputPartition): Boolean = true

  override def createReader(partition: InputPartition): PartitionReader[InternalRow] =
    throw DrillErrors.notSupported("spark-drill reads only columnar batches")

  override def createColumnarReader(partition: InputPartition): PartitionReader[ColumnarBatch] =
    partition match {
      case p: DrillInputPartition =>
        new DrillPartitionReader(new ScanLifecycle(spec, p.tasks, conf.value.value))
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
