package sparkdrill.reader

import java.util.Locale

import scala.collection.mutable

import org.apache.spark.sql.types.DataType
import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.loader.TupleWriter

/** Predicates on a row's own scalar columns that Spark pushed into the scan (issue 15), for late
  * materialization: a reader writes a record's filter columns first, asks the bound filter, and converts the
  * other columns only when the record may pass. Spark checks every predicate again after the scan, so a
  * reader may keep rows that fail; it must never drop one for which the predicate could be TRUE. Where the
  * filter cannot tell (a value it did not see, a NaN, a value of another kind), a conjunct passes.
  *
  * Columns are lower-case names of table columns. Literals are Spark internal values of the column's type:
  * `Boolean`, `Byte`, `Short`, `Integer` (int, date), `Long` (bigint, timestamp, timestamp_ntz), `Float`,
  * `Double`, `UTF8String`. Built on the driver at planning, shipped in the scan spec, bound per file by the
  * reader ([[RowFilter.forRead]]).
  */
private[sparkdrill] sealed trait RowFilter extends Product with Serializable {

  /** The columns it reads, lower-case. */
  def columns: Set[String]
}

private[sparkdrill] object RowFilter {

  /** A comparison operator, judged on the sign of a comparison's result. */
  sealed abstract class Op(val symbol: String) extends Product with Serializable {
    def holds(comparison: Int): Boolean

    /** The operator with its operands swapped: `5 < x` is `x > 5`. */
    def flipped: Op

    /** The operator of `NOT (a op b)`: the same under SQL's three values (a null stays null). */
    def negated: Op
  }

  object Op {
    case object Equal extends Op("=") {
      def holds(c: Int): Boolean = c == 0
      def flipped: Op = Equal
      def negated: Op = NotEqual
    }
    case object NotEqual extends Op("<>") {
      def holds(c: Int): Boolean = c != 0
      def flipped: Op = NotEqual
      def negated: Op = Equal
    }
    case object Less extends Op("<") {
      def holds(c: Int): Boolean = c < 0
      def flipped: Op = Greater
      def negated: Op = GreaterOrEqual
    }
    case object LessOrEqual extends Op("<=") {
      def holds(c: Int): Boolean = c <= 0
      def flipped: Op = GreaterOrEqual
      def negated: Op = Greater
    }
    case object Greater extends Op(">") {
      def holds(c: Int): Boolean = c > 0
      def flipped: Op = Less
      def negated: Op = LessOrEqual
    }
    case object GreaterOrEqual extends Op(">=") {
      def holds(c: Int): Boolean = c >= 0
      def flipped: Op = LessOrEqual
      def negated: Op = Less
    }

    val all: Seq[Op] = Seq(Equal, NotEqual, Less, LessOrEqual, Greater, GreaterOrEqual)

    /** The operator Spark's V2 predicate names `symbol` (`=`, `<>`, `<`, `<=`, `>`, `>=`). */
    def named(symbol: String): Option[Op] = all.find(_.symbol == symbol)
  }

  final case class Compare(column: String, op: Op, literal: Any) extends RowFilter {
    def columns: Set[String] = Set(column)
  }

  /** TRUE when the value equals one of `literals` (null literals never match, so they are left out). */
  final case class In(column: String, literals: Seq[Any]) extends RowFilter {
    def columns: Set[String] = Set(column)
  }
  final case class IsNull(column: String) extends RowFilter {
    def columns: Set[String] = Set(column)
  }
  final case class IsNotNull(column: String) extends RowFilter {
    def columns: Set[String] = Set(column)
  }

  /** A string column whose UTF-8 bytes start with `prefix`'s. */
  final case class StartsWith(column: String, prefix: UTF8String) extends RowFilter {
    def columns: Set[String] = Set(column)
  }
  final case class And(children: Seq[RowFilter]) extends RowFilter {
    def columns: Set[String] = children.flatMap(_.columns).toSet
  }

  /** The column types a row filter compares: boolean, byte, short, int, bigint, float, double, date,
    * timestamp, timestamp_ntz and string (binary collation).
    */
  def compares(t: DataType): Boolean = CapturingWriter.supports(t)

  /** The conjunction of `filters`: None for none, the filter itself for one. */
  def all(filters: Seq[RowFilter]): Option[RowFilter] = filters match {
    case Seq() => None
    case Seq(one) => Some(one)
    case many => Some(And(many.flatMap(conjuncts)))
  }

  private def conjuncts(f: RowFilter): Seq[RowFilter] = f match {
    case And(children) => children.flatMap(conjuncts)
    case other => Seq(other)
  }

  /** The filter a reader applies to the rows it writes into `row`, or None when it must convert every
    * record in full. `available` tells the columns this file holds (a column it lacks is filled by the scan
    * after the reader, so conjuncts on it pass). Conditions for judging records before converting them:
    *   - the scan pushed a filter (never while discovering);
    *   - `validate` is not `all`: that option asks for every record to be judged by every column;
    *   - no corrupt-record or rescued-data column is read: a query that reads them inspects bad input, and
    *     gets every record's problems reported as if there were no filter;
    *   - at least one filter column has a projected writer of a type the filter compares.
    */
  def forRead(
      negotiator: SchemaNegotiator,
      row: TupleWriter,
      available: String => Boolean = _ => true
  ): Option[BoundRowFilter] = {
    val options = negotiator.options
    def reads(column: Option[String]): Boolean = column.flatMap(row.find).exists(_.isProjected)
    val allowed = !CommonOptions.validateAll(options) &&
      !reads(options.get(CommonOptions.CorruptRecordColumn)) &&
      !reads(options.get(CommonOptions.RescuedDataColumn))
    negotiator.rowFilter.filter(_ => allowed).map(bind(_, row, available)).filter(_.columns.nonEmpty)
  }

  /** Binds `filter` to the writers of `row`: each filter column the file holds and the query projects gets a
    * capturing writer, through which the reader must write it (see [[BoundRowFilter]]).
    */
  def bind(filter: RowFilter, row: TupleWriter, available: String => Boolean = _ => true): BoundRowFilter = {
    val captured = mutable.LinkedHashMap.empty[String, Option[CapturingWriter]]
    def capture(column: String): Option[CapturingWriter] =
      captured.getOrElseUpdate(
        column.toLowerCase(Locale.ROOT),
        if (!available(column)) None
        else
          row
            .find(column)
            .filter(w => w.isProjected && CapturingWriter.supports(w.dataType))
            .map(new CapturingWriter(_))
      )
    val check = BoundRowFilter.compile(filter, capture)
    new BoundRowFilter(check, captured.values.flatten.toArray)
  }
}
