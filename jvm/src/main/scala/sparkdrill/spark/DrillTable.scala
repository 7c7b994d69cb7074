package sparkdrill.spark

import java.util

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.connector.catalog.{
  MetadataColumn,
  SupportsMetadataColumns,
  SupportsRead,
  Table,
  TableCapability
}
import org.apache.spark.sql.connector.read.ScanBuilder
import org.apache.spark.sql.types.{DataType, StringType, StructType}
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import sparkdrill.formats.ReaderOptions
import sparkdrill.scan.TablePlan
import sparkdrill.spark.python.ColumnParserRegistry

/** A drill table over some paths. Implicit columns are metadata columns: hidden from `*`, selectable by
  * name. The plan (listing, discovery, schema) is made once and shared by every query on the table.
  */
final class DrillTable(val plan: TablePlan) extends Table with SupportsRead with SupportsMetadataColumns {

  override def name(): String = s"drill.`${plan.paths.mkString(",")}`"

  override def schema(): StructType = plan.schema

  override def capabilities(): util.Set[TableCapability] = util.EnumSet.of(TableCapability.BATCH_READ)

  override def metadataColumns(): Array[MetadataColumn] =
    (plan.implicitColumns.map { case (label, kind) => DrillTable.metadataColumn(label, kind.dataType) } ++
      plan.hiddenPartitionColumns.map(DrillTable.metadataColumn(_, StringType)) ++
      plan.parserColumns.map(c => DrillTable.metadataColumn(c.name, c.dataType))).toArray

  // A data column named like an implicit one wins; Spark then offers the implicit one as `_name`.
  override def canRenameConflictingMetadataColumns(): Boolean = true

  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder = new DrillScanBuilder(this)
}

object DrillTable {

  def open(options: CaseInsensitiveStringMap, definedSchema: Option[StructType]): DrillTable = {
    val session = SessionContext.active
    val asGiven = options.asCaseSensitiveMap().asScala.toMap
    // Text timestamps are wall-clock times in the session's zone unless the read says otherwise.
    val zoned =
      if (options.containsKey("timeZone")) asGiven
      else asGiven + ("timeZone" -> SessionContext.zone(session).getId)
    val readerOptions = new ReaderOptions(zoned)
    val plan = TablePlan.open(
      paths(options),
      readerOptions,
      definedSchema,
      SessionContext.hadoopConf(session, readerOptions),
      SessionContext.zone(session),
      ParallelDiscovery(session),
      ColumnParserRegistry.forSession(session)
    )
    new DrillTable(plan)
  }

  /** `load(p)` gives `path`; `load(p1, p2)` gives `paths` as a JSON array. */
  def paths(options: CaseInsensitiveStringMap): Seq[String] = {
    val many = Option(options.get("paths")).toSeq.flatMap(JsonStrings.parseArray)
    val one = Option(options.get("path")).toSeq
    one ++ many
  }

  private def metadataColumn(label: String, tpe: DataType): MetadataColumn = new MetadataColumn {
    override def name(): String = label
    override def dataType(): DataType = tpe
    override def isNullable: Boolean = true
  }
}
