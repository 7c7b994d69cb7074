package sparkdrill.formats.text

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters
import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.scan.ScanTestKit

/** SPEC 9.1 through the whole text scan: an empty unquoted field is null, a quoted one `""` in a string
  * column and null in a typed one; the headerless `columns` array keeps `""`; `nullValue` and `emptyValue`
  * as in Spark's CSV reader; SPEC 2's quoting rules reach the rows and the header.
  */
class TextNullRuleSuite extends AnyFunSuite with TestFiles {

  /** The column names and every row of a whole read of the files under `root`. */
  private def read(options: (String, String)*): (Seq[String], Seq[Seq[Any]]) = {
    val p = ScanTestKit.open(Seq(root.toString), options)
    val query = ScanTestKit.query(p, p.schema)
    val spec = query.spec
    val lifecycle = ScanTestKit.lifecycle(query)
    val rows = ArrayBuffer.empty[Seq[Any]]
    try
      while (lifecycle.next()) {
        val b = lifecycle.batch
        for (r <- 0 until b.numRows) {
          val row = b.getRow(r)
          rows += spec.outputSchema.fields.indices.map(i => value(row, i, spec.outputSchema(i).dataType))
        }
      }
    finally lifecycle.close()
    (spec.outputSchema.fieldNames.toSeq, rows.toSeq)
  }

  private def value(g: SpecializedGetters, i: Int, t: DataType): Any =
    if (g.isNullAt(i)) null
    else
      t match {
        case IntegerType => g.getInt(i)
        case StringType => g.getUTF8String(i).toString
        case a: ArrayType =>
          val data = g.getArray(i)
          (0 until data.numElements()).map(j => value(data, j, a.elementType))
        case other => fail(s"type $other")
      }

  test("an empty unquoted field is null in a string column; a quoted one is \"\"") {
    write("a.csv" -> "a,b,c\nx,,z\nx,\"\",z\n\"\",,\n x , \"\" ,\"y\"  \n")
    val (names, rows) = read("header" -> "true")
    assert(names == Seq("a", "b", "c"))
    assert(
      rows == Seq(
        Seq("x", null, "z"),
        Seq("x", "", "z"),
        Seq("", null, null),
        Seq(" x ", "", "y")
      )
    )
  }

  test("an empty field, quoted or not, is null in a typed column") {
    write("a.csv" -> "n,s\n1,a\n,b\n\"\",c\n \"\" ,d\n\" \",e\n")
    val (_, rows) = read("header" -> "true", "providedSchema" -> "n INT")
    assert(rows == Seq(Seq(1, "a"), Seq(null, "b"), Seq(null, "c"), Seq(null, "d"), Seq(null, "e")))
  }

  test("a NOT NULL string column takes its default for an empty unquoted field, and keeps a quoted \"\"") {
    write("a.csv" -> "s,t\n,1\n\"\",2\nv,3\n")
    val (_, rows) = read("header" -> "true", "providedSchema" -> "s STRING NOT NULL DEFAULT 'none'")
    assert(rows == Seq(Seq("none", "1"), Seq("", "2"), Seq("v", "3")))
  }

  test("the headerless columns array keeps every field's text, \"\" for an empty one") {
    write("a.csv" -> "x,,\"\", \"y\" ,\n1,2\n\"3\"\n")
    val (names, rows) = read()
    assert(names == Seq("columns"))
    // Every row's array whole: the array begins anew in each row (its first element was once null past the
    // first row).
    assert(rows == Seq(Seq(Seq("x", "", "", "y", "")), Seq(Seq("1", "2")), Seq(Seq("3"))))
  }

  test("nullValue and emptyValue as in Spark's CSV reader") {
    write("a.csv" -> "a,b\nNA,\"\"\n,\"NA\"\nx,y\n")
    assert(
      read("header" -> "true", "nullValue" -> "NA", "emptyValue" -> "E")._2 ==
        Seq(Seq(null, "E"), Seq(null, null), Seq("x", "y"))
    )
    // nullValue="" (Spark's default) makes a quoted empty field null too, unless emptyValue says otherwise.
    assert(
      read("header" -> "true", "nullValue" -> "")._2 == Seq(Seq("NA", null), Seq(null, "NA"), Seq("x", "y"))
    )
    assert(
      read("header" -> "true", "nullValue" -> "", "emptyValue" -> "E")._2 ==
        Seq(Seq("NA", "E"), Seq(null, "NA"), Seq("x", "y"))
    )
    // emptyValue equal to nullValue: a quoted empty field is null.
    assert(
      read("header" -> "true", "nullValue" -> "NA", "emptyValue" -> "NA")._2 ==
        Seq(Seq(null, null), Seq(null, null), Seq("x", "y"))
    )
  }

  test("header names and rows from quotes after blanks and before blanks") {
    write("a.csv" -> "\"Year\", \"Score\", \"Title\"\n1970,  73, \"Hi, Mom!\"\n\"onions\"  ,\",\", x\n")
    val (names, rows) = read("header" -> "true")
    assert(names == Seq("Year", "Score", "Title"))
    assert(rows == Seq(Seq("1970", "  73", "Hi, Mom!"), Seq("onions", ",", " x")))
  }
}
