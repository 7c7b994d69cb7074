package sparkdrill.scan

import java.io.{ByteArrayOutputStream, ObjectOutputStream}
import java.lang.management.ManagementFactory

import org.apache.spark.sql.types.{StringType, StructField, StructType}
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.errors.SchemaException

/** SPEC 5: a discovered schema is bounded (`maxSchemaFields`), and a wide one costs a query nothing for the
  * columns it does not read: what each task is sent and what reading allocates are those of a narrow table.
  * (What Spark itself builds per field, its row encoder for `DataFrame.count()`, is measured by the pytest
  * tests/test_json_maps.py in a 1 GiB driver.)
  */
class WideSchemaSuite extends AnyFunSuite with TestFiles {
  import WideSchemaSuite.Costs

  /** `files` documents, each with `keys` property names and `keys` definition names of its own, every one an
    * object of two leaf fields: 4 * files * keys leaf fields in all when no object is a map.
    */
  private def documents(files: Int, keys: Int): Unit =
    write((0 until files).map { f =>
      val props = (0 until keys).map(k => s""""p${f}_$k": {"type": "string", "n": $k}""").mkString(", ")
      val defs = (0 until keys).map(k => s""""D${f}_$k": {"kind": "x", "size": $k}""").mkString(", ")
      f"d$f%04d.json" -> s"""{"id": $f, "title": "doc $f", "properties": {$props}, "definitions": {$defs}}\n"""
    }: _*)

  private def open(options: (String, String)*): TableScan = ScanTestKit.open(Seq(root.toString), options)

  test("a discovered schema past maxSchemaFields fails at load, naming the widest member and the options") {
    documents(files = 30, keys = 100) // 12,002 leaf fields with map inference off
    val e = intercept[SchemaException](open("mapInferenceThreshold" -> "-1"))
    assert(
      e.getMessage.startsWith(
        "[SPARK_DRILL_SCHEMA_CONFLICT] spark-drill: the discovered schema has 12002 leaf fields, more than maxSchemaFields=10000; its " +
          "widest member is 'properties', with 3000 members (6000 leaf fields)."
      ),
      e.getMessage
    )
    assert(e.getMessage.contains("mapInferenceThreshold distinct keys (now -1: never)"), e.getMessage)
    assert(
      e.getMessage.endsWith(
        "set mapInferenceThreshold below 3000 to read it as a map<string, ...>, or raise maxSchemaFields"
      )
    )
    // By default (200) both objects are maps: four leaf fields of maps, and the two scalars.
    assert(
      open().schema.simpleString == "struct<id:bigint,title:string,properties:map<string,struct<type:string," +
        "n:bigint>>,definitions:map<string,struct<kind:string,size:bigint>>>"
    )
  }

  test("count(*) and a one-column query of 50,000 leaf fields cost what they cost on a narrow table") {
    val options = Seq("mapInferenceThreshold" -> "-1", "maxSchemaFields" -> "1000000")
    documents(files = 100, keys = 1)
    val narrow = open(options: _*)
    val narrowCosts = costs(narrow)
    deleteJson()
    documents(files = 100, keys = 125)
    val wide = open(options: _*)
    val leaves = wide.schema.fields
      .map(f =>
        f.dataType match {
          case s: StructType => s.fields.map(_.dataType.asInstanceOf[StructType].size).sum
          case _ => 1
        }
      )
      .sum
    assert(leaves == 50002)
    val wideCosts = costs(wide)
    assert(wideCosts.rows == Seq(100L, 100L) && narrowCosts.rows == Seq(100L, 100L))
    // What every task is sent: the spec and the task list of each query (a wide table's types stay behind).
    wideCosts.shipped.zip(narrowCosts.shipped).foreach { case (w, n) =>
      assert(w <= n + 256, s"a task of the wide table is sent $w bytes, of the narrow one $n")
    }
    // What planning and reading allocate on this thread: the files are larger, the values read the same.
    wideCosts.allocated.zip(narrowCosts.allocated).foreach { case (w, n) =>
      assert(w <= 2 * n + (8L << 20), s"the wide table's query allocated $w bytes, the narrow one's $n")
    }
  }

  /** count(*) and `SELECT title`: rows, bytes of what every task gets, bytes allocated planning and reading. */
  private def costs(scan: TableScan): Costs = {
    val queries = Seq(new StructType(), StructType(Seq(StructField("title", StringType))))
    val threads = ManagementFactory.getThreadMXBean.asInstanceOf[com.sun.management.ThreadMXBean]
    val id = Thread.currentThread().getId
    val measured = queries.map { required =>
      ScanTestKit.query(scan, required) // warm
      val before = threads.getThreadAllocatedBytes(id)
      val plan = ScanTestKit.query(scan, required)
      val lifecycle = ScanTestKit.lifecycle(plan)
      var rows = 0L
      try while (lifecycle.next()) rows += lifecycle.batch.numRows
      finally lifecycle.close()
      val allocated = threads.getThreadAllocatedBytes(id) - before
      (rows, serializedSize(plan.spec) + serializedSize(plan.tasks), allocated)
    }
    Costs(measured.map(_._1), measured.map(_._2), measured.map(_._3))
  }

  private def serializedSize(o: AnyRef): Long = {
    val bytes = new ByteArrayOutputStream()
    val out = new ObjectOutputStream(bytes)
    out.writeObject(o)
    out.close()
    bytes.size().toLong
  }

  private def deleteJson(): Unit =
    root.toFile.listFiles().foreach(f => if (f.getName.endsWith(".json")) f.delete())
}

object WideSchemaSuite {
  private final case class Costs(rows: Seq[Long], shipped: Seq[Long], allocated: Seq[Long])
}
