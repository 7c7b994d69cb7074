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

import sparkdrill.scan.FilePredicate

/** One query's scan. Spark pushes predicates, then a limit, then the columns it needs, then builds.
  *
  * Predicates on per-file columns (`dirN`, `filename`, ...) prune whole files at planning; every predicate is
  * still handed back to Spark, which evaluates it after the scan, so pruning can never change an answer.
  */
final class DrillScanBuilder(table: DrillTable)
    extends ScanBuilder
    with SupportsPushDownRequiredColumns
    with SupportsPushDownV2Filters
    with SupportsPushDownLimit {
  private val translator = new PredicateTranslator(table.scan)
  private var required: StructType = table.schema()
  private var fileFilters: Seq[(Predicate, FilePredicate)] = Nil
  private var limit: Long = Long.MaxValue

  override def pruneColumns(requiredSchema: StructType): Unit = required = requiredSchema

  override def pushPredicates(predicates: Array[Predicate]): Array[Predicate] = {
    fileFilters = predicates.toSeq.flatMap(p => translator.translate(p).map(p -> _))
    predicates
  }

  override def pushedPredicates(): Array[Predicate] = fileFilters.map(_._1).toArray

  override def pushLimit(n: Int): Boolean = {
    limit = n.toLong
    true
  }

  // Each task stops at the limit; Spark still applies it across tasks.
  override def isPartiallyPushed(): Boolean = true

  override def build(): Scan = {
    val settings = SessionContext.splitSettings(SparkSession.active)
    val plan = table.scan.plan(required, fileFilters.map(_._2), limit, settings)
    new DrillScan(table.scan, plan, fileFilters.map(_._1.toString))
  }
}
