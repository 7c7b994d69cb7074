package sparkdrill.spark.stream

import sparkdrill.errors.DrillErrors

import sparkdrill.stream.schema._

import java.util

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.util.ArrayData
import org.apache.spark.sql.connector.catalog.{SupportsRead, Table, TableCapability, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.connector.read.{LocalScan, Scan, ScanBuilder}
import org.apache.spark.sql.sources.DataSourceRegister
import org.apache.spark.sql.types._
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.spark.{DrillTable, SessionContext, SparkLineCheck}

/** `spark.read.format("drill-schemas").load(schemaLocation)`: a stream's schema versions, oldest first, with
  * what each added and the file that caused it (the history `sd.describe` gives a batch read's files).
  */
final class SchemasSource extends TableProvider with DataSourceRegister {
  override def shortName(): String = "drill-schemas"

  override def inferSchema(options: CaseInsensitiveStringMap): StructType = {
    SparkLineCheck.verified
    SchemasSource.schema
  }

  override def getTable(
      schema: StructType,
      partitioning: Array[Transform],
      properties: util.Map[String, String]
  ): Table = {
    SparkLineCheck.verified
    SchemasSource.table(properties)
  }
}

private[sparkdrill] final class SchemasTable(dir: String, conf: org.apache.hadoop.conf.Configuration)
    extends Table
    with SupportsRead {
  override def name(): String = s"drill-schemas $dir"
  override def schema(): StructType = SchemasSource.schema
  override def capabilities(): util.Set[TableCapability] = util.EnumSet.of(TableCapability.BATCH_READ)

  // A few small files on the driver: a local scan.
  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder = () =>
    new LocalScan {
      override def readSchema(): StructType = SchemasSource.schema
      override def rows(): Array[InternalRow] = SchemaVersions.all(dir, conf).map(SchemasSource.row).toArray
    }: Scan
}

private[sparkdrill] object SchemasSource {

  // Here, not in the class: Java's ServiceLoader links every registered source, and a source's own code must
  // not name Scala collection classes of one line (on the other line's Scala library the class fails to load,
  // and takes every `format(...)` lookup down with it: found by the wrong-line jar test on Spark 3.5).
  def table(properties: util.Map[String, String]): SchemasTable = {
    val options = new CaseInsensitiveStringMap(properties)
    val paths = DrillTable.paths(options)
    if (paths.size != 1)
      throw DrillErrors.schemasOnePath(paths)
    new SchemasTable(paths.head, SessionContext.hadoopConf(SessionContext.active, options))
  }

  val schema: StructType = StructType(
    Seq(
      StructField("version", IntegerType, nullable = false),
      StructField("added", ArrayType(StringType, containsNull = false), nullable = false),
      StructField("cause", StringType),
      StructField("schema", StringType, nullable = false),
      StructField("inputPath", StringType, nullable = false),
      StructField("writtenAt", TimestampType, nullable = false),
      StructField("fingerprint", StringType)
    )
  )

  private def text(s: String): UTF8String = if (s == null) null else UTF8String.fromString(s)

  def row(v: SchemaVersion): InternalRow = InternalRow(
    v.version,
    ArrayData.toArrayData(v.added.map(text).toArray),
    v.cause.map(text).orNull,
    text(v.schema.toDDL),
    text(v.inputPath),
    v.writtenAtMillis * 1000L,
    text(v.fingerprint)
  )
}
