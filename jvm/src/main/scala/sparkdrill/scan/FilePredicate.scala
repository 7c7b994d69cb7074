package sparkdrill.scan

import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.errors.DrillErrors
import sparkdrill.projection.{ColumnParser, ParsedColumn}

/** A predicate over per-file constant string columns (`dirN`, hive keys, `filename`, `filepath`, `fqn`,
  * `suffix`), judged once per file at planning. Values are SQL's three: `Some(true)`, `Some(false)` and
  * `None` for NULL. A file is dropped only when a predicate is surely not TRUE for it.
  */
private[sparkdrill] sealed trait FilePredicate extends Serializable

private[sparkdrill] object FilePredicate {

  /** A per-file string column, valued by the column parser that serves it. */
  final case class Column(parser: ColumnParser, column: ParsedColumn) {
    def valueOf(file: ScanFile): UTF8String = parser.value(column, file.info).asInstanceOf[UTF8String]
  }

  final case class Compare(op: String, column: Column, literal: UTF8String) extends FilePredicate
  final case class In(column: Column, literals: Seq[UTF8String]) extends FilePredicate
  final case class IsNull(column: Column) extends FilePredicate
  final case class IsNotNull(column: Column) extends FilePredicate
  final case class StringMatch(op: String, column: Column, literal: UTF8String) extends FilePredicate
  final case class And(left: FilePredicate, right: FilePredicate) extends FilePredicate
  final case class Or(left: FilePredicate, right: FilePredicate) extends FilePredicate
  final case class Not(child: FilePredicate) extends FilePredicate
  final case class Constant(value: Option[Boolean]) extends FilePredicate

  def eval(p: FilePredicate, file: ScanFile): Option[Boolean] = p match {
    case Compare(op, column, literal) =>
      Option(column.valueOf(file)).map { v =>
        val c = v.compareTo(literal)
        op match {
          case "=" => c == 0
          case "<>" => c != 0
          case "<" => c < 0
          case "<=" => c <= 0
          case ">" => c > 0
          case ">=" => c >= 0
          case _ => throw DrillErrors.internalArgument(s"unknown comparison $op")
        }
      }
    case In(column, literals) =>
      Option(column.valueOf(file)).flatMap { v =>
        if (literals.exists(l => l != null && l == v)) Some(true)
        else if (literals.contains(null)) None
        else Some(false)
      }
    case IsNull(column) => Some(column.valueOf(file) == null)
    case IsNotNull(column) => Some(column.valueOf(file) != null)
    case StringMatch(op, column, literal) =>
      Option(column.valueOf(file)).map { v =>
        op match {
          case "STARTS_WITH" => v.startsWith(literal)
          case "ENDS_WITH" => v.endsWith(literal)
          case "CONTAINS" => v.contains(literal)
          case _ => throw DrillErrors.internalArgument(s"unknown string match $op")
        }
      }
    case And(l, r) =>
      (eval(l, file), eval(r, file)) match {
        case (Some(false), _) | (_, Some(false)) => Some(false)
        case (Some(true), Some(true)) => Some(true)
        case _ => None
      }
    case Or(l, r) =>
      (eval(l, file), eval(r, file)) match {
        case (Some(true), _) | (_, Some(true)) => Some(true)
        case (Some(false), Some(false)) => Some(false)
        case _ => None
      }
    case Not(c) => eval(c, file).map(!_)
    case Constant(value) => value
  }

  /** Whether a file can hold rows that pass every predicate. */
  def keeps(predicates: Seq[FilePredicate], file: ScanFile): Boolean =
    predicates.forall(p => eval(p, file).contains(true))
}
