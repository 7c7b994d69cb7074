package sparkdrill.spark

import java.util

import org.apache.spark.sql.connector.catalog.{Identifier, Table, TableCatalog, TableChange}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import sparkdrill.errors.DrillErrors

/** `SELECT ... FROM drill.\`/data/logs\``: the identifier is the path, read with default options (plus any
  * `spark.sql.catalog.drill.<option>` set for the catalog). Spark's own `format.\`path\`` syntax only serves
  * V1 sources, hence a catalog. `spark.readStream.table("drill.\`path\`")` streams the same table, under the
  * schema discovered here (SPEC 11, "Entry points").
  */
final class DrillCatalog extends TableCatalog {
  private var catalogName: String = "drill"
  private var catalogOptions: util.Map[String, String] = new util.HashMap[String, String]()

  override def initialize(name: String, options: CaseInsensitiveStringMap): Unit = {
    SparkLineCheck.verified
    catalogName = name
    catalogOptions = options.asCaseSensitiveMap()
  }

  override def name(): String = catalogName

  override def loadTable(ident: Identifier): Table = {
    val options = new util.HashMap[String, String](catalogOptions)
    val path = (ident.namespace() :+ ident.name()).mkString(".")
    options.put("path", if (ident.namespace().isEmpty) ident.name() else path)
    val read = new CaseInsensitiveStringMap(options)
    DrillTable.open(read, DrillTable.readOptions(read, SessionContext.active), None, fromCatalog = true)
  }

  override def listTables(namespace: Array[String]): Array[Identifier] = Array.empty

  override def createTable(
      ident: Identifier,
      schema: StructType,
      partitions: Array[Transform],
      properties: util.Map[String, String]
  ): Table = readOnly()

  override def alterTable(ident: Identifier, changes: TableChange*): Table = readOnly()

  override def dropTable(ident: Identifier): Boolean = readOnly()

  override def renameTable(oldIdent: Identifier, newIdent: Identifier): Unit = readOnly()

  private def readOnly(): Nothing =
    throw DrillErrors.readOnlyCatalog(catalogName)
}
