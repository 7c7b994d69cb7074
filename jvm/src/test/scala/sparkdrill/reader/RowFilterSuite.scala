package sparkdrill.reader

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, ObjectInputStream, ObjectOutputStream}
import java.nio.charset.StandardCharsets.UTF_8

import org.apache.spark.memory.MemoryMode
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.loader.{ColumnWriter, LoaderOptions, ProjectionFilter, ResultSetLoaders}

/** The row filter's verdicts (issue 15) on values written through real loader writers: every operator and
  * type, SQL nulls, NaN, -0.0, UTF-8 byte order, columns it cannot see, and conjunctions. A verdict of false
  * drops a row before Spark sees it, so every case where the predicate could be TRUE must say true.
  */
class RowFilterSuite extends AnyFunSuite {
  import RowFilter._
  import RowFilter.Op._

  private val schema = StructType(
    Seq(
      StructField("b", BooleanType),
      StructField("i8", ByteType),
      StructField("i16", ShortType),
      StructField("i", IntegerType),
      StructField("l", LongType),
      StructField("f", FloatType),
      StructField("d", DoubleType),
      StructField("s", StringType),
      StructField("day", DateType),
      StructField("ts", TimestampType),
      StructField("ntz", TimestampNTZType),
      StructField("nn", IntegerType, nullable = false),
      StructField("dec", DecimalType(10, 2)),
      StructField("hidden", IntegerType)
    )
  )

  // Every column but `hidden`, which gets a dummy writer.
  private val projection = new ProjectionFilter {
    def isProjected(name: String): Boolean = !name.equalsIgnoreCase("hidden")
    def member(name: String): ProjectionFilter = ProjectionFilter.All
  }

  private def set(w: ColumnWriter, v: Any): Unit = (v, w.dataType) match {
    case (null, _) => w.setNull()
    case (x: Boolean, _) => w.setBoolean(x)
    case (x: Int, DateType) => w.setDate(x)
    case (x: Int, _) => w.setInt(x)
    case (x: Long, TimestampType | TimestampNTZType) => w.setTimestamp(x)
    case (x: Long, _) => w.setLong(x)
    case (x: Double, _) => w.setDouble(x)
    case (x: String, _) => w.setString(x)
    case (x: Array[Byte], _) => w.setBytes(x, 0, x.length)
    case (x: BigDecimal, _) => w.setDecimal(Decimal(x))
    case (x, t) => fail(s"cannot write $x as ${t.simpleString}")
  }

  /** The verdict of `filter` on one record that writes `values` (column -> value); other columns are left
    * unwritten. Filter columns go through the filter's writers, as readers write them.
    */
  private def passes(filter: RowFilter, values: (String, Any)*): Boolean = {
    val loader = ResultSetLoaders.create(LoaderOptions(memoryMode = MemoryMode.ON_HEAP), schema, projection)
    try {
      val row = loader.writer
      val bound = RowFilter.bind(filter, row)
      row.start()
      bound.reset()
      values.foreach { case (c, v) => set(bound.writer(c).getOrElse(row.column(c)), v) }
      bound.passes()
    } finally loader.close()
  }

  /** Whether `op` holds for a comparison with this sign. */
  private def expected(op: Op, sign: Int): Boolean = op match {
    case Equal => sign == 0
    case NotEqual => sign != 0
    case Less => sign < 0
    case LessOrEqual => sign <= 0
    case Greater => sign > 0
    case GreaterOrEqual => sign >= 0
  }

  /** Each operator on a value that compares with the literal as `sign` says. */
  private def checkSign(column: String, literal: Any, value: Any, sign: Int): Unit =
    for (op <- Op.all)
      assert(
        passes(Compare(column, op, literal), column -> value) == expected(op, sign),
        s"$column: $value ${op.symbol} $literal"
      )

  /** Each operator against a value below, equal to and above the literal. */
  private def checkOrdered(column: String, literal: Any, below: Any, equal: Any, above: Any): Unit = {
    checkSign(column, literal, below, -1)
    checkSign(column, literal, equal, 0)
    checkSign(column, literal, above, 1)
  }

  test("every comparison on every integral kind, date and timestamps") {
    checkOrdered("i", 5, 4, 5, 6)
    checkOrdered("i", -1, Int.MinValue, -1, Int.MaxValue)
    checkOrdered("l", 5L, 4L, 5L, Long.MaxValue)
    checkOrdered("l", Long.MinValue + 1, Long.MinValue, Long.MinValue + 1, 0L)
    checkOrdered("i8", 3.toByte, 2, 3, 127)
    checkOrdered("i16", (-300).toShort, -301, -300, 300)
    checkOrdered("day", 19000, 18999, 19000, 19001) // days since 1970-01-01
    checkOrdered("ts", 1700000000000000L, 1699999999999999L, 1700000000000000L, 1700000000000001L)
    checkOrdered("ntz", 0L, -1L, 0L, 1L)
    // false < true, as Spark orders booleans.
    checkSign("b", true, false, -1)
    checkSign("b", true, true, 0)
    checkSign("b", false, false, 0)
    checkSign("b", false, true, 1)
  }

  test("doubles compare as primitives: -0.0 equals 0.0; NaN on either side never rejects") {
    checkOrdered("d", 1.5, 1.25, 1.5, 1.75)
    checkOrdered("d", 0.0, -1e-300, -0.0, Double.MinPositiveValue)
    checkOrdered("d", -0.0, Double.NegativeInfinity, 0.0, Double.PositiveInfinity)
    for (op <- Op.all) {
      assert(passes(Compare("d", op, 1.0), "d" -> Double.NaN), s"NaN ${op.symbol} 1.0")
      assert(passes(Compare("d", op, Double.NaN), "d" -> 1.0), s"1.0 ${op.symbol} NaN")
      assert(passes(Compare("d", op, Double.NaN), "d" -> Double.NaN), s"NaN ${op.symbol} NaN")
    }
    assert(passes(In("d", Seq(1.0, Double.NaN)), "d" -> 2.0))
    assert(passes(In("d", Seq(1.0)), "d" -> Double.NaN))
    assert(passes(In("d", Seq(0.0)), "d" -> -0.0))
    assert(!passes(In("d", Seq(1.0, 3.0)), "d" -> 2.0))
  }

  test("a float column compares the value its vector keeps, narrowed to float") {
    // 0.1 written as a double is stored as 0.1f, which equals the float literal 0.1f (and not 0.1).
    assert(passes(Compare("f", Equal, 0.1f), "f" -> 0.1))
    assert(!passes(Compare("f", Equal, 0.1f), "f" -> 0.2))
    checkOrdered("f", 2.5f, 2.25, 2.5, 2.75)
    assert(passes(Compare("f", Less, 1.0f), "f" -> Double.NaN))
  }

  test("strings compare as unsigned UTF-8 bytes (Spark's binary order), not as UTF-16") {
    def s(text: String) = UTF8String.fromString(text)
    checkOrdered("s", s("b"), "a", "b", "c")
    checkOrdered("s", s("ab"), "a", "ab", "abc") // a prefix sorts first
    checkOrdered("s", s("z"), "Z", "z", "é") // é is C3 A9: above every ASCII byte
    // U+1F600 (F0 9F 98 80) sorts above U+FFFD (EF BF BD) in UTF-8 and code point order; Java's String
    // compareTo puts it below (its first UTF-16 unit, D83D, is below FFFD).
    assert("\uD83D\uDE00".compareTo("\uFFFD") < 0)
    checkOrdered("s", s("\uFFFD"), "\uD7FF", "\uFFFD", "\uD83D\uDE00")
    checkOrdered("s", s("a"), "", "a", "b") // "" is the least string
  }

  test("strings written as bytes: the filter keeps its own copy of the bytes") {
    val buffer = "xxhelloyy".getBytes(UTF_8)
    val loader = ResultSetLoaders.create(LoaderOptions(memoryMode = MemoryMode.ON_HEAP), schema, projection)
    try {
      val row = loader.writer
      val bound = RowFilter.bind(Compare("s", Equal, UTF8String.fromString("hello")), row)
      row.start()
      bound.reset()
      bound.writer("s").get.setBytes(buffer, 2, 5)
      java.util.Arrays.fill(buffer, 'q'.toByte) // a reader may reuse its buffer once the setter returns
      assert(bound.passes())
    } finally loader.close()
  }

  test("IN, STARTS_WITH, IS NULL and IS NOT NULL") {
    def s(text: String) = UTF8String.fromString(text)
    assert(passes(In("i", Seq(1, 5, 9)), "i" -> 5))
    assert(!passes(In("i", Seq(1, 9)), "i" -> 5))
    assert(passes(In("l", Seq(7L, null)), "l" -> 7L)) // a null literal never matches, the others still do
    assert(!passes(In("l", Seq(null)), "l" -> 7L))
    assert(passes(In("s", Seq(s("é"), s("b"))), "s" -> "é"))
    assert(!passes(In("s", Seq(s("é"), s("b"))), "s" -> "e"))
    assert(passes(In("day", Seq(19000)), "day" -> 19000))
    assert(passes(StartsWith("s", s("ab")), "s" -> "abc"))
    assert(passes(StartsWith("s", s("abc")), "s" -> "abc"))
    assert(passes(StartsWith("s", s("")), "s" -> "x"))
    assert(!passes(StartsWith("s", s("abc")), "s" -> "ab"))
    assert(!passes(StartsWith("s", s("b")), "s" -> "abc"))
    assert(passes(StartsWith("s", s("é")), "s" -> "éte"))
    assert(!passes(StartsWith("s", s("é")), "s" -> "e\u0301")) // e + combining acute: other bytes
    assert(passes(IsNull("i"), "i" -> null))
    assert(!passes(IsNull("i"), "i" -> 0))
    assert(passes(IsNotNull("s"), "s" -> ""))
    assert(!passes(IsNotNull("s"), "s" -> null))
  }

  test("a null value fails every comparison, IN and STARTS_WITH, as WHERE drops it") {
    for (op <- Op.all) {
      assert(!passes(Compare("i", op, 5), "i" -> null), op.symbol)
      assert(!passes(Compare("d", op, Double.NaN), "d" -> null), op.symbol)
      assert(!passes(Compare("s", op, UTF8String.fromString("a")), "s" -> null), op.symbol)
    }
    assert(!passes(In("i", Seq(1)), "i" -> null))
    assert(!passes(StartsWith("s", UTF8String.fromString("")), "s" -> null))
  }

  test("an unwritten nullable column is null; an unwritten NOT NULL one is unknown, so it passes") {
    assert(!passes(Compare("i", Greater, 5)))
    assert(passes(IsNull("i")))
    assert(!passes(IsNotNull("s")))
    assert(passes(Compare("nn", Greater, 5))) // the loader (or the scan's fill) gives it a value
    assert(passes(Compare("nn", Less, 5)))
    assert(!passes(Compare("nn", Greater, 5), "nn" -> 1))
  }

  test("the last value written in a record counts") {
    val loader = ResultSetLoaders.create(LoaderOptions(memoryMode = MemoryMode.ON_HEAP), schema, projection)
    try {
      val row = loader.writer
      val bound = RowFilter.bind(Compare("i", Greater, 5), row)
      val w = bound.writer("i").get
      row.start()
      bound.reset()
      w.setInt(1)
      assert(!bound.passes())
      w.setInt(10)
      assert(bound.passes())
      w.setNull()
      assert(!bound.passes())
      // The next record starts unwritten.
      row.start()
      bound.reset()
      assert(!bound.passes())
      w.setInt(6)
      assert(bound.passes())
    } finally loader.close()
  }

  test("conjuncts it cannot judge pass: columns it lacks, unprojected ones, other types, other literals") {
    assert(passes(Compare("nowhere", Equal, 1), "i" -> 1))
    assert(passes(Compare("hidden", Equal, 1), "hidden" -> 2)) // a dummy writer: not bound
    assert(passes(Compare("dec", Equal, 1), "dec" -> BigDecimal(2))) // decimal: not compared
    assert(passes(Compare("i", Equal, "not an int"), "i" -> 1))
    assert(passes(Compare("i", Equal, null), "i" -> 1))
    // A column the file lacks (the scan fills it after the reader) is not bound at all.
    val loader = ResultSetLoaders.create(LoaderOptions(memoryMode = MemoryMode.ON_HEAP), schema, projection)
    try {
      val bound = RowFilter.bind(And(Seq(Compare("i", Equal, 1), IsNull("s"))), loader.writer, _ == "s")
      assert(bound.columns == Set("s"))
      assert(bound.writer("i").isEmpty)
      loader.writer.start()
      bound.reset()
      loader.writer.column("i").setInt(2)
      assert(bound.passes())
    } finally loader.close()
  }

  test("AND fails when any conjunct fails, and only then") {
    val both = And(Seq(Compare("i", GreaterOrEqual, 1), Compare("s", Equal, UTF8String.fromString("x"))))
    assert(passes(both, "i" -> 1, "s" -> "x"))
    assert(!passes(both, "i" -> 0, "s" -> "x"))
    assert(!passes(both, "i" -> 1, "s" -> "y"))
    assert(passes(And(Seq(both, Compare("nowhere", Equal, 1))), "i" -> 1, "s" -> "x"))
    assert(passes(And(Nil), "i" -> 1))
    assert(RowFilter.all(Nil).isEmpty)
    assert(RowFilter.all(Seq(IsNull("a"))).contains(IsNull("a")))
    val flat = RowFilter.all(Seq(IsNull("a"), And(Seq(IsNull("b"), IsNull("c")))))
    assert(flat.contains(And(Seq(IsNull("a"), IsNull("b"), IsNull("c")))))
  }

  test("the capturing writer forwards every value to the loader") {
    val loader = ResultSetLoaders.create(LoaderOptions(memoryMode = MemoryMode.ON_HEAP), schema, projection)
    try {
      val row = loader.writer
      val filter = And(Seq(IsNotNull("s"), IsNotNull("i"), IsNotNull("d"), IsNotNull("day"), IsNotNull("f")))
      val bound = RowFilter.bind(filter, row)
      assert(bound.columns == Set("s", "i", "d", "day", "f"))
      row.start()
      bound.writer("s").get.setString("héllo")
      bound.writer("i").get.setInt(42)
      bound.writer("d").get.setDouble(-0.5)
      bound.writer("day").get.setDate(7)
      bound.writer("f").get.setDouble(0.1)
      row.save()
      val batch = loader.harvest()
      val at = (name: String) => batch.column(loader.projectedSchema.fieldIndex(name))
      assert(batch.numRows == 1)
      assert(at("s").getUTF8String(0).toString == "héllo")
      assert(at("i").getInt(0) == 42)
      assert(at("d").getDouble(0) == -0.5)
      assert(at("day").getInt(0) == 7)
      assert(at("f").getFloat(0) == 0.1f)
    } finally loader.close()
  }

  test("with forwarding off the filter judges what it keeps and the loader gets nothing, not even a row") {
    val loader = ResultSetLoaders.create(LoaderOptions(memoryMode = MemoryMode.ON_HEAP), schema, projection)
    try {
      val row = loader.writer
      val bound =
        RowFilter.bind(And(Seq(Compare("l", Greater, 5L), StartsWith("s", UTF8String.fromString("a")))), row)
      def judge(l: Long, s: String): Boolean = {
        bound.reset()
        bound.forwarding = false
        try {
          set(bound.writer("l").get, l)
          set(bound.writer("s").get, s)
        } finally bound.forwarding = true
        bound.passes()
      }
      assert(!judge(3L, "abc") && !judge(9L, "xyz") && judge(9L, "abc"))
      val struct = bound.writer("l").get.asInstanceOf[CapturingWriter]
      struct.forwarding = false
      assertThrows[IllegalStateException](struct.array) // nothing may reach the loader without a row
      struct.forwarding = true
      // The reader starts the row and writes the record whole, the filter columns forwarded; nothing the
      // judging wrote is in it (`s` was last "abc" there, and is not written now).
      row.start()
      bound.reset()
      set(bound.writer("l").get, 7L)
      row.save()
      val batch = loader.harvest()
      assert(batch.numRows == 1)
      assert(batch.column(loader.projectedSchema.fieldIndex("l")).getLong(0) == 7L)
      assert(batch.column(loader.projectedSchema.fieldIndex("s")).isNullAt(0))
    } finally loader.close()
  }

  test("a row filter survives Java serialization (it ships to executors in the scan spec)") {
    val filter = And(
      Seq(
        Compare("s", GreaterOrEqual, UTF8String.fromString("é")),
        In("l", Seq(1L, 2L)),
        StartsWith("s", UTF8String.fromString("a")),
        IsNull("d"),
        IsNotNull("day")
      )
    )
    val bytes = new ByteArrayOutputStream()
    val out = new ObjectOutputStream(bytes)
    out.writeObject(filter)
    out.close()
    val copy = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray)).readObject()
    assert(copy == filter)
    assert(copy.asInstanceOf[RowFilter].columns == Set("s", "l", "d", "day"))
  }
}
