package sparkdrill.spark

import java.util

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.catalog.{SupportsRead, Table, TableCapability, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.connector.read.{LocalScan, Scan, ScanBuilder}
import org.apache.spark.sql.sources.DataSourceRegister
import org.apache.spark.sql.types.{StringType, StructField, StructType}
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.reader.CommonOptions
import sparkdrill.scan.TableScan
import sparkdrill.scan.schema.{ColumnStatus, Discovery}

/** `spark.read.format("drill-describe").options(...).load(path)` (what `sd.describe` runs, also under Spark
  * Connect): the per-file schema report of the table `format("drill")` with the same options would read, one
  * row per file and column, computed on the driver.
  */
final class DescribeSource extends TableProvider with DataSourceRegister {
  override def shortName(): String = "drill-describe"

  // The line check comes first in each entry point's own method, before any class of the table is loaded:
  // with the Scala library of the other line, loading those may already fail (a NoClassDefFoundError).
  override def inferSchema(options: CaseInsensitiveStringMap): StructType = {
    SparkLineCheck.verified
    Describe.schema
  }

  override def getTable(
      schema: StructType,
      partitioning: Array[Transform],
      properties: util.Map[String, String]
  ): Table = {
    SparkLineCheck.verified
    new DescribeTable(DrillTable.open(new CaseInsensitiveStringMap(properties), definedSchema = None))
  }
}

private[sparkdrill] final class DescribeTable(table: DrillTable) extends Table with SupportsRead {
  override def name(): String = s"describe ${table.name()}"
  override def schema(): StructType = Describe.schema
  override def capabilities(): util.Set[TableCapability] = util.EnumSet.of(TableCapability.BATCH_READ)

  // The report is small and already on the driver: a local scan, no tasks.
  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder = () =>
    new LocalScan {
      override def readSchema(): StructType = Describe.schema
      override def rows(): Array[InternalRow] = Describe.rows(table.scan)
    }: Scan
}

private[sparkdrill] object Describe {
  val schema: StructType = StructType(
    Seq("file", "column", "file_type", "table_type", "seen_in", "first_file").map(
      StructField(_, StringType, false)
    ) ++
      Seq("conflict", "map_inference").map(StructField(_, StringType, nullable = true))
  )

  /** The schema tracker's report: per file, each column's type there, the table's, what happened to it, and
    * which of its members map inference made maps (SPEC 5), with the threshold that decided it.
    */
  def rows(scan: TableScan): Array[InternalRow] = {
    val threshold = CommonOptions.mapThreshold(scan.options)
    scan.reports.flatMap { file =>
      val seenIn = if (file.discovery == Discovery.Sampled) "sample" else "header"
      file.columns.map { c =>
        val conflict = c.status match {
          case ColumnStatus.Widened(t) => t.describe
          case ColumnStatus.Dropped(r) => s"not in the table ($r)"
          case _ => null
        }
        val maps =
          if (c.inferredMaps.isEmpty) null
          else
            s"${c.inferredMaps.mkString(", ")}: map<string, ...>, the objects there holding more than " +
              s"mapInferenceThreshold=$threshold distinct keys"
        InternalRow.fromSeq(
          Seq(
            file.path,
            c.name,
            c.fileType.simpleString,
            c.tableType.map(_.simpleString).getOrElse("(not in the table)"),
            c.places.fold(seenIn)(p => s"$seenIn, $p"),
            c.firstFile.getOrElse(file.path),
            conflict,
            maps
          ).map(v => if (v == null) null else UTF8String.fromString(v))
        )
      }
    }.toArray
  }
}
