package sparkdrill.loader

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.loader.testkit.LoaderTestKit._

/** A value that would push a vector past `batchBytes` moves its whole row to the next batch. The scenarios
  * a..h are those of Drill's overflow notes (seed 001): rows n-2, n-1 and n, where b's value in row n
  * overflows.
  */
class OverflowSuite extends AnyFunSuite {

  /** Writes the three rows of the scenario table and returns the two batches as rows of a..h. */
  private def scenario(): (Seq[Seq[Any]], Seq[Seq[Any]], Long) = {
    val schema = StructType("abcdef".map(c => StructField(c.toString, StringType)))
    val l = ResultSetLoaders.create(LoaderOptions(batchBytes = 20), schema, ProjectionFilter.All)
    try {
      val w = l.writer
      def set(c: String, v: String): Unit = w.column(c).setString(v)
      w.start(); "abcdef".foreach(c => set(c.toString, s"${c}0")); set("b", "b0______"); w.save()
      w.start(); "abcd".foreach(c => set(c.toString, s"${c}1")); set("b", "b1______"); w.save()
      assert(!w.isFull)
      w.start()
      set("a", "a2")
      set("b", "b2______") // 24 bytes in b: overflow
      assert(w.isFull, "the batch is full once a value overflows")
      set("c", "c2")
      set("e", "e2")
      w.addColumn(StructField("g", StringType)).setString("g2")
      w.addColumn(StructField("h", StringType))
      w.save()
      val first = rows(l.harvest(), l.projectedSchema)
      val second = rows(l.harvest(), l.projectedSchema)
      (first, second, l.overflowRows)
    } finally l.close()
  }

  private lazy val (before, after, moved) = scenario()
  private def column(c: Char): (Seq[Any], Seq[Any]) = {
    val i = c - 'a'
    (before.map(_(i)), after.map(_(i)))
  }

  test("the harvested batch holds rows n-2 and n-1 complete; row n opens the next batch") {
    assert(before.size == 2 && after.size == 1 && moved == 1)
  }
  test("a: written before the overflow in row n, it moves with the row") {
    assert(column('a') == (Seq("a0", "a1"), Seq("a2")))
  }
  test("b: the value that overflowed is written in the next batch") {
    assert(column('b') == (Seq("b0______", "b1______"), Seq("b2______")))
  }
  test("c: written after the overflow, it goes to the next batch") {
    assert(column('c') == (Seq("c0", "c1"), Seq("c2")))
  }
  test("d: values in n-2 and n-1, none in row n: null there") {
    assert(column('d') == (Seq("d0", "d1"), Seq(null)))
  }
  test("e: no value in n-1 (filled), a value after the overflow in row n") {
    assert(column('e') == (Seq("e0", null), Seq("e2")))
  }
  test("f: no value in n-1 nor in row n: both filled") {
    assert(column('f') == (Seq("f0", null), Seq(null)))
  }
  test("g: added during the overflow row with a value: null in the harvested batch, the value after") {
    assert(column('g') == (Seq(null, null), Seq("g2")))
  }
  test("h: added during the overflow row without a value: null in both") {
    assert(column('h') == (Seq(null, null), Seq(null)))
  }

  /** Writes rows through a tiny byte limit and checks every row arrives once, in order, whole. */
  private def roundTrip(
      schema: StructType,
      data: Seq[Seq[Any]],
      batchBytes: Long,
      batchRows: Int = 4096
  ): Seq[Int] = {
    val l = ResultSetLoaders.create(
      LoaderOptions(batchRows = batchRows, batchBytes = batchBytes),
      schema,
      ProjectionFilter.All
    )
    try {
      val (out, sizes) = collect(l, data)
      assert(out.size == data.size, "every row arrives once")
      val firstWrong = out.zip(data).indexWhere { case (a, b) => a != b }
      assert(
        firstWrong < 0,
        s"row $firstWrong: ${out(math.max(firstWrong, 0))} != ${data(math.max(firstWrong, 0))}"
      )
      assert(l.overflowRows > 0, "the byte limit was reached")
      sizes
    } finally l.close()
  }

  test("overflow inside an array moves the elements already written") {
    val schema = new StructType().add("id", IntegerType).add("tags", ArrayType(StringType))
    val data = (0 until 40).map(i => Seq(i, (0 until i % 5).map(k => s"t$i-$k")))
    roundTrip(schema, data, batchBytes = 60)
  }

  test("overflow inside an array of structs") {
    val elem = new StructType().add("k", IntegerType).add("s", StringType)
    val schema = new StructType().add("id", IntegerType).add("items", ArrayType(elem))
    val data = (0 until 40).map(i => Seq(i, (0 until 1 + i % 4).map(k => testkit.S(k, s"v$i.$k"))))
    roundTrip(schema, data, batchBytes = 50)
  }

  test("overflow two levels deep: arrays of structs holding arrays") {
    val inner = new StructType().add("name", StringType).add("xs", ArrayType(StringType))
    val schema =
      new StructType().add("id", IntegerType).add("m", new StructType().add("items", ArrayType(inner)))
    val data = (0 until 30).map { i =>
      Seq(
        i,
        testkit.S((0 until 1 + i % 3).map(k => testkit.S(s"n$i$k", (0 until k + 1).map(j => s"x$i$k$j"))))
      )
    }
    roundTrip(schema, data, batchBytes = 64)
  }

  test("overflow in a map value") {
    val schema = new StructType().add("id", IntegerType).add("m", MapType(StringType, StringType))
    val data = (0 until 30).map(i => Seq(i, testkit.M((0 until i % 4).map(k => s"k$k" -> s"value$i$k"): _*)))
    roundTrip(schema, data, batchBytes = 48)
  }

  test("a row larger than the limit travels alone in its own batch, also as a batch's first row") {
    val schema = new StructType().add("s", StringType)
    val big = "x" * 100
    val data = Seq(Seq(big), Seq("a"), Seq("b"), Seq(big), Seq("c"))
    val l = ResultSetLoaders.create(LoaderOptions(batchBytes = 10), schema, ProjectionFilter.All)
    try {
      val (out, sizes) = collect(l, data)
      assert(out == data)
      assert(sizes == Seq(1, 2, 1, 1))
    } finally l.close()
  }

  test("many consecutive overflows lose and repeat nothing") {
    val schema = new StructType().add("id", IntegerType).add("s", StringType).add("t", ArrayType(IntegerType))
    val rng = new scala.util.Random(3)
    val data = (0 until 2000).map(i => Seq(i, "v" * rng.nextInt(40), (0 until rng.nextInt(6)).map(_ * i)))
    val sizes = roundTrip(schema, data, batchBytes = 64)
    assert(sizes.size > 500, s"${sizes.size} batches")
  }

  test("the row limit and the byte limit together") {
    val schema = new StructType().add("s", StringType)
    val data = (0 until 100).map(i => Seq("x" * (i % 7)))
    val sizes = roundTrip(schema, data, batchBytes = 12, batchRows = 3)
    assert(sizes.forall(_ <= 3))
  }

  test("batches are reused: the same vectors come back after an overflow pair") {
    val schema = new StructType().add("s", StringType)
    val l = ResultSetLoaders.create(LoaderOptions(batchBytes = 8), schema, ProjectionFilter.All)
    try {
      val seen = ArrayBuffer.empty[AnyRef]
      (0 until 10).foreach { i =>
        writeRow(l, s"v$i-x")
        if (l.writer.isFull) seen += l.harvest().column(0)
      }
      assert(seen.distinct.size == 2, "two vectors alternate: the active one and the look-aside one")
    } finally l.close()
  }
}
