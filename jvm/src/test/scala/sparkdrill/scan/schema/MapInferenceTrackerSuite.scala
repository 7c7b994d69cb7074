package sparkdrill.scan.schema

import scala.util.Random

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.projection.Projection
import sparkdrill.scan.schema.TrackerFixtures._
import sparkdrill.errors.SchemaException

/** SPEC 5, objects whose keys are data: the union of the files decides, per object path, whether an object
  * column is a struct or a map; the bound on a discovered schema's width; what the reports say.
  */
class MapInferenceTrackerSuite extends AnyFunSuite {
  private def config(threshold: Int, maxFields: Int = ScanConfig.DefaultMaxSchemaFields) =
    ScanConfig(mapInferenceThreshold = threshold, maxSchemaFields = maxFields)

  /** A file whose column `m` holds the members `keys`, each of type `t`. */
  private def keyed(rel: String, column: String, keys: Seq[String], t: String): FileSchema =
    file(rel, s"$column STRUCT<${keys.map(k => s"`$k`: $t").mkString(", ")}>")

  private def typeOf(r: ResolvedSchema, column: String): String = r.schema(column).dataType.simpleString

  test("an object column whose objects hold more keys than the threshold, across files, is a map") {
    // Three keys per file, nine in all: no single file passes a threshold of 5, the union does.
    val files =
      (0 until 3).map(i => keyed(s"f$i.json", "m", (0 until 3).map(k => s"id${i * 3 + k}"), "BIGINT"))
    assert(typeOf(resolve(config(5), "*", files: _*), "m") == "map<string,bigint>")
    assert(typeOf(resolve(config(9), "*", files: _*), "m").startsWith("struct<id0:bigint,id1:bigint"))
    assert(typeOf(resolve(config(-1), "*", files: _*), "m").startsWith("struct<"))
  }

  test("keys in two spellings count once; the map's value is the widening of every value") {
    val a = keyed("a.json", "m", Seq("Name", "x"), "BIGINT")
    val b = keyed("b.json", "m", Seq("name", "y"), "DOUBLE")
    assert(typeOf(resolve(config(3), "*", a, b), "m") == "struct<Name:double,x:bigint,y:double>")
    assert(typeOf(resolve(config(2), "*", a, b), "m") == "map<string,double>")
    // Values that do not widen to one type: a string of each value's JSON text.
    val c = file("c.json", "m STRUCT<p: STRUCT<q: BIGINT>, r: BIGINT, s: ARRAY<BIGINT>>")
    assert(typeOf(resolve(config(2), "*", c), "m") == "map<string,string>")
  }

  test("decided per object path: a map inside a struct, a struct inside a map, maps of maps") {
    val files = (0 until 4).map { i =>
      file(
        s"d$i.json",
        s"doc STRUCT<title: STRING, props: STRUCT<p$i: STRUCT<type: STRING, n: BIGINT>, q$i: STRUCT<type: " +
          s"STRING>>, defs: STRUCT<D$i: STRUCT<k${i}a: BIGINT, k${i}b: BIGINT>>>"
      )
    }
    val r = resolve(config(3), "*", files: _*)
    // doc has three members; props holds 8 keys across the files, each a small struct; defs holds 4 keys,
    // their objects 8 keys in all.
    assert(
      typeOf(r, "doc") ==
        "struct<title:string,props:map<string,struct<type:string,n:bigint>>,defs:map<string,map<string,bigint>>>"
    )
    assert(r.table.columns.head.inferredMaps == Seq("doc.props", "doc.defs", "doc.defs{value}"))
  }

  test("a file's own map (its sample passed the threshold) meets other files' structs as entries") {
    val own = file("a.json", "m MAP<STRING, BIGINT>")
    val few = keyed("b.json", "m", Seq("x"), "DOUBLE")
    assert(typeOf(resolve(config(3), "*", own, few), "m") == "map<string,double>")
    assert(
      typeOf(
        resolve(config(3), "*", few, file("z.json", "m MAP<STRING, BIGINT>")),
        "m"
      ) == "map<string,double>"
    )
  }

  test("the choice and the types are the same whatever the order of the files") {
    val rng = new Random(7)
    Seq(-1, 2, 4, 8).foreach { threshold =>
      (1 to 40).foreach { seed =>
        val r = new Random(seed)
        val schemas = (0 until 2 + r.nextInt(6)).map { _ =>
          val keys = Seq.fill(1 + r.nextInt(4))(s"k${r.nextInt(12)}").distinct
          val inner = Seq.fill(1 + r.nextInt(3))(s"i${r.nextInt(6)}").distinct
          val t =
            Seq("BIGINT", "DOUBLE", "STRING", s"STRUCT<${inner.map(n => s"$n: BIGINT").mkString(", ")}>")
          s"m STRUCT<${keys.map(k => s"$k: ${t(r.nextInt(t.size))}").mkString(", ")}>"
        }
        val a = resolve(
          config(threshold),
          "*",
          schemas.zipWithIndex.map { case (s, i) => file(s"f$i.json", s) }: _*
        )
        val shuffled = rng.shuffle(schemas)
        val b = resolve(
          config(threshold),
          "*",
          shuffled.zipWithIndex.map { case (s, i) => file(s"f$i.json", s) }: _*
        )
        assert(
          sorted(a.schema("m").dataType) == sorted(b.schema("m").dataType),
          s"threshold $threshold seed $seed"
        )
      }
    }
  }

  test("a provided schema gives any member a map or a struct type, whatever the threshold") {
    val files =
      (0 until 3).map(i => keyed(s"f$i.json", "m", (0 until 3).map(k => s"id${i * 3 + k}"), "BIGINT"))
    val struct = ScanConfig(
      providedSchema = Some(ProvidedSchema.parse("m STRUCT<id0: BIGINT, id4: BIGINT>")),
      mapInferenceThreshold = 1
    )
    assert(typeOf(resolve(struct, "*", files: _*), "m") == "struct<id0:bigint,id4:bigint>")
    val map = ScanConfig(
      providedSchema = Some(ProvidedSchema.parse("doc STRUCT<title: STRING, ids: MAP<STRING, BIGINT>>")),
      mapInferenceThreshold = -1
    )
    val docs = (0 until 2).map(i => file(s"d$i.json", s"doc STRUCT<title: STRING, ids: STRUCT<a$i: BIGINT>>"))
    val r = resolve(map, "*", docs: _*)
    assert(typeOf(r, "doc") == "struct<title:string,ids:map<string,bigint>>")
    assert(r.table.columns.head.inferredMaps.isEmpty, "a provided map is no inferred one")
  }

  test("a conflict in a map's values is one conflict at m{value}, not one per key; fail names it") {
    val a = keyed("a.json", "m", (0 until 5).map(k => s"a$k"), "BIGINT")
    val b = keyed("b.json", "m", (0 until 5).map(k => s"b$k"), "STRING")
    val r = resolve(config(3), "*", a, b)
    assert(typeOf(r, "m") == "map<string,string>")
    assert(
      r.reports(1).conflicts == Seq(
        TypeConflict("m", "m{value}", LongType, "/data/a.json", StringType, "/data/b.json")
      )
    )
    assert(r.reports.head.conflicts.isEmpty, "values of several types in one file's map are no conflict")
    val e =
      intercept[SchemaException](resolve(config(3).copy(typeConflict = TypeConflictMode.Fail), "*", a, b))
    assert(
      e.getMessage.contains("column 'm{value}': bigint in /data/a.json, string in /data/b.json"),
      e.getMessage
    )
    assert(e.getMessage.contains("would make the column map<string,string>"), e.getMessage)
  }

  test("many files whose objects all differ merge in time linear in the files") {
    // 2,000 documents of 40 distinct property names each (80,000 in all): the merge once compared each file
    // with every earlier distinct type.
    val files = (0 until 2000).map { i =>
      file(
        f"s/d$i%04d.json",
        s"properties STRUCT<${(0 until 40).map(k => s"p${i}_$k: STRUCT<type: STRING>").mkString(", ")}>"
      )
    }
    val started = System.nanoTime()
    val r = resolve(config(200), "*", files: _*)
    val seconds = (System.nanoTime() - started) / 1e9
    assert(typeOf(r, "properties") == "map<string,struct<type:string>>")
    assert(seconds < 10, s"$seconds s")
  }

  // ---- the bound -------------------------------------------------------------------------------------------

  test("a discovered schema wider than maxSchemaFields fails naming the widest member and both options") {
    val files =
      (0 until 30).map(i => keyed(s"f$i.json", "props", (0 until 20).map(k => s"p${i}_$k"), "BIGINT")) :+
        file("g.json", "title STRING, small STRUCT<a: BIGINT, b: BIGINT>")
    val e = intercept[SchemaException](resolve(config(-1, maxFields = 500), "*", files: _*))
    assert(
      e.getMessage ==
        "[SPARK_DRILL_SCHEMA_CONFLICT] spark-drill: the discovered schema has 603 leaf fields, more than maxSchemaFields=500; its widest " +
        "member is 'props', with 600 members (600 leaf fields). An object whose keys are data (ids, dates, " +
        "names) is a map when its objects hold more than mapInferenceThreshold distinct keys (now -1: never): " +
        "set mapInferenceThreshold below 600 to read it as a map<string, ...>, or raise maxSchemaFields"
    )
    assert(
      resolve(config(-1, maxFields = 603), "*", files: _*).schema("props").dataType.isInstanceOf[StructType]
    )
    assert(typeOf(resolve(config(200, maxFields = 500), "*", files: _*), "props") == "map<string,bigint>")
  }

  test("the widest member may be nested, or the top level itself") {
    val nested =
      file("n.json", s"doc STRUCT<meta: STRUCT<${(0 until 50).map(k => s"k$k: BIGINT").mkString(", ")}>>")
    val e = intercept[SchemaException](resolve(config(100, maxFields = 10), "*", nested))
    assert(
      e.getMessage.contains("its widest member is 'doc.meta', with 50 members (50 leaf fields)"),
      e.getMessage
    )
    assert(e.getMessage.contains("(now 100)") && e.getMessage.contains("below 50"), e.getMessage)
    val top = file("t.json", (0 until 40).map(k => s"c$k BIGINT").mkString(", "))
    val t = intercept[SchemaException](resolve(config(200, maxFields = 30), "*", top))
    assert(
      t.getMessage.contains("its widest member is the top level, with 40 columns (40 leaf fields)"),
      t.getMessage
    )
    assert(t.getMessage.contains("raise maxSchemaFields"), t.getMessage)
  }

  test("provided, defined and dropped columns do not count against the bound") {
    val files = (0 until 3).map(i => keyed(s"f$i.json", "m", (0 until 10).map(k => s"id${i}_$k"), "BIGINT"))
    val provided =
      ScanConfig(
        providedSchema = Some(ProvidedSchema.parse("m MAP<STRING, BIGINT>")),
        mapInferenceThreshold = -1,
        maxSchemaFields = 5
      )
    assert(typeOf(resolve(provided, "*", files: _*), "m") == "map<string,bigint>")
    val defined = ScanConfig(
      definedSchema = Some(StructType.fromDDL("x BIGINT")),
      mapInferenceThreshold = -1,
      maxSchemaFields = 5
    )
    assert(resolve(defined, "*", files: _*).schema.fieldNames.toSeq == Seq("x"))
  }

  test("reports: a file's own type, the table's map, and the paths map inference made maps") {
    val files =
      (0 until 3).map(i => keyed(s"f$i.json", "m", (0 until 3).map(k => s"id${i * 3 + k}"), "BIGINT"))
    val r = ScanSchemaTracker.resolve(config(5), Projection.wildcard, files)
    val first = r.reports.head.columns.head
    assert(first.fileType.simpleString == "struct<id0:bigint,id1:bigint,id2:bigint>")
    assert(first.tableType.map(_.simpleString).contains("map<string,bigint>"))
    assert(first.inferredMaps == Seq("m"))
    assert(r.reports.flatMap(_.conflicts).isEmpty)
  }

  private def sorted(t: DataType): DataType = t match {
    case s: StructType =>
      StructType(s.fields.sortBy(_.name.toLowerCase).map(f => f.copy(dataType = sorted(f.dataType))))
    case a: ArrayType => a.copy(elementType = sorted(a.elementType))
    case m: MapType => m.copy(valueType = sorted(m.valueType))
    case other => other
  }
}
