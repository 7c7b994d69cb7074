package sparkdrill.spark

import org.apache.spark.sql.connector.expressions.{Expression, Literal, NamedReference}
import org.apache.spark.sql.connector.expressions.filter.{
  And => SparkAnd,
  Not => SparkNot,
  Or => SparkOr,
  Predicate
}
import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.scan.{FilePredicate, TableScan}

/** Turns Spark's pushed predicates into [[FilePredicate]]s when they only read per-file string columns
  * (which the table scan names: `dirN`, hive keys, `filename`, `filepath`, `fqn`, `suffix`) and compare them
  * with string literals. Anything else is left alone (`None`): Spark evaluates every predicate after the scan
  * in any case.
  */
final class PredicateTranslator(table: TableScan) {
  import FilePredicate._

  def translate(p: Predicate): Option[FilePredicate] = p match {
    case a: SparkAnd =>
      for { l <- translate(a.left()); r <- translate(a.right()) } yield FilePredicate.And(l, r)
    case o: SparkOr =>
      for { l <- translate(o.left()); r <- translate(o.right()) } yield FilePredicate.Or(l, r)
    case n: SparkNot => translate(n.child()).map(FilePredicate.Not(_))
    case _ =>
      val children = p.children().toSeq
      p.name() match {
        case "ALWAYS_TRUE" => Some(Constant(Some(true)))
        case "ALWAYS_FALSE" => Some(Constant(Some(false)))
        case "IS_NULL" => children.headOption.flatMap(column).map(IsNull(_))
        case "IS_NOT_NULL" => children.headOption.flatMap(column).map(IsNotNull(_))
        case op @ ("=" | "<>" | "<" | "<=" | ">" | ">=") if children.size == 2 =>
          (column(children(0)), string(children(1)), column(children(1)), string(children(0))) match {
            case (Some(c), Some(l), _, _) => Some(Compare(op, c, l))
            case (_, _, Some(c), Some(l)) => Some(Compare(flip(op), c, l))
            case _ => None
          }
        case "IN" if children.nonEmpty =>
          val literals = children.tail.map(string)
          column(children.head).filter(_ => literals.forall(_.isDefined)).map(In(_, literals.flatten))
        case op @ ("STARTS_WITH" | "ENDS_WITH" | "CONTAINS") if children.size == 2 =>
          for { c <- column(children(0)); l <- string(children(1)) } yield StringMatch(op, c, l)
        case _ => None
      }
  }

  private def flip(op: String): String = op match {
    case "<" => ">"
    case "<=" => ">="
    case ">" => "<"
    case ">=" => "<="
    case other => other
  }

  private def column(e: Expression): Option[Column] = e match {
    case r: NamedReference if r.fieldNames().length == 1 => table.fileColumn(r.fieldNames()(0))
    case _ => None
  }

  private def string(e: Expression): Option[UTF8String] = e match {
    case l: Literal[_] =>
      l.value() match {
        case s: UTF8String => Some(s)
        case null => Some(null)
        case _ => None
      }
    case _ => None
  }
}
