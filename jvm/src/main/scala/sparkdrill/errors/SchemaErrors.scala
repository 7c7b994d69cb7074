package sparkdrill.errors

/** Files whose schemas cannot make one table, and projections the table cannot serve. */
trait SchemaErrors {

  /** `.schema(...)` and the option `project` list different columns. */
  def definedSchemaDisagreesWithProject(names: Seq[String], listed: Seq[String]): SchemaException =
    new SchemaException(
      s"the schema given with .schema(...) has columns (${names.mkString(", ")}) but option 'project' " +
        s"lists (${listed.mkString(", ")}); they must agree, in order"
    )

  /** `conflict` describes the column and the files' types; `widened` is what typeConflict=widen would give. */
  def typeConflict(conflict: String, widened: String): SchemaException =
    new SchemaException(
      s"type conflict: $conflict (typeConflict=fail; typeConflict=widen would make the column $widened)"
    )

  /** Under schemaMode=fail, `file` lacks or adds columns against `first`. */
  def filesDiffer(file: String, missing: Seq[String], extra: Seq[String], first: String): SchemaException = {
    val parts = Seq(
      if (missing.nonEmpty) Some(s"lacks ${missing.mkString(", ")}") else None,
      if (extra.nonEmpty) Some(s"has extra ${extra.mkString(", ")}") else None
    ).flatten
    new SchemaException(
      s"file $file ${parts.mkString(" and ")}, unlike the first file $first " +
        "(schemaMode=fail; schemaMode=evolve unions the files' columns)"
    )
  }

  /** The discovered schema is wider than `maxSchemaFields`; `widest` and `fix` say where and what to do. */
  def schemaTooWide(
      total: Long,
      maxSchemaFields: Int,
      widest: String,
      widestLeaves: Long,
      threshold: String,
      fix: String
  ): SchemaException =
    new SchemaException(
      s"the discovered schema has $total leaf fields, more than maxSchemaFields=$maxSchemaFields; " +
        s"its widest member is $widest ($widestLeaves leaf fields). An object whose keys are data (ids, dates, " +
        s"names) is a map when its objects hold more than mapInferenceThreshold distinct keys (now " +
        s"$threshold): $fix"
    )

  def unknownMetadataColumn(name: String): SchemaException =
    projection(s"unknown metadata column '$name'", name)

  def projectedNameTwice(name: String): SchemaException =
    projection(s"the projection gives two columns named '$name'", name)

  /** `path[index]` of a column of type `typeName` (`from`: where the type comes from, or empty). */
  def indexOfNotAnArray(path: String, typeName: String, from: String, index: Int): SchemaException =
    projection(
      s"column '$path' is a $typeName$from, not an array, but the projection asks for $path[$index]",
      path
    )

  /** `path.member` of a column of type `typeName` (`from`: where the type comes from, or empty). */
  def memberOfNotAStruct(path: String, typeName: String, from: String, member: String): SchemaException =
    projection(
      s"column '$path' is a $typeName$from, not a struct, but the projection asks for its member '$path.$member'",
      path
    )

  /** `columns[i]` of headerless text beyond the largest index it reads. */
  def columnsIndexTooLarge(column: String, index: Int, max: Int): SchemaException =
    projection(s"column index $index of '$column' is beyond the maximum $max", column)

  /** `columns.x` of headerless text: the columns array holds strings. */
  def memberOfColumnsArray(requested: String, column: String): SchemaException =
    projection(
      s"'$requested' asks for a member of '$column', an array of strings (headerless text: use columns[n])",
      column
    )

  private def projection(reason: String, column: String): SchemaException =
    new SchemaException(reason, ErrorClasses.BadProjection, None, Some(column))
}
