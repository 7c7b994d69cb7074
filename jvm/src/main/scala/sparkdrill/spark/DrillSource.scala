package sparkdrill.spark

import java.util

import org.apache.spark.sql.SQLContext
import org.apache.spark.sql.connector.catalog.{Table, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.sources.{BaseRelation, DataSourceRegister, RelationProvider}
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import sparkdrill.errors.DrillErrors
import sparkdrill.stream.StreamOptions
import sparkdrill.spark.stream.{StreamTable, UnopenedStreamTable}

/** `spark.read.format("drill")` and `spark.readStream.format("drill")`. Spark calls `inferSchema` and then
  * `getTable` on one instance per `load()`: the table made for `inferSchema` is kept so that listing and
  * discovery run once.
  *
  * Spark asks for the table the same way for a batch read and a stream, so the options decide which table it
  * gets (SPEC 11, "Entry points"): with a streaming-only option (`schemaLocation`, `maxFilesPerTrigger`, ...)
  * the stream's table, which only streams; otherwise the batch table, which also streams when its schema is
  * defined (`.schema(...)`). Which read it is, Spark then says by what it asks of the table.
  */
final class DrillSource extends TableProvider with DataSourceRegister with RelationProvider {
  private var inferred: Table = _

  override def shortName(): String = "drill"

  override def supportsExternalMetadata(): Boolean = true

  // The line check comes first, before any class of the table is loaded: with the Scala library of the other
  // line, loading those may already fail (a NoClassDefFoundError).
  override def inferSchema(options: CaseInsensitiveStringMap): StructType = {
    SparkLineCheck.verified
    inferred = open(options, defined = None)
    inferred match {
      case _: UnopenedStreamTable => UnopenedStreamTable.noColumns
      case table => table.schema()
    }
  }

  override def getTable(
      schema: StructType,
      partitioning: Array[Transform],
      properties: util.Map[String, String]
  ): Table = {
    SparkLineCheck.verified
    val fromInfer = inferred match {
      case null => false
      case _: UnopenedStreamTable => schema eq UnopenedStreamTable.noColumns
      case table => table.schema() eq schema
    }
    if (fromInfer) inferred else open(new CaseInsensitiveStringMap(properties), Some(schema))
  }

  private def open(options: CaseInsensitiveStringMap, defined: Option[StructType]): Table = {
    val parsed = DrillTable.readOptions(options, SessionContext.active)
    if (StreamOptions.named(parsed).nonEmpty) StreamTable.openOrHold(options, parsed, defined)
    else DrillTable.open(options, parsed, defined)
  }

  /** Spark's way back to a batch read when the table cannot batch-read (the stream's table): the error naming
    * the streaming-only options, at `load()`.
    */
  override def createRelation(sqlContext: SQLContext, parameters: Map[String, String]): BaseRelation = {
    val named = StreamOptions.named(DrillTable.parse(parameters))
    if (named.nonEmpty) throw DrillErrors.optionsOfTheOtherRead(named, streaming = false)
    // Otherwise only a session that names drill in spark.sql.sources.useV1SourceList comes here.
    throw DrillErrors.notSupported(
      "drill is a DataSource V2 source: remove it from spark.sql.sources.useV1SourceList"
    )
  }
}
