package sparkdrill.projection

import org.apache.spark.sql.types.{ArrayType, StringType, StructField}
import sparkdrill.errors.DrillErrors

/** Headerless text's single table column `columns: array<string>` and its elements `columns[n]` (SPEC 3.4,
  * 4). Only active for `header=false` without a provided or defined schema; with headers, `columns` is an
  * ordinary name. The reader produces the values: this parser only types the column and checks the request.
  */
private[sparkdrill] object ColumnsArrayParser extends ColumnParser {
  val Name = "columns"

  /** Drill's bound on `columns[n]`. */
  val MaxIndex = 65535

  val field: StructField = StructField(Name, ArrayType(StringType, containsNull = true), nullable = false)

  def id: String = "columns"

  def parse(column: RequestedColumn, context: ParseContext): Option[ParsedColumn] =
    if (!column.matches(Name)) None
    else Some(ParsedColumn(field.copy(name = column.name), ParsedKind.ColumnsArray(indexes(column))))

  /** The element indexes a request reads: None for all. Throws for `columns.x` and indexes over the bound. */
  def indexes(column: RequestedColumn): Option[Seq[Int]] = column.shape match {
    case Shape.Whole => None
    case Shape.Indexes(ix) =>
      ix.find(_ > MaxIndex).foreach { i =>
        throw DrillErrors.columnsIndexTooLarge(column.name, i, MaxIndex)
      }
      Some(ix.toSeq)
    case Shape.Members(_) =>
      throw DrillErrors.memberOfColumnsArray(column.describe, column.name)
  }

  def value(column: ParsedColumn, file: FileInfo): Any =
    throw DrillErrors.internalArgument("the columns array comes from the reader, not from a per-file value")
}
