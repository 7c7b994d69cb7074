package sparkdrill.loader

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.loader.testkit.LoaderTestKit._

/** Columns added after rows were written are back-filled in the current batch. */
class LateColumnSuite extends AnyFunSuite {
  private def twoRowsThenAdd(field: StructField, value: Any): (Seq[Seq[Any]], ResultSetLoader) = {
    val l =
      ResultSetLoaders.create(LoaderOptions(), new StructType().add("id", IntegerType), ProjectionFilter.All)
    writeRow(l, 1)
    writeRow(l, 2)
    val versionBefore = l.schemaVersion
    l.writer.addColumn(field)
    assert(l.schemaVersion > versionBefore)
    writeRow(l, 3, value)
    (rows(l.harvest(), l.projectedSchema).map(_.tail), l)
  }

  Seq[(DataType, Any, Any)](
    (IntegerType, 7, 0),
    (LongType, 7L, 0L),
    (DoubleType, 1.5, 0.0),
    (BooleanType, true, false),
    (StringType, "s", ""),
    (DecimalType(10, 2), BigDecimal("1.25"), BigDecimal("0.00")),
    (ArrayType(IntegerType), Seq(1, 2), Seq())
  ).foreach { case (t, value, zero) =>
    test(s"late nullable ${t.simpleString} is null in earlier rows") {
      val (out, l) = twoRowsThenAdd(StructField("late", t, nullable = true), value)
      try assert(out == Seq(Seq(null), Seq(null), Seq(value)))
      finally l.close()
    }
    test(s"late NOT NULL ${t.simpleString} is its zero in earlier rows") {
      val (out, l) = twoRowsThenAdd(StructField("late", t, nullable = false), value)
      try assert(out == Seq(Seq(zero), Seq(zero), Seq(value)))
      finally l.close()
    }
  }

  Seq(DateType, TimestampType).foreach { t =>
    test(s"late NOT NULL ${t.simpleString} after rows is an error that says why") {
      val l = ResultSetLoaders.create(
        LoaderOptions(),
        new StructType().add("id", IntegerType),
        ProjectionFilter.All
      )
      try {
        writeRow(l, 1)
        val e = intercept[IllegalStateException](l.writer.addColumn(StructField("d", t, nullable = false)))
        assert(e.getMessage.contains("cannot be added after 1 rows") && e.getMessage.contains("no value"))
        l.writer.addColumn(StructField("d2", t, nullable = true)) // nullable is fine
      } finally l.close()
    }
  }

  test("adding an existing column returns its writer; another type is an error") {
    val l =
      ResultSetLoaders.create(LoaderOptions(), new StructType().add("id", IntegerType), ProjectionFilter.All)
    try {
      assert(l.writer.addColumn(StructField("ID", IntegerType)) eq l.writer.column("id"))
      intercept[IllegalArgumentException](l.writer.addColumn(StructField("id", StringType)))
    } finally l.close()
  }
}
