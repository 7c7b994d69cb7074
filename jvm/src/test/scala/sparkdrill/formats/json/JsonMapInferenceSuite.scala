package sparkdrill.formats.json

import scala.collection.mutable.ArrayBuffer
import scala.util.Random

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.reader.ScanException
import sparkdrill.scan.{ScanLifecycle, ScanTestKit, TableScan}
import sparkdrill.spark.Describe

/** SPEC 5, objects whose keys are data, through discovery and the JSON reader: documents keyed by ids, dates
  * and names of mixed case, nested two levels, across many files.
  */
class JsonMapInferenceSuite extends AnyFunSuite with TestFiles {
  import RowValues.value

  private val Files = 60

  /** File `f`'s document: five ids of its own, three dates (shared with the neighbouring files), users by
    * name under each date, names whose case differs, and a small object of fixed keys.
    */
  private def document(f: Int): String = {
    val ids = (0 until 5).map(k => s""""id-$f-$k": {"name": "n$f.$k", "score": ${f * 10 + k}}""")
    val days = (0 until 3).map { d =>
      val day = f"2024-${1 + (f + d) % 12}%02d-${1 + (f * 3 + d) % 28}%02d"
      s""""$day": {"hits": ${f + d}, "users": {"User$f": $d, "user$f": ${d + 1}, "U${f + d}": 1}}"""
    }
    val names = Seq(s""""Alice$f": 1""", s""""alice$f": 2""", s""""BOB$f": 3""")
    s"""{"doc": $f, "byId": {${ids.mkString(", ")}}, "byDay": {${days.mkString(", ")}}, """ +
      s""""names": {${names.mkString(", ")}}, "small": {"a": $f, "b": "x$f"}}"""
  }

  private def writeDocuments(order: Seq[Int]): Unit =
    write(order.zipWithIndex.map { case (f, i) => f"d$i%03d.json" -> (document(f) + "\n") }: _*)

  private def open(options: (String, String)*): TableScan = ScanTestKit.open(Seq(root.toString), options)

  private def types(scan: TableScan): Seq[(String, String)] =
    scan.schema.fields.toSeq.map(f => f.name -> f.dataType.simpleString)

  test("objects of more distinct keys than the threshold, across the files, are maps; fewer, structs") {
    writeDocuments(0 until Files)
    assert(
      types(open("mapInferenceThreshold" -> "50")) == Seq(
        "doc" -> "bigint",
        "byId" -> "map<string,struct<name:string,score:bigint>>",
        "byDay" -> "map<string,struct<hits:bigint,users:map<string,bigint>>>",
        "names" -> "map<string,bigint>",
        "small" -> "struct<a:bigint,b:string>"
      )
    )
    // The default (200): 300 ids are a map, 120 names (Alice and alice are one key) a struct.
    val byDefault = open().schema
    assert(byDefault("byId").dataType.simpleString == "map<string,struct<name:string,score:bigint>>")
    val names = byDefault("names").dataType.asInstanceOf[StructType]
    assert(names.size == 120 && names.fieldNames.take(3).toSeq == Seq("Alice0", "BOB0", "Alice1"))
    // Never: every key is a field.
    val never = open("mapInferenceThreshold" -> "-1", "maxSchemaFields" -> "100000").schema
    assert(never("byId").dataType.asInstanceOf[StructType].size == Files * 5)
  }

  test("the schema is the same whatever the order of the files") {
    val rng = new Random(3)
    val orders = Seq(0 until Files, (0 until Files).reverse, rng.shuffle((0 until Files).toVector))
    val schemas = orders.map { order =>
      root.toFile.listFiles().foreach(f => if (f.getName.endsWith(".json")) f.delete())
      writeDocuments(order)
      open("mapInferenceThreshold" -> "50", "sessionSchemaCache" -> "false").schema
    }
    assert(schemas.distinct.size == 1, schemas.map(_.simpleString).mkString("\n"))
  }

  test("map values are read right, keys as they are in the file (case kept), through projection") {
    writeDocuments(0 until Files)
    val scan = open("mapInferenceThreshold" -> "50")
    val rows = read(scan, scan.schema).map(r => r.head.asInstanceOf[Long] -> r).toMap
    assert(rows.size == Files)
    val seven = rows(7L)
    assert(seven(1) == (0 until 5).map(k => s"id-7-$k" -> Seq(s"n7.$k", 70L + k)).toMap)
    assert(seven(3) == Map("Alice7" -> 1L, "alice7" -> 2L, "BOB7" -> 3L))
    val days = seven(2).asInstanceOf[Map[String, Seq[Any]]].values.toSeq
    assert(days.map(_.head).toSet == Set(7L, 8L, 9L))
    days.foreach { case Seq(hits: Long, users) =>
      assert(users == Map("User7" -> (hits - 7), "user7" -> (hits - 6), s"U$hits" -> 1L))
    }
    assert(seven(4) == Seq(7L, "x7"))

    // Spark prunes a map's value struct to the members a query reads (`byDay['2024-01-01'].hits`).
    val pruned = StructType(
      Seq(StructField("byDay", MapType(StringType, StructType(Seq(StructField("hits", LongType))))))
    )
    val hits = read(scan, pruned).map(_.head.asInstanceOf[Map[String, Seq[Any]]])
    assert(hits.size == Files && hits.forall(m => m.size == 3 && m.values.forall(_.size == 1)))
    assert(
      hits.flatMap(_.values.map(_.head.asInstanceOf[Long])).sum == (0 until Files).map(f => 3L * f + 3).sum
    )
    val names = StructType(Seq(scan.schema("names")))
    assert(read(scan, names).map(_.head.asInstanceOf[Map[String, Any]].size).toSet == Set(3))
  }

  test(
    "the structs of an array's elements and of a map's values are read with the type Spark pruned them to"
  ) {
    // Spark asks for `s.v` as array<struct<v>> and for `m['x'].b` as map<string, struct<b>>: read with the
    // whole element type, `v` was read from `k`'s vector.
    write("p.json" -> """{"s": [{"k": "a", "v": 1}, {"k": "b", "v": 2}], "m": {"x": {"a": 1, "b": "p"}}}""")
    val scan = open("providedSchema" -> "m MAP<STRING, STRUCT<a: BIGINT, b: STRING>>")
    assert(
      scan.schema.simpleString == "struct<m:map<string,struct<a:bigint,b:string>>,s:array<struct<k:string,v:bigint>>>"
    )
    val v = StructType(Seq(StructField("s", ArrayType(StructType(Seq(StructField("v", LongType)))))))
    assert(read(scan, v) == Seq(Seq(Seq(Seq(1L), Seq(2L)))))
    val b =
      StructType(Seq(StructField("m", MapType(StringType, StructType(Seq(StructField("b", StringType)))))))
    assert(read(scan, b) == Seq(Seq(Map("x" -> Seq("p")))))
  }

  test("count(*) reads no values and counts every document") {
    writeDocuments(0 until Files)
    val scan = open("mapInferenceThreshold" -> "50")
    assert(read(scan, new StructType()).size == Files)
  }

  test("keys first met after discovery are entries of the map, not dropped or rescued values") {
    writeDocuments(0 until Files)
    write(
      "late.json" -> Seq(
        """{"doc": 1000, "names": {"Zed": 9}}""",
        """{"doc": 1001, "names": {"Yan": 1, "new key": 2}, "extra": true}"""
      ).mkString("\n")
    )
    val scan = open("mapInferenceThreshold" -> "50", "sampleRows" -> "1", "rescuedDataColumn" -> "_rescued")
    val rows = read(scan, scan.schema).filter(_.head.asInstanceOf[Long] >= 1000)
    assert(rows.map(_(3)) == Seq(Map("Zed" -> 9L), Map("Yan" -> 1L, "new key" -> 2L)))
    val rescued = scan.schema.fieldIndex("_rescued")
    assert(rows.head(rescued) == null)
    assert(rows(1)(rescued).toString.startsWith("""{"extra":true,"_file":"""))
  }

  test("modes: a broken document and a map value that does not convert") {
    writeDocuments(0 until 5)
    write(
      "bad.json" -> Seq(
        """{"doc": 100, "byId": {"k": {"name": "ok", "score": 1}}}""",
        """{"doc": 101, "byId": {"k": {"name": "bad", "score": "many"}}}""",
        """{"doc": 102, "byId": {"k": {"name": "broken", "score": }}""",
        """{"doc": 103, "byId": {"k": {"name": "last", "score": 3}}}"""
      ).mkString("\n")
    )
    val options =
      Seq("mapInferenceThreshold" -> "3", "sampleRows" -> "1", "columnNameOfCorruptRecord" -> "_bad")
    val permissive = open(options: _*)
    assert(permissive.schema("byId").dataType.simpleString == "map<string,struct<name:string,score:bigint>>")
    val rows =
      read(permissive, permissive.schema).filter(r => r.head == null || r.head.asInstanceOf[Long] >= 100)
    val byDoc = rows.map(r => (r.head, r(1), r.last))
    assert(byDoc.contains((100L, Map("k" -> Seq("ok", 1L)), null)))
    // A value that does not convert is null in its place; the record's text goes to the corrupt column.
    assert(byDoc.exists { case (d, m, bad) => d == 101L && m == Map("k" -> Seq("bad", null)) && bad != null })
    assert(byDoc.exists { case (d, m, bad) => d == null && m == null && bad.toString.contains("\"broken\"") })
    assert(byDoc.contains((103L, Map("k" -> Seq("last", 3L)), null)))

    val dropped = open(options.take(2) :+ ("mode" -> "DROPMALFORMED"): _*)
    assert(
      read(dropped, dropped.schema).map(_.head).filter(d => d.asInstanceOf[Long] >= 100) == Seq(100L, 103L)
    )

    val failfast = open(options.take(2) :+ ("mode" -> "FAILFAST"): _*)
    val e = intercept[ScanException](read(failfast, failfast.schema))
    assert(e.path.endsWith("bad.json") && e.line == 2 && e.column.contains("byId{}.score"), e.getMessage)
    assert(e.value.contains("\"many\"") || e.value.contains("many"), e.getMessage)
  }

  test("a provided schema makes a member a struct (only its keys are read) or a map") {
    writeDocuments(0 until Files)
    val struct = open(
      "mapInferenceThreshold" -> "5",
      "providedSchema" -> "small STRUCT<a: BIGINT>, names STRUCT<Alice3: BIGINT>"
    )
    assert(struct.schema("names").dataType.simpleString == "struct<Alice3:bigint>")
    val names = read(struct, StructType(Seq(struct.schema("names")))).map(_.head)
    // A struct member matches keys case-insensitively: of Alice3 and alice3 the last counts (a map keeps both).
    assert(names.count(_ == Seq(2L)) == 1 && names.count(_ == Seq(null)) == Files - 1)
    val map = open("mapInferenceThreshold" -> "-1", "providedSchema" -> "small MAP<STRING, STRING>")
    assert(map.schema("small").dataType.simpleString == "map<string,string>")
    assert(read(map, StructType(Seq(map.schema("small")))).map(_.head).contains(Map("a" -> "3", "b" -> "x3")))
  }

  test("the per-file report (sd.describe) shows each file's own type and names the maps and the threshold") {
    writeDocuments(0 until Files)
    val scan = open("mapInferenceThreshold" -> "50")
    val rows = Describe.rows(scan).map { r =>
      Describe.schema.fieldNames.indices.map(i => if (r.isNullAt(i)) null else r.getUTF8String(i).toString)
    }
    val byDay = rows.filter(_(1) == "byDay")
    assert(byDay.size == Files)
    assert(byDay.head(2).startsWith("struct<"), "the file's own type: its sample held three dates")
    assert(byDay.head(3) == "map<string,struct<hits:bigint,users:map<string,bigint>>>")
    assert(
      byDay.head(7) == "byDay, byDay{value}.users: map<string, ...>, the objects there holding more than " +
        "mapInferenceThreshold=50 distinct keys"
    )
    assert(rows.filter(_(1) == "small").forall(_(7) == null))
  }

  /** Every row of a read of `required`, as Scala values (structs as Seqs, maps as Maps). */
  private def read(scan: TableScan, required: StructType): Seq[Seq[Any]] = {
    val plan = ScanTestKit.query(scan, required)
    val lifecycle = new ScanLifecycle(plan.spec, plan.tasks.flatten, ScanTestKit.conf)
    val rows = ArrayBuffer.empty[Seq[Any]]
    try
      while (lifecycle.next()) {
        val b = lifecycle.batch
        (0 until b.numRows).foreach { r =>
          val row = b.getRow(r)
          rows += required.fields.indices.map(i => value(row, i, required(i).dataType))
        }
      }
    finally lifecycle.close()
    rows.toSeq
  }
}
