package sparkdrill.spark

import org.apache.spark.sql.connector.expressions.{Cast, Expression, Literal, NamedReference}
import org.apache.spark.sql.connector.expressions.filter.{
  And => SparkAnd,
  Not => SparkNot,
  Or => SparkOr,
  Predicate
}
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.reader.RowFilter
import sparkdrill.reader.RowFilter.Op._
import sparkdrill.scan.{ScanTestKit, TableScan}

/** Which of Spark's V2 predicates become a row filter for the readers (issue 15), and which stay Spark's
  * alone: only comparisons of the table's own scalar columns with literals of their type, and ANDs of them.
  */
class RowPredicateTranslatorSuite extends AnyFunSuite with TestFiles {

  private def scan(): TableScan = {
    write(
      "2024/a.csv" -> "i,l,d,f,s,day,ts,b,m,plain\n1,2,3.5,1.5,x,2024-01-02,2024-01-02 03:04:05,true,1.25,p\n"
    )
    ScanTestKit.open(
      Seq(root.toString),
      Seq(
        "header" -> "true",
        "columnNameOfCorruptRecord" -> "_bad",
        "providedSchema" ->
          "i INT, l BIGINT, d DOUBLE, f FLOAT, s STRING, day DATE, ts TIMESTAMP, b BOOLEAN, m DECIMAL(10,2)"
      )
    )
  }

  private def ref(parts: String*): NamedReference = new NamedReference {
    def fieldNames(): Array[String] = parts.toArray
    override def toString: String = parts.mkString(".")
  }

  private def lit(v: Any, t: DataType): Literal[Any] = new Literal[Any] {
    def value(): Any = v
    def dataType(): DataType = t
    override def toString: String = String.valueOf(v)
  }

  private def str(s: String): Literal[Any] = lit(UTF8String.fromString(s), StringType)

  private def p(name: String, children: Expression*): Predicate = new Predicate(name, children.toArray)

  test("comparisons of scalar data columns with literals of their type, either way round") {
    val t = new RowPredicateTranslator(scan())
    import RowFilter._
    assert(t.translate(p(">", ref("i"), lit(5, IntegerType))).contains(Compare("i", Greater, 5)))
    assert(t.translate(p(">", lit(5, IntegerType), ref("i"))).contains(Compare("i", Less, 5)))
    assert(t.translate(p("<=", lit(5, IntegerType), ref("i"))).contains(Compare("i", GreaterOrEqual, 5)))
    assert(t.translate(p("=", ref("I"), lit(5, IntegerType))).contains(Compare("i", Equal, 5)))
    assert(t.translate(p("<>", ref("l"), lit(7L, LongType))).contains(Compare("l", NotEqual, 7L)))
    assert(t.translate(p("<", ref("d"), lit(0.5, DoubleType))).contains(Compare("d", Less, 0.5)))
    val f = t.translate(p(">=", ref("f"), lit(0.5f, FloatType)))
    assert(f.contains(Compare("f", GreaterOrEqual, 0.5f)))
    val s = t.translate(p("=", ref("s"), str("é")))
    assert(s.contains(Compare("s", Equal, UTF8String.fromString("é"))))
    assert(t.translate(p(">", ref("day"), lit(19000, DateType))).contains(Compare("day", Greater, 19000)))
    assert(t.translate(p("<", ref("ts"), lit(1L, TimestampType))).contains(Compare("ts", Less, 1L)))
    assert(t.translate(p("=", ref("b"), lit(true, BooleanType))).contains(Compare("b", Equal, true)))
  }

  test("IN (nulls left out), IS NULL, IS NOT NULL, STARTS_WITH and AND") {
    val t = new RowPredicateTranslator(scan())
    import RowFilter._
    val in = p("IN", ref("s"), str("a"), lit(null, StringType), str("b"))
    assert(t.translate(in).contains(In("s", Seq(UTF8String.fromString("a"), UTF8String.fromString("b")))))
    assert(t.translate(p("IN", ref("i"), lit(null, IntegerType))).contains(In("i", Nil)))
    assert(t.translate(p("IS_NULL", ref("d"))).contains(IsNull("d")))
    assert(t.translate(p("IS_NOT_NULL", ref("ts"))).contains(IsNotNull("ts")))
    val starts = t.translate(p("STARTS_WITH", ref("s"), str("ab")))
    assert(starts.contains(StartsWith("s", UTF8String.fromString("ab"))))
    val both = new SparkAnd(p(">", ref("i"), lit(1, IntegerType)), p("IS_NOT_NULL", ref("s")))
    assert(t.translate(both).contains(And(Seq(Compare("i", Greater, 1), IsNotNull("s")))))
  }

  test("NOT of a comparison is the negated comparison (Spark writes != so); NOT of a null test flips it") {
    val t = new RowPredicateTranslator(scan())
    def not(q: Predicate) = t.translate(new SparkNot(q))
    assert(not(p("=", ref("i"), lit(3, IntegerType))).contains(RowFilter.Compare("i", NotEqual, 3)))
    assert(not(p("<>", ref("i"), lit(3, IntegerType))).contains(RowFilter.Compare("i", Equal, 3)))
    assert(not(p("<", ref("i"), lit(3, IntegerType))).contains(RowFilter.Compare("i", GreaterOrEqual, 3)))
    assert(not(p("<=", ref("i"), lit(3, IntegerType))).contains(RowFilter.Compare("i", Greater, 3)))
    assert(not(p(">", ref("i"), lit(3, IntegerType))).contains(RowFilter.Compare("i", LessOrEqual, 3)))
    assert(not(p(">=", ref("i"), lit(3, IntegerType))).contains(RowFilter.Compare("i", Less, 3)))
    assert(not(p("IS_NULL", ref("i"))).contains(RowFilter.IsNotNull("i")))
    assert(not(p("IS_NOT_NULL", ref("i"))).contains(RowFilter.IsNull("i")))
  }

  test("anything else is left to Spark alone") {
    val table = scan()
    val t = new RowPredicateTranslator(table)
    val iGt1 = p(">", ref("i"), lit(1, IntegerType))
    val untranslated = Seq(
      new SparkOr(iGt1, p("IS_NULL", ref("i"))),
      new SparkNot(p("IN", ref("i"), lit(1, IntegerType))), // NOT IN: nulls in the list make it subtle
      new SparkNot(new SparkOr(iGt1, iGt1)),
      new SparkAnd(iGt1, p(">", ref("i"), ref("l"))), // one side compares two columns
      p(">", new Cast(ref("i"), LongType), lit(1L, LongType)), // a cast
      p(">", ref("i"), lit(1L, LongType)), // a literal of another type
      p(">", ref("i"), lit(null, IntegerType)), // a null literal: never TRUE, left to Spark
      p("IN", ref("i"), lit(1, IntegerType), lit(2L, LongType)),
      p("=", ref("m"), lit(Decimal(1), DecimalType(10, 2))), // decimal: not compared by the readers
      p("=", ref("plain", "x"), str("a")), // a nested field
      p("=", ref("nowhere"), str("a")), // no such column
      p("=", ref("dir0"), str("2024")), // a partition column: a file predicate instead
      p("=", ref("filename"), str("a.csv")), // an implicit column: a file predicate instead
      p("IS_NOT_NULL", ref("_bad")), // the corrupt-record column, which the readers fill themselves
      p("ENDS_WITH", ref("s"), str("x")),
      p("<=>", ref("i"), lit(1, IntegerType))
    )
    untranslated.zipWithIndex.foreach { case (u, k) => assert(t.translate(u).isEmpty, s"predicate $k") }
    // The per-file ones still prune files.
    val files = new PredicateTranslator(table)
    assert(files.translate(p("=", ref("dir0"), str("2024"))).isDefined)
    assert(files.translate(p("=", ref("i"), lit(1, IntegerType))).isEmpty)
  }

  test("the scan builder hands every predicate back and reports the file and row ones as pushed") {
    val opened = scan()
    val options = CaseInsensitiveStringMap.empty()
    val builder =
      new DrillScanBuilder(new DrillTable(options, None, fromCatalog = false, () => opened), options)
    val rowOne = p(">", ref("i"), lit(1, IntegerType))
    val fileOne = p("=", ref("dir0"), str("2024"))
    val neither = new SparkOr(rowOne, fileOne)
    val pushed = Array[Predicate](rowOne, fileOne, neither)
    assert(builder.pushPredicates(pushed).toSeq == pushed.toSeq)
    assert(builder.pushedPredicates().toSet == Set[Predicate](rowOne, fileOne))
  }
}
