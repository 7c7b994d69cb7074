package sparkdrill.spark

import org.apache.spark.sql.connector.read.{Scan, ScanBuilder, SupportsPushDownRequiredColumns}
import org.apache.spark.sql.types.StructType

/** One query's scan: Spark narrows the columns, then builds. */
final class DrillScanBuilder(table: DrillTable) extends ScanBuilder with SupportsPushDownRequiredColumns {
  private var required: StructType = table.schema()

  override def pruneColumns(requiredSchema: StructType): Unit = required = requiredSchema

  override def build(): Scan = new DrillScan(table.plan, table.plan.specFor(required))
}
