package sparkdrill.scan

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.types.{IntegerType, StringType, StructField, StructType}
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.projection.{
  ColumnParser,
  FileInfo,
  ParseContext,
  ParsedColumn,
  ParsedKind,
  RequestedColumn,
  Shape
}

/** Custom column parsers through the scan: claims, hidden columns, per-file values as constants. */
class ColumnParserScanSuite extends AnyFunSuite with TestFiles {

  /** Claims `depth` (int: the file's directory depth) and `tag_<x>` (string `x`), counting value calls. */
  private final class Depth extends ColumnParser {
    val asked = ArrayBuffer.empty[String]
    def id: String = "depth"
    def parse(column: RequestedColumn, context: ParseContext): Option[ParsedColumn] =
      if (column.name.equalsIgnoreCase("depth"))
        Some(ParsedColumn(StructField(column.name, IntegerType), ParsedKind.Custom(id)))
      else if (column.name.startsWith("tag_"))
        Some(ParsedColumn(StructField(column.name, StringType), ParsedKind.Custom(id)))
      else None
    override def hiddenColumns(context: ParseContext): Seq[ParsedColumn] =
      parse(RequestedColumn("depth", Shape.Whole), context).toSeq
    def value(column: ParsedColumn, file: FileInfo): Any = {
      asked += file.path.substring(file.path.lastIndexOf('/') + 1)
      if (column.name == "depth") Integer.valueOf(file.dirs.size)
      else UTF8String.fromString(column.name.stripPrefix("tag_"))
    }
  }

  private def plan(parser: ColumnParser, options: (String, String)*): TableScan =
    ScanTestKit.open(Seq(root.toString), options, parsers = Seq(parser))

  private def read(
      p: TableScan,
      required: StructType,
      predicates: Seq[FilePredicate] = Nil
  ): Seq[Seq[Any]] = {
    val query = p.plan(required, predicates, Long.MaxValue, ScanTestKit.OneTask)
    val spec = query.spec
    val lifecycle = ScanTestKit.lifecycle(query)
    try {
      val rows = ArrayBuffer.empty[Seq[Any]]
      while (lifecycle.next()) {
        val b = lifecycle.batch
        for (r <- 0 until b.numRows)
          rows += (0 until b.numCols).map { c =>
            val v = b.column(c)
            if (v.isNullAt(r)) null
            else if (spec.outputSchema(c).dataType == IntegerType) v.getInt(r)
            else v.getUTF8String(r).toString
          }
      }
      rows.toSeq
    } finally lifecycle.close()
  }

  private def hidden(name: String, t: org.apache.spark.sql.types.DataType) =
    ScanTestKit.metadataField(name, t)

  test("a parser's hidden column is not in * and is read by name as a per-file constant") {
    write("a.csv" -> "x\n1\n2\n", "p/q/b.csv" -> "x\n3\n")
    val parser = new Depth
    val p = plan(parser, "header" -> "true")
    assert(!p.schema.fieldNames.contains("depth"))
    assert(p.metadataColumns.map(_.name).contains("depth"))
    val rows = read(p, StructType(Seq(StructField("x", StringType), hidden("depth", IntegerType))))
    assert(rows.sortBy(_.head.toString) == Seq(Seq("1", 0), Seq("2", 0), Seq("3", 2)))
    assert(parser.asked.sorted == Seq("a.csv", "b.csv"))
  }

  test("the project option asks parsers for names no file has; values are asked once per file") {
    write("a.csv" -> "x\n1\n", "d/b.csv" -> "x\n2\n")
    val parser = new Depth
    val p = plan(parser, "header" -> "true", "project" -> "tag_red, x, depth, dir0")
    assert(p.schema.fieldNames.toSeq == Seq("tag_red", "x", "depth", "dir0"))
    assert(p.schema("depth").dataType == IntegerType)
    val expected = Seq(Seq("red", "1", 0, null), Seq("red", "2", 1, "d"))
    assert(read(p, p.schema).sortBy(_(1).toString) == expected)
    assert(parser.asked.size == 4) // two columns, two files: once per column and file in a query
    assert(read(p, p.schema).sortBy(_(1).toString) == expected)
    assert(parser.asked.size == 8) // each query asks again (the Python adapter keeps its own answers)
  }

  test("a data column of the same name wins over the parser") {
    write("a.csv" -> "x,depth\n1,deep\n")
    val parser = new Depth
    val p = plan(parser, "header" -> "true", "project" -> "depth")
    assert(read(p, p.schema) == Seq(Seq("deep")))
    assert(parser.asked.isEmpty)
  }

  test("only the files left after pruning are given values") {
    write("a.csv" -> "x\n1\n", "d/b.csv" -> "x\n2\n")
    val parser = new Depth
    val p = plan(parser, "header" -> "true")
    val dir0 = p.fileColumn("dir0").get
    val onlyD = FilePredicate.Compare("=", dir0, UTF8String.fromString("d"))
    val rows =
      read(p, StructType(Seq(StructField("x", StringType), hidden("depth", IntegerType))), Seq(onlyD))
    assert(rows == Seq(Seq("2", 1)))
    assert(parser.asked == Seq("b.csv"))
  }
}
