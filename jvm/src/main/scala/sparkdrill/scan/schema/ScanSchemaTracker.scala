package sparkdrill.scan.schema

import sparkdrill.projection._
import sparkdrill.errors.DrillErrors

/** Resolves the scan schema at planning (DESIGN.md): merges the reader schemas discovered per file with the
  * projection, the provided and defined schemas and the column parsers. Pure: the same inputs in any order
  * give the same result, since files are taken in path order and the type union is order-free.
  */
private[sparkdrill] object ScanSchemaTracker {

  /** @param projection
    *   the scan's own projection: the `project` option parsed, else [[Projection.wildcard]]
    * @param fileSchemas
    *   one per file, in any order
    */
  def resolve(config: ScanConfig, projection: Projection, fileSchemas: Seq[FileSchema]): ResolvedSchema = {
    val files = fileSchemas.sortBy(_.path)
    checkDefinedSchema(config, projection)
    val context = ParseContext(files.map(_.file), config.providedSchema.map(_.schema))
    val hive = config.partitionStyle == PartitionStyle.Hive
    val partitionKeys =
      if (hive) HivePartitionParser.keys(context.files).map(_.toLowerCase(java.util.Locale.ROOT)).toSet
      else Set.empty[String]
    val table = TableMerger.merge(config, files, partitionKeys)
    val resolver = new ProjectionResolver(config, table, parsers(config), context, projection)
    val plan = resolver.plan(projection)
    ResolvedSchema(
      table = table,
      output = plan.output,
      metadataColumns = resolver.metadataColumns(plan.output),
      reports = table.reports,
      warnings = table.warnings ++ resolver.warnings ++ plan.warnings,
      resolver = resolver
    )
  }

  /** Built-in parsers first (implicit, partition, `columns`), then the configured ones. */
  def parsers(config: ScanConfig): Seq[ColumnParser] = {
    val partition: ColumnParser = config.partitionStyle match {
      case PartitionStyle.Dirs => DirColumnParser(config.partitionLabel, inWildcard = config.partitionColumns)
      case PartitionStyle.Hive => HivePartitionParser(inWildcard = config.partitionColumns)
    }
    val columns = if (config.columnsArray) Seq(ColumnsArrayParser) else Nil
    Seq(ImplicitColumnParser(config.implicitLabels), partition) ++ columns ++ config.parsers
  }

  /** A defined schema is exactly the output: an explicit projection must list the same columns (Drill R22). */
  private def checkDefinedSchema(config: ScanConfig, projection: Projection): Unit =
    config.definedSchema.foreach { defined =>
      if (projection.kind == ProjectionKind.Some) {
        val listed = projection.columnItems.map(_.outputName)
        val names = defined.fieldNames.toSeq
        val same =
          listed.size == names.size && listed.zip(names).forall { case (a, b) => a.equalsIgnoreCase(b) }
        if (!same)
          throw DrillErrors.definedSchemaDisagreesWithProject(names, listed)
      }
    }
}
