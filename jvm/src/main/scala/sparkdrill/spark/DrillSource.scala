package sparkdrill.spark

import java.util

import org.apache.spark.sql.connector.catalog.{Table, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.sources.DataSourceRegister
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import sparkdrill.spark.stream.{StreamTable, StreamingLoad}

/** `spark.read.format("drill")` and `spark.readStream.format("drill")`. Spark calls `inferSchema` and then
  * `getTable` on one instance per `load()`: the table made for `inferSchema` is kept so that listing and
  * discovery run once.
  */
final class DrillSource extends TableProvider with DataSourceRegister {
  private var inferred: Table = _

  override def shortName(): String = "drill"

  override def supportsExternalMetadata(): Boolean = true

  // The line check comes first, before any class of the table is loaded: with the Scala library of the other
  // line, loading those may already fail (a NoClassDefFoundError).
  override def inferSchema(options: CaseInsensitiveStringMap): StructType = {
    SparkLineCheck.verified
    inferred =
      if (StreamingLoad.active) StreamTable.open(options, defined = None)
      else DrillTable.open(options, definedSchema = None)
    inferred.schema()
  }

  override def getTable(
      schema: StructType,
      partitioning: Array[Transform],
      properties: util.Map[String, String]
  ): Table = {
    SparkLineCheck.verified
    val options = new CaseInsensitiveStringMap(properties)
    if (inferred != null && (inferred.schema() eq schema)) inferred
    else if (StreamingLoad.active) StreamTable.open(options, defined = Some(schema))
    else DrillTable.open(options, definedSchema = Some(schema))
  }
}
