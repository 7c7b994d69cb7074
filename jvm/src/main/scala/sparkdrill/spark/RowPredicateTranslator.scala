package sparkdrill.spark

import java.util.Locale

import org.apache.spark.sql.connector.expressions.{Expression, Literal, NamedReference}
import org.apache.spark.sql.connector.expressions.filter.{And => SparkAnd, Not => SparkNot, Predicate}
import org.apache.spark.sql.types.DataType
import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.reader.RowFilter
import sparkdrill.scan.TableScan

/** Turns Spark's pushed predicates into a [[RowFilter]] that readers judge records by before converting
  * them, when they only compare the table's own scalar columns ([[TableScan.rowFilterColumn]]) with literals
  * of the column's type: `=`, `<>`, `<`, `<=`, `>`, `>=`, `IN`, `IS NULL`, `IS NOT NULL`, `STARTS_WITH`, and
  * `AND` of those, and `NOT` of a comparison or a null test. Anything else (`OR`, other `NOT`s, casts, nested fields, per-file columns, another type's
  * literal) is left alone (`None`): Spark evaluates every predicate after the scan in any case.
  */
private[sparkdrill] final class RowPredicateTranslator(table: TableScan) {
  import RowFilter._

  def translate(p: Predicate): Option[RowFilter] = p match {
    case a: SparkAnd =>
      for { l <- translate(a.left()); r <- translate(a.right()) } yield And(Seq(l, r))
    // Spark writes `a != b` as NOT (a = b).
    case n: SparkNot =>
      translate(n.child()).collect {
        case Compare(c, op, v) => Compare(c, op.negated, v)
        case IsNull(c) => IsNotNull(c)
        case IsNotNull(c) => IsNull(c)
      }
    case _ =>
      val children = p.children().toSeq
      p.name() match {
        case "IS_NULL" if children.size == 1 => column(children.head).map(c => IsNull(c._1))
        case "IS_NOT_NULL" if children.size == 1 => column(children.head).map(c => IsNotNull(c._1))
        case name if children.size == 2 && Op.named(name).isDefined =>
          val op = Op.named(name).get
          (column(children(0)), column(children(1))) match {
            case (Some((c, t)), _) => literal(children(1), t).map(Compare(c, op, _))
            case (_, Some((c, t))) => literal(children(0), t).map(Compare(c, op.flipped, _))
            case _ => None
          }
        case "IN" if children.size >= 2 =>
          column(children.head).flatMap { case (c, t) =>
            // A null in the list never makes IN true: it is left out (an IN of only nulls rejects every row).
            val values = children.tail.map(nullableLiteral(_, t))
            if (values.forall(_.isDefined)) Some(In(c, values.flatten.filter(_ != null))) else None
          }
        case "STARTS_WITH" if children.size == 2 =>
          for {
            (c, t) <- column(children(0))
            prefix <- literal(children(1), t)
            bytes <- Option(prefix).collect { case s: UTF8String => s }
          } yield StartsWith(c, bytes)
        case _ => None
      }
  }

  /** A top-level reference to a column readers can judge: its lower-case name and type. */
  private def column(e: Expression): Option[(String, DataType)] = e match {
    case r: NamedReference if r.fieldNames().length == 1 =>
      table.rowFilterColumn(r.fieldNames()(0)).map(f => f.name.toLowerCase(Locale.ROOT) -> f.dataType)
    case _ => None
  }

  /** A non-null literal of type `t` (its Spark internal value). */
  private def literal(e: Expression, t: DataType): Option[Any] = nullableLiteral(e, t).filter(_ != null)

  /** A literal of type `t`: Some(null) for a null one. */
  private def nullableLiteral(e: Expression, t: DataType): Option[Any] = e match {
    case l: Literal[_] if l.dataType() == t => Some(l.value())
    case _ => None
  }
}
