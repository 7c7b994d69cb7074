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
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.read.ScanBuilder
import org.apache.spark.sql.types.{DataType, StructType}
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import sparkdrill.reader.{CommonOptions, ReaderOptions}
import sparkdrill.scan.{StreamOptions, TableScan}
import sparkdrill.spark.python.ColumnParserRegistry

/** A drill table over some paths. Implicit columns are metadata columns: hidden from `*`, selectable by
  * name. The table scan (listing, discovery, schema) is made once and shared by every query on the table.
  */
private[sparkdrill] final class DrillTable(val scan: TableScan)
    extends Table
    with SupportsRead
    with SupportsMetadataColumns {

  override def name(): String = s"drill.`${scan.paths.mkString(",")}`"

  override def schema(): StructType = scan.schema

  override def capabilities(): util.Set[TableCapability] = util.EnumSet.of(TableCapability.BATCH_READ)

  override def metadataColumns(): Array[MetadataColumn] =
    scan.metadataColumns.map(f => DrillTable.metadataColumn(f.name, f.dataType)).toArray

  // A data column named like an implicit one wins; Spark then offers the implicit one as `_name`.
  override def canRenameConflictingMetadataColumns(): Boolean = true

  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder = new DrillScanBuilder(this)
}

private[sparkdrill] object DrillTable {

  def open(options: CaseInsensitiveStringMap, definedSchema: Option[StructType]): DrillTable = {
    val session = SessionContext.active
    val parsed = readOptions(options, session)
    StreamOptions.checkScope(parsed, streaming = false)
    val scan = TableScan.open(
      paths(options),
      parsed,
      definedSchema,
      SessionContext.hadoopConf(session, options),
      SessionContext.zone(session),
      ParallelDiscovery(session),
      ColumnParserRegistry.forSession(session)
    )
    new DrillTable(scan)
  }

  /** The options of a read, parsed and checked against the option table, with the session's time zone. */
  def readOptions(options: CaseInsensitiveStringMap, session: SparkSession): ReaderOptions = {
    val parsed = TableScan.parseOptions(options.asCaseSensitiveMap().asScala.toMap)
    // Text timestamps are wall-clock times in the session's zone unless the read says otherwise.
    if (parsed.isSet(CommonOptions.TimeZone)) parsed
    else parsed.updated(CommonOptions.TimeZone, SessionContext.zone(session).getId)
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
