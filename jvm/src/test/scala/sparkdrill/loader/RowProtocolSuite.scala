package sparkdrill.loader

import org.apache.spark.memory.MemoryMode
import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.loader.testkit.LoaderTestKit._

class RowProtocolSuite extends AnyFunSuite {
  private val schema = new StructType().add("a", IntegerType).add("b", StringType)

  private def loader(rows: Int = 4096) =
    ResultSetLoaders.create(LoaderOptions(batchRows = rows), schema, ProjectionFilter.All)

  test("a row started and not saved is discarded by the next start") {
    val l = loader()
    try {
      writeRow(l, 1, "one")
      l.writer.start(); l.writer.column(0).setInt(99); l.writer.column(1).setString("dropped")
      writeRow(l, 2, null)
      assert(rows(l.harvest(), l.projectedSchema) == Seq(Seq(1, "one"), Seq(2, null)))
    } finally l.close()
  }

  test("a null written in a row that is then discarded does not stick to the value written again there") {
    val l = loader(rows = 2)
    try
      for (batch <- 0 until 3) { // and again after each harvest, in reset vectors
        l.writer.start(); l.writer.column(0).setNull(); l.writer.column(1).setNull()
        l.writer.start(); l.writer.column(0).setInt(batch); l.writer.column(1).setString(s"b$batch")
        l.writer.save()
        l.writer.start(); l.writer.column(0).setNull(); l.writer.column(1).setNull(); l.writer.save()
        assert(rows(l.harvest(), l.projectedSchema) == Seq(Seq(batch, s"b$batch"), Seq(null, null)))
      }
    finally l.close()
  }

  private val everyKind = new StructType()
    .add("i", IntegerType)
    .add("l", LongType)
    .add("d", DoubleType)
    .add("b", BooleanType)
    .add("s", StringType)
    .add("dec", DecimalType(10, 2))
    .add("st", new StructType().add("x", IntegerType).add("y", StringType))
    .add("arr", ArrayType(StringType))
    .add("m", MapType(StringType, IntegerType))
  private val everyValue =
    Seq(
      1,
      2L,
      1.5,
      true,
      "s",
      BigDecimal("1.25"),
      testkit.S(3, "y"),
      Seq("e", null, "f"),
      testkit.M("k" -> 4)
    )
  private val everyNull = Seq(
    null,
    null,
    null,
    null,
    null,
    null,
    testkit.S(null, null),
    Seq(null, null),
    testkit.M("k" -> null)
  )

  test("a null set in a discarded row does not stay on the next row's values, at any depth") {
    val l = ResultSetLoaders.create(LoaderOptions(), everyKind, ProjectionFilter.All)
    try {
      writeRow(l, everyValue: _*)
      // Whole values set to null, then members and elements set to null, each row discarded.
      l.writer.start(); everyKind.indices.foreach(i => l.writer.column(i).setNull())
      l.writer.start(); everyNull.zipWithIndex.foreach { case (v, i) => write(l.writer.column(i), v) }
      writeRow(l, everyValue: _*)
      l.writer.start(); everyKind.indices.foreach(i => l.writer.column(i).setNull())
      assert(rows(l.harvest(), l.projectedSchema) == Seq(everyValue, everyValue))
      // The same once the vectors were reset for a new batch.
      l.writer.start(); everyKind.indices.foreach(i => l.writer.column(i).setNull())
      writeRow(l, everyValue: _*)
      assert(rows(l.harvest(), l.projectedSchema) == Seq(everyValue))
    } finally l.close()
  }

  test("a scalar set to null and then to a value in the same row keeps the value, and the reverse") {
    // NOT NULL columns too: setNull puts a null in them, as it always has.
    val schema = new StructType()
      .add("a", IntegerType)
      .add("b", StringType)
      .add("n", IntegerType, nullable = false)
      .add("t", StringType, nullable = false)
    val l = ResultSetLoaders.create(LoaderOptions(), schema, ProjectionFilter.All)
    try {
      val w = l.writer
      def nullThen(i: Int, v: Any): Unit = { w.column(i).setNull(); write(w.column(i), v) }
      def thenNull(i: Int, v: Any): Unit = { write(w.column(i), v); w.column(i).setNull() }
      w.start(); nullThen(0, 5); nullThen(1, "v"); nullThen(2, 5); nullThen(3, "v"); w.save()
      w.start(); thenNull(0, 6); thenNull(1, "w"); thenNull(2, 6); thenNull(3, "w"); w.save()
      w.start(); w.column(2).setNull(); w.column(3).setNull() // discarded
      writeRow(l, 7, "x", 7, "x")
      assert(
        rows(l.harvest(), l.projectedSchema) ==
          Seq(Seq(5, "v", 5, "v"), Seq(null, null, null, null), Seq(7, "x", 7, "x"))
      )
    } finally l.close()
  }

  test("a null in a row moved by an overflow and then discarded does not stay on the next row") {
    val schema = new StructType()
      .add("a", IntegerType)
      .add("st", new StructType().add("x", IntegerType))
      .add("s", StringType)
    val l = ResultSetLoaders.create(LoaderOptions(batchBytes = 8), schema, ProjectionFilter.All)
    try {
      val w = l.writer
      writeRow(l, 1, testkit.S(1), "abcd")
      w.start(); w.column(0).setNull(); w.column(1).setNull(); w.column(2).setString("overflows")
      assert(l.overflowRows == 1)
      writeRow(l, 2, testkit.S(2), "efgh")
      assert(w.isFull)
      assert(rows(l.harvest(), l.projectedSchema) == Seq(Seq(1, testkit.S(1), "abcd")))
      assert(rows(l.harvest(), l.projectedSchema) == Seq(Seq(2, testkit.S(2), "efgh")))
    } finally l.close()
  }

  test("a column written only in a discarded row is empty in the row saved instead, also in the last row") {
    val schema = new StructType()
      .add("a", IntegerType)
      .add("b", StringType)
      .add("n", IntegerType, nullable = false)
      .add("t", StringType, nullable = false)
    val l = ResultSetLoaders.create(LoaderOptions(batchRows = 3), schema, ProjectionFilter.All)
    try {
      def discarded(): Unit = {
        l.writer.start()
        write(l.writer.column(0), 9); write(l.writer.column(1), "dropped")
        write(l.writer.column(2), 9); write(l.writer.column(3), "dropped")
      }
      writeRow(l, 1, "x", 1, "x")
      discarded()
      writeRow(l, Skip, Skip, Skip, Skip)
      discarded()
      writeRow(l, 3, Skip, Skip, "z")
      assert(l.writer.isFull)
      assert(
        rows(l.harvest(), l.projectedSchema) ==
          Seq(Seq(1, "x", 1, "x"), Seq(null, null, 0, ""), Seq(3, null, 0, "z"))
      )
      discarded()
      writeRow(l, Skip, "y", Skip, Skip)
      assert(rows(l.harvest(), l.projectedSchema) == Seq(Seq(null, "y", 0, "")))
    } finally l.close()
  }

  test("the last row of a batch, started and not saved, is not harvested") {
    val l = loader()
    try {
      writeRow(l, 1, "x")
      l.writer.start(); l.writer.column(1).setString("never saved")
      assert(l.rowCount == 1)
      assert(rows(l.harvest(), l.projectedSchema) == Seq(Seq(1, "x")))
    } finally l.close()
  }

  test("a batch is full at the row limit, and vectors are reused by the next batch") {
    val l = loader(rows = 3)
    try {
      val (out, sizes) = collect(l, (1 to 7).map(i => Seq(i, s"v$i")))
      assert(out == (1 to 7).map(i => Seq(i, s"v$i")))
      assert(sizes == Seq(3, 3, 1))
      assert(l.batchCount == 3)
    } finally l.close()
  }

  test("a reader that writes on past a full batch keeps every row and value, of every scalar kind") {
    val mixed = new StructType()
      .add("i", IntegerType)
      .add("n", IntegerType, nullable = false)
      .add("l", LongType)
      .add("d", DoubleType)
      .add("f", BooleanType)
      .add("s", StringType)
    for (mode <- Seq(MemoryMode.OFF_HEAP, MemoryMode.ON_HEAP)) {
      val l =
        ResultSetLoaders.create(LoaderOptions(batchRows = 5, memoryMode = mode), mixed, ProjectionFilter.All)
      try {
        // Rows past the row limit (isFull ignored) go through the writers' slow path: vectors grow past
        // `batchRows`, and every third row leaves columns out, so fills happen past the limit too.
        val expected = (0 until 17).map { r =>
          if (r % 3 == 2) Seq(null, 0, null, null, null, s"only s $r")
          else Seq(r, -r, r.toLong << 33, r + 0.5, r % 2 == 0, s"row $r")
        }
        expected.zipWithIndex.foreach { case (row, r) =>
          if (r % 3 == 2) writeRow(l, Skip, Skip, Skip, Skip, Skip, row(5)) else writeRow(l, row: _*)
          assert(l.writer.isFull == (r >= 4), s"isFull after row $r")
        }
        assert(rows(l.harvest(), l.projectedSchema) == expected, s"$mode")
        writeRow(l, 1, 2, 3L, 4.0, true, "next batch") // and the next batch starts on the fast path again
        assert(rows(l.harvest(), l.projectedSchema) == Seq(Seq(1, 2, 3L, 4.0, true, "next batch")))
      } finally l.close()
    }
  }

  test("an empty batch has no rows; columns unwritten in a row are null") {
    val l = loader()
    try {
      assert(l.harvest().numRows == 0)
      writeRow(l, Skip, "b only")
      assert(rows(l.harvest(), l.projectedSchema) == Seq(Seq(null, "b only")))
    } finally l.close()
  }

  test("writers are the same objects each time, by index and by name (case-insensitive)") {
    val l = loader()
    try {
      assert(l.writer.column(0) eq l.writer.column("A"))
      assert(l.writer.column("b") eq l.writer.column(1))
      val e = intercept[IllegalArgumentException](l.writer.column("nope"))
      assert(e.getMessage.contains("no column 'nope'") && e.getMessage.contains("a, b"))
    } finally l.close()
  }

  test("a value of the wrong kind is a programming error naming the column") {
    val l = loader()
    try {
      l.writer.start()
      val e = intercept[IllegalStateException](l.writer.column("a").setString("x"))
      assert(e.getMessage.contains("column 'a' is a int"))
    } finally l.close()
  }

  test("close twice is fine; a zero-column loader counts rows") {
    val l = loader()
    l.close()
    l.close()
    val counter =
      ResultSetLoaders.create(LoaderOptions(batchRows = 2), new StructType(), ProjectionFilter.All)
    try {
      (1 to 3).foreach(_ => writeRow(counter))
      assert(counter.writer.isFull)
    } finally counter.close()
  }
}
