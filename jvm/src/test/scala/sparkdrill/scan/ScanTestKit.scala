package sparkdrill.scan

import java.time.ZoneOffset

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.{DataType, MetadataBuilder, StructField, StructType}

import sparkdrill.projection.{ColumnParser, SparkProjection}

/** Plans and reads through the one planner, as the Spark adapter does, without Spark. */
object ScanTestKit {
  val conf = new Configuration()

  /** Settings under which every file goes whole into a single task, in path order. */
  val OneTask: SplitPlanner.Settings = SplitPlanner.Settings(Long.MaxValue / 4, 0L, 1)

  def open(
      paths: Seq[String],
      options: Seq[(String, String)],
      definedSchema: Option[StructType] = None,
      parsers: Seq[ColumnParser] = Nil
  ): TableScan =
    TableScan.open(
      paths,
      TableScan.parseOptions(options.toMap),
      definedSchema,
      conf,
      ZoneOffset.UTC,
      parsers = parsers
    )

  /** One query over every file, in one task. */
  def query(scan: TableScan, required: StructType): QueryPlan =
    scan.plan(required, Nil, Long.MaxValue, OneTask)

  def lifecycle(plan: QueryPlan): ScanLifecycle = new ScanLifecycle(plan.spec, plan.tasks.flatten, conf)

  /** The first column of every row a lifecycle reads, as strings; closes it. */
  def firstColumn(l: ScanLifecycle): Seq[String] = {
    val out = Seq.newBuilder[String]
    try
      while (l.next())
        (0 until l.batch.numRows).foreach(r => out += l.batch.column(0).getUTF8String(r).toString)
    finally l.close()
    out.result()
  }

  /** A hidden column as Spark requests it (marked as a metadata column). */
  def metadataField(name: String, dataType: DataType): StructField =
    StructField(
      name,
      dataType,
      metadata = new MetadataBuilder().putString(SparkProjection.MetadataColumnKey, name).build()
    )
}
