package sparkdrill.spark

import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.expressions.filter.Predicate
import org.apache.spark.sql.connector.read.{
  Scan,
  ScanBuilder,
  SupportsPushDownLimit,
  SupportsPushDownRequiredColumns,
  SupportsPushDownV2Filters
}
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.util.CaseInsensitiveStringMap

import sparkdrill.reader.RowFilter
import sparkdrill.scan.FilePredicate

/** One query's scan. Spark pushes predicates, then a limit, then the columns it needs, then builds.
  *
  * Predicates on per-file columns (`dirN`, `filename`, ...) prune whole files at planning; those on the
  * table's own scalar columns become a row filter that readers judge each record by before converting its
  * other columns. Every predicate is still handed back to Spark, which evaluates it after the scan, so
  * neither can change an answer.
  */
private[sparkdrill] final class DrillScanBuilder(table: DrillTable, options: CaseInsensitiveStringMap)
    extends ScanBuilder
    with SupportsPushDownRequiredColumns
    with SupportsPushDownV2Filters
    with SupportsPushDownLimit {
  // Lazy: a stream of the table pushes nothing, and never opens the table's scan.
  private lazy val translator = new PredicateTranslator(table.scan)
  private lazy val rowTranslator = new RowPredicateTranslator(table.scan)
  private var required: StructType = table.schema()
  private var fileFilters: Seq[(Predicate, FilePredicate)] = Nil
  private var rowFilters: Seq[(Predicate, RowFilter)] = Nil
  private var limit: Long = Long.MaxValue

  override def pruneColumns(requiredSchema: StructType): Unit = required = requiredSchema

  override def pushPredicates(predicates: Array[Predicate]): Array[Predicate] = {
    fileFilters = predicates.toSeq.flatMap(p => translator.translate(p).map(p -> _))
    rowFilters = predicates.toSeq.flatMap(p => rowTranslator.translate(p).map(p -> _))
    predicates
  }

  override def pushedPredicates(): Array[Predicate] = (fileFilters.map(_._1) ++ rowFilters.map(_._1)).toArray

  override def pushLimit(n: Int): Boolean = {
    limit = n.toLong
    true
  }

  // Each task stops at the limit; Spark still applies it across tasks.
  override def isPartiallyPushed(): Boolean = true

  // Planned when Spark asks for the batch: Spark builds a stream's scan the same way, and a stream plans
  // each micro-batch itself.
  override def build(): Scan = {
    val (files, rows, n, columns) = (fileFilters, rowFilters, limit, required)
    new DrillScan(
      table,
      options,
      columns,
      () => {
        val settings = SessionContext.splitSettings(SparkSession.active)
        table.scan.plan(columns, files.map(_._2), n, settings, RowFilter.all(rows.map(_._2)))
      },
      files.map(_._1.toString),
      rows.map(_._1.toString)
    )
  }
}
