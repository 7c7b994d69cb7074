package sparkdrill.scan.schema

import org.apache.spark.sql.types.StructType

import sparkdrill.projection.{ColumnParser, FileInfo, ParsedColumn}

/** One projection resolved against the scan: the output columns in order with their sources, the reader input
  * (with what fills a column a file lacks) and the per-file constants. Lives on the driver (it holds the column parsers); the scan
  * ships what executors need in its `ScanSpec` and `FileTask`s.
  */
private[sparkdrill] final class ScanPlan private[schema] (
    val output: Seq[OutputColumn],
    val readerInput: ReaderInput,
    val warnings: Seq[String],
    parsed: Map[Int, (ColumnParser, ParsedColumn)]
) {
  def outputSchema: StructType = StructType(output.map(_.field))

  /** count(*): no values are read. */
  def isCount: Boolean = output.isEmpty

  /** The output columns that are per-file constants, in output order; a column's place here is its slot. */
  val constantColumns: Seq[Int] = parsed.keys.toSeq.sorted

  /** The per-file constants of `files`: for each file, one Spark internal value per [[constantColumns]]
    * entry. Calls the column parsers, so only on the driver: once per column for all the files (a Python
    * parser answers them in one call).
    */
  def constants(files: Seq[FileInfo]): IndexedSeq[IndexedSeq[Any]] = {
    val byColumn = constantColumns.map { i =>
      val (parser, column) = parsed(i)
      parser.values(column, files).toIndexedSeq
    }
    files.indices.map(f => byColumn.map(_(f)).toIndexedSeq)
  }
}
