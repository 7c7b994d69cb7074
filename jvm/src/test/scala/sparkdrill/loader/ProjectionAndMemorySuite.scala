package sparkdrill.loader

import java.util.Locale

import org.apache.spark.memory.MemoryMode
import org.apache.spark.sql.execution.vectorized.OffHeapColumnVector
import org.apache.spark.sql.types._
import org.apache.spark.sql.vectorized.ColumnVector
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.loader.testkit.LoaderTestKit._
import sparkdrill.loader.testkit.S

class ProjectionAndMemorySuite extends AnyFunSuite {
  private def only(names: String*): ProjectionFilter = new ProjectionFilter {
    private val keep = names.map(_.toLowerCase(Locale.ROOT)).toSet
    def isProjected(name: String): Boolean = keep(name.toLowerCase(Locale.ROOT))
    def member(name: String): ProjectionFilter =
      if (name.equalsIgnoreCase("m")) only("b") else ProjectionFilter.All
  }

  private val schema = new StructType()
    .add("a", IntegerType)
    .add("skip", StringType)
    .add("m", new StructType().add("b", StringType).add("c", ArrayType(IntegerType)))
    .add("arr", ArrayType(StringType))

  test("unprojected columns and struct members get dummy writers and allocate nothing") {
    val l = ResultSetLoaders.create(LoaderOptions(), schema, only("a", "m"))
    try {
      assert(!l.writer.column("skip").isProjected && !l.writer.column("arr").isProjected)
      assert(l.writer.column("m").isProjected && !l.writer.column("m").struct.column("c").isProjected)
      writeRow(l, 1, "ignored", S("kept", Seq(1, 2)), Seq("x", "y"))
      assert(
        l.projectedSchema == new StructType()
          .add("a", IntegerType)
          .add("m", new StructType().add("b", StringType))
      )
      val b = l.harvest()
      assert(b.numCols == 2, "only projected columns have vectors")
      assert(rows(b, l.projectedSchema) == Seq(Seq(1, S("kept"))))
      val struct = b.column(1).asInstanceOf[org.apache.spark.sql.execution.vectorized.WritableColumnVector]
      assert(struct.dataType == new StructType().add("b", StringType), "the unprojected member has no vector")
    } finally l.close()
  }

  test("a reader can ask whether a column is projected, by name") {
    val l = ResultSetLoaders.create(LoaderOptions(), schema, only("a"))
    try assert(l.writer.isProjected("A") && !l.writer.isProjected("skip") && !l.writer.isProjected("nope"))
    finally l.close()
  }

  test("close frees every off-heap vector, the look-aside ones too") {
    val l = ResultSetLoaders.create(
      LoaderOptions(batchBytes = 64),
      new StructType().add("s", StringType).add("n", LongType),
      ProjectionFilter.All
    )
    val seen = scala.collection.mutable.LinkedHashSet.empty[ColumnVector]
    (0 until 100).foreach { i =>
      writeRow(l, s"value-$i", i.toLong)
      if (l.writer.isFull) { val b = l.harvest(); (0 until b.numCols).foreach(c => seen += b.column(c)) }
    }
    val b = l.harvest()
    (0 until b.numCols).foreach(c => seen += b.column(c))
    val vectors = seen.toSeq.map(_.asInstanceOf[OffHeapColumnVector])
    assert(vectors.size == 4, "two columns, each with an active and a look-aside vector")
    val strings =
      vectors.filter(_.dataType == StringType).map(_.arrayData().asInstanceOf[OffHeapColumnVector])
    val longs = vectors.filter(_.dataType == LongType)
    assert((strings ++ longs).forall(_.valuesNativeAddress() != 0L))
    l.close()
    assert((strings ++ longs).forall(_.valuesNativeAddress() == 0L), "every vector's memory is freed")
  }

  test("on-heap vectors when asked") {
    val l =
      ResultSetLoaders.create(LoaderOptions(memoryMode = MemoryMode.ON_HEAP), schema, ProjectionFilter.All)
    try {
      writeRow(l, 1, "s", S("b", Seq(1)), Seq("x"))
      val b = l.harvest()
      assert(b.column(0).isInstanceOf[org.apache.spark.sql.execution.vectorized.OnHeapColumnVector])
      assert(rows(b, l.projectedSchema) == Seq(Seq(1, "s", S("b", Seq(1)), Seq("x"))))
    } finally l.close()
  }
}
