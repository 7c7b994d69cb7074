package sparkdrill.scan.schema

import org.apache.spark.sql.catalyst.expressions.Literal
import org.apache.spark.sql.types.StructType

import sparkdrill.projection.{ColumnParser, FileInfo, ParsedColumn}

/** One projection resolved against the scan: the output columns in order with their sources, the reader input
  * and, per file, missing columns and constants. Lives on the driver (it holds the column parsers); ship
  * [[ReaderInput]] and [[FilePlan]]s to executors.
  */
final class ScanPlan private[schema] (
    val output: Seq[OutputColumn],
    val readerInput: ReaderInput,
    val warnings: Seq[String],
    parsed: Map[Int, (ColumnParser, ParsedColumn)],
    fileColumns: Map[String, Set[String]]
) {
  def outputSchema: StructType = StructType(output.map(_.field))

  /** count(*): no values are read. */
  def isCount: Boolean = output.isEmpty

  /** Missing reader columns and per-file constants for one file of the scan. Calls column parsers, so only on
    * the driver. Throws for a file that was not part of the discovery.
    */
  def filePlan(file: FileInfo): FilePlan = {
    val missing =
      if (readerInput.byPosition) Nil
      else {
        val has = fileColumns.getOrElse(
          file.path,
          throw new IllegalArgumentException(s"file ${file.path} was not part of the schema discovery")
        )
        readerInput.columns.zipWithIndex.collect {
          case (c, i) if !has(c.field.name.toLowerCase(java.util.Locale.ROOT)) =>
            MissingColumn(i, c.field, c.fill.literal(c.field.dataType))
        }
      }
    val constants = parsed.toSeq.sortBy(_._1).map { case (i, (parser, column)) =>
      FileConstant(i, output(i).field, Literal(parser.value(column, file), column.dataType))
    }
    FilePlan(file.path, missing, constants)
  }
}
