package sparkdrill.reader

import java.util.Locale

import org.apache.spark.sql.types.{StructField, StructType}
import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.loader.{ColumnWriter, TupleWriter}
import sparkdrill.errors.DrillErrors

/** A [[RowFilter]] bound to one file's writers. The reader writes the filter columns through the capturing
  * writers ([[wrap]], [[view]]), calls [[reset]] as each record starts, and asks [[passes]] once the filter
  * columns are written: a record that fails is not saved (the next `start()` discards it).
  *
  * SQL semantics where only TRUE keeps a row: a null value fails a comparison, `IN` or `STARTS_WITH`.
  * Doubles compare with primitive operators (-0.0 = 0.0); a NaN value or literal makes its conjunct pass
  * (Spark orders NaN above every number, which the filter leaves to Spark). Strings compare as unsigned
  * UTF-8 bytes, which is Spark's binary collation and code point order. A conjunct on a column this file
  * lacks, or that the query does not project, passes.
  */
private[sparkdrill] final class BoundRowFilter private[reader] (
    check: BoundRowFilter.Check,
    writers: Array[CapturingWriter]
) {

  /** The columns bound to writers, lower-case: those the reader must write through [[wrap]]. */
  val columns: Set[String] = writers.map(_.field.name.toLowerCase(Locale.ROOT)).toSet

  /** The capturing writer of `column`, when bound. */
  def writer(column: String): Option[ColumnWriter] = writers.find(_.field.name.equalsIgnoreCase(column))

  /** Whether `w` is one of this filter's capturing writers. */
  def captures(w: ColumnWriter): Boolean = {
    var i = 0
    while (i < writers.length) {
      if (writers(i) eq w) return true
      i += 1
    }
    false
  }

  /** The capturing writer over the loader's writer `w` when the filter binds it, else `w`. */
  def wrap(w: ColumnWriter): ColumnWriter = {
    var i = 0
    while (i < writers.length) {
      if (writers(i).underlying eq w) return writers(i)
      i += 1
    }
    w
  }

  /** `row` with the filter columns' writers swapped for the capturing ones, for readers that look columns up
    * by name as they go (JSON).
    */
  def view(row: TupleWriter): TupleWriter = new TupleWriter {
    def schema: StructType = row.schema
    def size: Int = row.size
    def column(index: Int): ColumnWriter = wrap(row.column(index))
    def column(name: String): ColumnWriter = wrap(row.column(name))
    def find(name: String): Option[ColumnWriter] = row.find(name).map(wrap)
    def isProjected(name: String): Boolean = row.isProjected(name)
    def addColumn(field: StructField): ColumnWriter = wrap(row.addColumn(field))
  }

  /** The filter's columns alone, as a row of capturing writers: for a reader that reads a record once for the
    * filter, leaving every other value unread (JSON, whose members come in any order).
    */
  val only: TupleWriter = new TupleWriter {
    val schema: StructType = StructType(writers.map(_.field))
    def size: Int = writers.length
    def column(index: Int): ColumnWriter = writers(index)
    def column(name: String): ColumnWriter = find(name).getOrElse {
      throw DrillErrors.internalArgument(s"no filter column $name; they are ${columns.mkString(", ")}")
    }
    def find(name: String): Option[ColumnWriter] = writer(name)
    def isProjected(name: String): Boolean = writer(name).isDefined
    def addColumn(field: StructField): ColumnWriter =
      throw DrillErrors.notSupported(s"the filter's columns are fixed; cannot add ${field.name}")
  }

  /** Whether the capturing writers hand values on to the loader (the default), or only keep them for the
    * filter: off while a reader reads a record for the filter alone before starting its row, so that a
    * record the filter rejects writes nothing into the loader.
    */
  def forwarding_=(on: Boolean): Unit = {
    var i = 0
    while (i < writers.length) {
      writers(i).forwarding = on
      i += 1
    }
  }
  def forwarding: Boolean = writers.forall(_.forwarding)

  /** A record starts: no filter column written yet. */
  def reset(): Unit = {
    var i = 0
    while (i < writers.length) {
      writers(i).reset()
      i += 1
    }
  }

  /** Whether the record, all written, may pass: false only when the predicate is surely not TRUE for it. A
    * filter column it did not write is null, unless it is NOT NULL (then the loader or the scan fills it with
    * a value the filter does not know).
    */
  def passes(): Boolean = check.test()
}

private[reader] object BoundRowFilter {
  import CapturingWriter._
  import RowFilter._

  /** One conjunct or the conjunction, over capturing writers. */
  abstract class Check {
    def test(): Boolean
  }

  /** A conjunct the filter cannot judge here: it passes. */
  object Pass extends Check {
    def test(): Boolean = true
  }

  final class AllOf(children: Array[Check]) extends Check {
    def test(): Boolean = {
      var i = 0
      while (i < children.length) {
        if (!children(i).test()) return false
        i += 1
      }
      true
    }
  }

  /** A conjunct on one column: what a null does, what a value does; anything else passes. */
  abstract class Leaf(w: CapturingWriter) extends Check {
    final def test(): Boolean = {
      val s = w.state
      if (s == NullValue || (s == Unwritten && w.unwrittenIsNull)) onNull
      else if (s == Unwritten || s == Unknown) true
      else onValue(s)
    }
    protected def onNull: Boolean = false
    protected def onValue(state: Int): Boolean
  }

  final class CompareLong(w: CapturingWriter, op: Op, literal: Long) extends Leaf(w) {
    protected def onValue(s: Int): Boolean =
      if (s != LongValue) true
      else op.holds(java.lang.Long.compare(w.long, literal))
  }

  final class CompareDouble(w: CapturingWriter, op: Op, literal: Double) extends Leaf(w) {
    protected def onValue(s: Int): Boolean = {
      val v = w.double
      if (s != DoubleValue || v.isNaN || literal.isNaN) true
      else op.holds(if (v < literal) -1 else if (v > literal) 1 else 0) // -0.0 and 0.0 are equal
    }
  }

  final class CompareBytes(w: CapturingWriter, op: Op, literal: Array[Byte]) extends Leaf(w) {
    protected def onValue(s: Int): Boolean =
      if (s != BytesValue) true
      else op.holds(compareBytes(w.bytes, w.length, literal))
  }

  final class InLongs(w: CapturingWriter, literals: Array[Long]) extends Leaf(w) {
    protected def onValue(s: Int): Boolean =
      if (s != LongValue) true
      else {
        val v = w.long
        var i = 0
        while (i < literals.length && literals(i) != v) i += 1
        i < literals.length
      }
  }

  final class InDoubles(w: CapturingWriter, literals: Array[Double]) extends Leaf(w) {
    private val anyNaN = literals.exists(_.isNaN)
    protected def onValue(s: Int): Boolean = {
      val v = w.double
      if (s != DoubleValue || anyNaN || v.isNaN) true
      else {
        var i = 0
        while (i < literals.length && literals(i) != v) i += 1
        i < literals.length
      }
    }
  }

  final class InBytes(w: CapturingWriter, literals: Array[Array[Byte]]) extends Leaf(w) {
    protected def onValue(s: Int): Boolean =
      if (s != BytesValue) true
      else {
        var i = 0
        while (i < literals.length && compareBytes(w.bytes, w.length, literals(i)) != 0) i += 1
        i < literals.length
      }
  }

  final class IsNullCheck(w: CapturingWriter) extends Leaf(w) {
    override protected def onNull: Boolean = true
    protected def onValue(s: Int): Boolean = false
  }

  final class IsNotNullCheck(w: CapturingWriter) extends Leaf(w) {
    protected def onValue(s: Int): Boolean = true
  }

  final class StartsWithBytes(w: CapturingWriter, prefix: Array[Byte]) extends Leaf(w) {
    protected def onValue(s: Int): Boolean =
      if (s != BytesValue) true
      else if (w.length < prefix.length) false
      else {
        val b = w.bytes
        var i = 0
        while (i < prefix.length && b(i) == prefix(i)) i += 1
        i == prefix.length
      }
  }

  /** `a` (its first `n` bytes) against `b`, as unsigned bytes, then by length: `UTF8String.binaryCompare`. */
  def compareBytes(a: Array[Byte], n: Int, b: Array[Byte]): Int = {
    val m = math.min(n, b.length)
    var i = 0
    while (i < m) {
      val d = (a(i) & 0xff) - (b(i) & 0xff)
      if (d != 0) return d
      i += 1
    }
    n - b.length
  }

  // A literal as the capturing writer keeps values of its kind: Long, Double or Array[Byte]; None for a
  // literal of another class (or null), whose conjunct then passes.
  private def normalize(literal: Any): Option[Any] = literal match {
    case v: java.lang.Boolean => Some(if (v.booleanValue) 1L else 0L)
    case v: java.lang.Byte => Some(v.longValue)
    case v: java.lang.Short => Some(v.longValue)
    case v: java.lang.Integer => Some(v.longValue)
    case v: java.lang.Long => Some(v.longValue)
    case v: java.lang.Float => Some(v.doubleValue)
    case v: java.lang.Double => Some(v.doubleValue)
    case v: UTF8String => Some(v.getBytes)
    case _ => None
  }

  /** Compiles `filter` over the capturing writers `capture` hands out (None: the conjunct passes). */
  def compile(filter: RowFilter, capture: String => Option[CapturingWriter]): Check = filter match {
    case And(children) =>
      children.map(compile(_, capture)).filterNot(_ eq Pass) match {
        case Seq() => Pass
        case Seq(one) => one
        case many => new AllOf(many.toArray)
      }
    case IsNull(c) => capture(c).fold[Check](Pass)(new IsNullCheck(_))
    case IsNotNull(c) => capture(c).fold[Check](Pass)(new IsNotNullCheck(_))
    case StartsWith(c, prefix) =>
      capture(c).filter(_ => prefix != null).fold[Check](Pass)(new StartsWithBytes(_, prefix.getBytes))
    case Compare(c, op, literal) =>
      (capture(c), normalize(literal)) match {
        case (Some(w), Some(v: Long)) => new CompareLong(w, op, v)
        case (Some(w), Some(v: Double)) => new CompareDouble(w, op, v)
        case (Some(w), Some(v: Array[Byte])) => new CompareBytes(w, op, v)
        case _ => Pass
      }
    case In(c, literals) =>
      val values = literals.filter(_ != null).map(normalize)
      capture(c) match {
        case None => Pass
        case Some(_) if values.exists(_.isEmpty) => Pass
        case Some(w) =>
          val vs = values.flatten
          if (vs.forall(_.isInstanceOf[Long])) new InLongs(w, vs.map(_.asInstanceOf[Long]).toArray)
          else if (vs.forall(_.isInstanceOf[Double])) new InDoubles(w, vs.map(_.asInstanceOf[Double]).toArray)
          else if (vs.forall(_.isInstanceOf[Array[Byte]]))
            new InBytes(w, vs.map(_.asInstanceOf[Array[Byte]]).toArray)
          else Pass
      }
  }
}
