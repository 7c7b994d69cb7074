package sparkdrill.spark

import org.apache.spark.sql.connector.metric.{CustomMetric, CustomSumMetric, CustomTaskMetric}

/** The scan's metrics in Spark's UI. Spark re-creates each metric class by name to sum task values, so each
  * is its own class with a no-argument constructor.
  */
abstract class DrillSumMetric(metricName: String, text: String) extends CustomSumMetric {
  override def name(): String = metricName
  override def description(): String = text
}

final class FilesReadMetric extends DrillSumMetric(DrillMetrics.FilesRead, "files read")
final class FilesSkippedMetric
    extends DrillSumMetric(
      DrillMetrics.FilesSkipped,
      "files gone since planning, skipped (ignoreMissingFiles)"
    )
final class FilesCorruptMetric
    extends DrillSumMetric(DrillMetrics.FilesCorrupt, "corrupt files skipped (ignoreCorruptFiles)")
final class FilesPrunedMetric extends DrillSumMetric(DrillMetrics.FilesPruned, "files pruned at planning")
final class BytesReadMetric extends DrillSumMetric(DrillMetrics.BytesRead, "bytes read")
final class RowsReadMetric extends DrillSumMetric(DrillMetrics.RowsRead, "rows read")
final class BatchesMetric extends DrillSumMetric(DrillMetrics.Batches, "batches")
final class OverflowRowsMetric extends DrillSumMetric(DrillMetrics.OverflowRows, "rows moved by overflow")
final class DroppedValuesMetric extends DrillSumMetric(DrillMetrics.DroppedValues, "values dropped")
final class RowsFilteredMetric
    extends DrillSumMetric(DrillMetrics.RowsFiltered, "rows rejected by pushed filters before conversion")

object DrillMetrics {
  val FilesRead = "filesRead"
  val FilesPruned = "filesPruned"
  val FilesSkipped = "filesSkipped"
  val FilesCorrupt = "filesCorrupt"
  val BytesRead = "bytesRead"
  val RowsRead = "rowsRead"
  val Batches = "batches"
  val OverflowRows = "overflowRows"
  val DroppedValues = "droppedValues"
  val RowsFiltered = "rowsFiltered"

  def supported: Array[CustomMetric] = Array(
    new FilesReadMetric,
    new FilesPrunedMetric,
    new FilesSkippedMetric,
    new FilesCorruptMetric,
    new BytesReadMetric,
    new RowsReadMetric,
    new BatchesMetric,
    new OverflowRowsMetric,
    new DroppedValuesMetric,
    new RowsFilteredMetric
  )

  def task(metricName: String, metricValue: Long): CustomTaskMetric = new CustomTaskMetric {
    override def name(): String = metricName
    override def value(): Long = metricValue
  }
}
