package sparkdrill.projection

import org.apache.spark.sql.types.{ArrayType, DataType, MapType, StructField, StructType}

/** Builds a [[Projection]] from the `requiredSchema` Spark hands to `pruneColumns`. */
private[sparkdrill] object SparkProjection {

  /** Field metadata key Spark puts on a metadata (hidden) column; its value is the column's original name. */
  val MetadataColumnKey = "__metadata_col"

  /** An empty schema is count(*). Nested pruning arrives as pruned structs, also inside arrays and map values
    * (`s.k`, `m['x'].b`), so a struct, an array of structs or a map of structs becomes a member projection of
    * exactly its fields, which the scan then reads with that very type; everything else is the whole column.
    * A metadata column is requested by its original name (Spark may have renamed it `_name`) and keeps
    * Spark's name as its output name.
    */
  def fromRequiredSchema(required: StructType): Projection =
    Projection(required.fields.toSeq.map(item))

  private def item(field: StructField): ProjectionItem.Column = {
    val original =
      if (field.metadata.contains(MetadataColumnKey)) Some(field.metadata.getString(MetadataColumnKey))
      else None
    val name = original.getOrElse(field.name)
    ProjectionItem.Column(
      RequestedColumn(name, shape(field.dataType)),
      alias = if (name == field.name) None else Some(field.name),
      metadataColumn = original.isDefined
    )
  }

  private def shape(dt: DataType): Shape = dt match {
    case s: StructType if s.nonEmpty =>
      Shape.Members(s.fields.toSeq.map(f => RequestedColumn(f.name, shape(f.dataType))))
    case a: ArrayType => shape(a.elementType)
    case m: MapType => shape(m.valueType)
    case _ => Shape.Whole
  }
}
