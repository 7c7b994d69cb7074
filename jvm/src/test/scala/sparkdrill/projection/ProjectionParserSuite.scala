package sparkdrill.projection

import scala.collection.immutable.SortedSet

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.projection.Shape.{Indexes, Members, Whole}
import sparkdrill.projection.{ProjectionItem => PI}
import sparkdrill.errors.ProjectionException

class ProjectionParserSuite extends AnyFunSuite {
  private def cols(list: String): Seq[RequestedColumn] = ProjectionParser.parse(list).columns
  private def col(name: String, shape: Shape = Whole) = RequestedColumn(name, shape)

  private def parseError(list: String): ProjectionException =
    intercept[ProjectionException](ProjectionParser.parse(list))

  test("* is a wildcard projection") {
    val p = ProjectionParser.parse("*")
    assert(p.kind == ProjectionKind.All)
    assert(p.items == Seq(PI.Wildcard))
    assert(p.toFilter eq sparkdrill.loader.ProjectionFilter.All)
  }

  test("an empty or blank list is count(*)") {
    assert(ProjectionParser.parse("").kind == ProjectionKind.Empty)
    assert(ProjectionParser.parse("   ").kind == ProjectionKind.Empty)
    assert(ProjectionParser.parse("").toFilter eq sparkdrill.loader.ProjectionFilter.None)
  }

  test("simple names, in list order, explicit kind") {
    val p = ProjectionParser.parse(" a , b,c ")
    assert(p.kind == ProjectionKind.Some)
    assert(p.columns == Seq(col("a"), col("b"), col("c")))
  }

  test("backtick-quoted names keep dots, spaces and doubled backticks") {
    assert(cols("`odd name`, `a.b`, `x``y`") == Seq(col("odd name"), col("a.b"), col("x`y")))
    assert(cols("m.`a.b`") == Seq(col("m", Members(Seq(col("a.b"))))))
  }

  test("m.b.c is a member path") {
    assert(cols("m.b.c") == Seq(col("m", Members(Seq(col("b", Members(Seq(col("c")))))))))
  }

  test("c[2] is an array index; columns[0] too") {
    assert(cols("c[2]") == Seq(col("c", Indexes(SortedSet(2)))))
    assert(cols("columns[0]") == Seq(col("columns", Indexes(SortedSet(0)))))
  }

  test("combination m1.m2.c[3]") {
    val expected = col("m1", Members(Seq(col("m2", Members(Seq(col("c", Indexes(SortedSet(3)))))))))
    assert(cols("m1.m2.c[3]") == Seq(expected))
  }

  test("a.b, a.c merge into a(b, c)") {
    assert(cols("a.b, x, a.c") == Seq(col("a", Members(Seq(col("b"), col("c")))), col("x")))
  }

  test("c[2], c[4], c[0] merge into c[0, 2, 4]") {
    assert(cols("c[2], c[4], c[0]") == Seq(col("c", Indexes(SortedSet(0, 2, 4)))))
    assert(ProjectionParser.parse("c[2], c[4], c[0]").describe == "c[0, 2, 4]")
  }

  test("a, a.b and a.b, a both mean all of a; a, a[1] too") {
    assert(cols("a, a.b") == Seq(col("a")))
    assert(cols("a.b, a") == Seq(col("a")))
    assert(cols("a[1], a") == Seq(col("a")))
  }

  test("nested merge m.x.a, m.x.b, m.y") {
    assert(
      cols("m.x.a, m.x.b, m.y") ==
        Seq(col("m", Members(Seq(col("x", Members(Seq(col("a"), col("b")))), col("y")))))
    )
  }

  test("mixed case names are one column; the first spelling wins") {
    assert(cols("M.a, m.B") == Seq(col("M", Members(Seq(col("a"), col("B"))))))
    val e = parseError("a, A")
    assert(e.getMessage.contains("'a' is projected twice"))
    assert(e.position == 3)
  }

  test("duplicates are errors naming the column, at the second occurrence") {
    val e = parseError("a, b, a")
    assert(e.getMessage.contains("column 'a' is projected twice"), e.getMessage)
    assert(e.position == 6)
    assert(e.getMessage.contains("at position 7"))
    assert(parseError("m.b, m.b").getMessage.contains("'b' is projected twice"))
    assert(parseError("c[1], c[1]").getMessage.contains("'c[1]' is projected twice"))
    assert(parseError("*, *").position == 3)
  }

  test("struct and array use of one column is an error") {
    val e = parseError("a.b, a[1]")
    assert(e.getMessage.contains("both as a struct"))
    assert(e.position == 5)
  }

  test("* with named columns keeps their place") {
    val p = ProjectionParser.parse("filename, *, dir0")
    assert(p.kind == ProjectionKind.All)
    assert(p.items == Seq(PI.Column(col("filename")), PI.Wildcard, PI.Column(col("dir0"))))
  }

  test("bad syntax points at the position") {
    val cases = Seq(
      "a,,b" -> 2,
      "a b" -> 2,
      "a," -> 2,
      "m.*" -> 2,
      "a.`b" -> 2,
      "c[x]" -> 2,
      "c[1" -> 3,
      "c[1][2]" -> 4,
      "c[1].x" -> 4,
      "a-b" -> 1,
      "``" -> 0,
      "m." -> 2,
      "c[99999999999]" -> 2
    )
    cases.foreach { case (list, at) =>
      val e = parseError(list)
      assert(e.position == at, s"$list: ${e.getMessage}")
      assert(e.getMessage.contains(s"at position ${at + 1}"))
      assert(e.getMessage.linesIterator.toSeq.last == "  " + " " * at + "^", e.getMessage)
    }
  }

  test("the filter follows the tree") {
    val f = ProjectionParser.parse("a, m.x, c[1]").toFilter
    assert(f.isProjected("A") && f.isProjected("m") && f.isProjected("c"))
    assert(!f.isProjected("b"))
    assert(f.member("m").isProjected("X") && !f.member("m").isProjected("y"))
    assert(f.member("a").isProjected("anything"))
  }

  test(
    "Spark requiredSchema: pruned structs (also of an array's elements and a map's values) become member " +
      "projections, metadata columns keep Spark's name"
  ) {
    val meta = new MetadataBuilder().putString(SparkProjection.MetadataColumnKey, "filename").build()
    val required = StructType(
      Seq(
        StructField("a", StringType),
        StructField("m", StructType(Seq(StructField("b", LongType)))),
        StructField("_filename", StringType, nullable = false, meta),
        StructField("arr", ArrayType(StructType(Seq(StructField("x", LongType))))),
        StructField("map", MapType(StringType, StructType(Seq(StructField("y", LongType))))),
        StructField("ints", ArrayType(LongType))
      )
    )
    val p = SparkProjection.fromRequiredSchema(required)
    assert(p.kind == ProjectionKind.Some)
    assert(
      p.items == Seq(
        PI.Column(col("a")),
        PI.Column(col("m", Members(Seq(col("b"))))),
        PI.Column(col("filename"), alias = Some("_filename"), metadataColumn = true),
        PI.Column(col("arr", Members(Seq(col("x"))))),
        PI.Column(col("map", Members(Seq(col("y"))))),
        PI.Column(col("ints"))
      )
    )
    assert(p.columnItems(2).outputName == "_filename")
    assert(SparkProjection.fromRequiredSchema(new StructType()).kind == ProjectionKind.Empty)
  }

  test("Spark requiredSchema gives the same tree as the parsed list") {
    val required = StructType(
      Seq(StructField("m", StructType(Seq(StructField("a", StringType), StructField("b", StringType)))))
    )
    assert(SparkProjection.fromRequiredSchema(required) == ProjectionParser.parse("m.a, m.b"))
  }
}
