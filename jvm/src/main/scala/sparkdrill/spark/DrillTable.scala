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

import sparkdrill.reader.{CommonOptions, OptionCatalog, ReaderOptions}
import sparkdrill.scan.{ScanOptions, TableScan}
import sparkdrill.stream.StreamOptions
import sparkdrill.spark.python.ColumnParserRegistry

/** A drill table over some paths. Implicit columns are metadata columns: hidden from `*`, selectable by
  * name. The table scan (listing, discovery, schema) is made once and shared by every query on the table;
  * under a defined schema it is made only when a batch query needs it (a stream lists for itself, and its
  * input may still be empty).
  *
  * It also streams (SPEC 11, "Entry points"): `readStream.schema(...)...load(path)` under the defined schema,
  * `readStream.table("drill.\`path\`")` under the catalog table's, each with the streaming options the read
  * gives. A stream needs one of the two: without, its start fails asking for `schemaLocation`, which makes a
  * [[sparkdrill.spark.stream.StreamTable]] instead.
  *
  * @param options the read's options, path included
  * @param definedSchema the user's schema (`.schema(...)`)
  * @param fromCatalog the `drill` catalog's table, whose discovered schema a stream of it reads under
  */
private[sparkdrill] final class DrillTable(
    val options: CaseInsensitiveStringMap,
    definedSchema: Option[StructType],
    fromCatalog: Boolean,
    openScan: () => TableScan
) extends Table
    with SupportsRead
    with SupportsMetadataColumns {

  lazy val scan: TableScan = openScan()

  override def name(): String = s"drill.`${DrillTable.paths(options).mkString(",")}`"

  override def schema(): StructType = definedSchema.getOrElse(scan.schema)

  /** The schema a stream of this table reads under, if it has one. */
  def streamSchema: Option[StructType] = if (fromCatalog) Some(schema()) else definedSchema

  /** The columns of [[streamSchema]] that are per-file values (`dir0`, hive keys): a catalog table's. */
  def streamPerFile: Seq[String] =
    if (fromCatalog) scan.resolved.output.filter(_.isPerFile).map(_.name) else Nil

  override def capabilities(): util.Set[TableCapability] =
    util.EnumSet.of(TableCapability.BATCH_READ, TableCapability.MICRO_BATCH_READ)

  override def metadataColumns(): Array[MetadataColumn] =
    scan.metadataColumns.map(f => DrillTable.metadataColumn(f.name, f.dataType)).toArray

  // A data column named like an implicit one wins; Spark then offers the implicit one as `_name`.
  override def canRenameConflictingMetadataColumns(): Boolean = true

  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder =
    new DrillScanBuilder(this, options)
}

private[sparkdrill] object DrillTable {

  /** The table `options` name, under `definedSchema` if given; its scan is opened now without one. */
  def open(
      options: CaseInsensitiveStringMap,
      parsed: ReaderOptions,
      definedSchema: Option[StructType],
      fromCatalog: Boolean = false
  ): DrillTable = {
    StreamOptions.checkScope(parsed, streaming = false)
    val session = SessionContext.active
    val table = new DrillTable(
      options,
      definedSchema,
      fromCatalog,
      () =>
        TableScan.open(
          paths(options),
          parsed,
          definedSchema,
          SessionContext.hadoopConf(session, options),
          SessionContext.zone(session),
          ParallelDiscovery(session),
          ColumnParserRegistry.forSession(session)
        )
    )
    if (definedSchema.isEmpty) table.scan
    table
  }

  def open(options: CaseInsensitiveStringMap, definedSchema: Option[StructType]): DrillTable =
    open(options, readOptions(options, SessionContext.active), definedSchema)

  /** Every option a read may take: the scan's and its formats', and the stream's (`scope` says which read). */
  def optionTable: OptionCatalog = ScanOptions.catalog.including(StreamOptions.all)

  /** Options as the user spelt them, checked against [[optionTable]]. */
  def parse(raw: Map[String, String]): ReaderOptions = TableScan.parseOptions(raw, StreamOptions.all)

  /** The options of a read, parsed and checked against the option table, with the session's time zone. */
  def readOptions(options: CaseInsensitiveStringMap, session: SparkSession): ReaderOptions = {
    val parsed = parse(options.asCaseSensitiveMap().asScala.toMap)
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
