package sparkdrill.stream.schema

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.projection.{FileInfo, Projection}
import sparkdrill.reader.ReaderOptions
import sparkdrill.errors.{ErrorClasses, StreamStopException}
import sparkdrill.scan.TableScan
import sparkdrill.stream.StreamOptions
import sparkdrill.scan.schema.{Discovery, FileSchema, ScanConfig, ScanSchemaTracker}

/** A stream's next schema version is the scan schema tracker's (SPEC 11, "One schema, batch or stream"):
  * what new files bring that a version lacks, without a SparkSession.
  */
class SchemaEvolutionSuite extends AnyFunSuite {
  private val v0 = SchemaVersion(
    version = 0,
    schema = StructType(
      Seq(StructField("id", IntegerType), StructField("name", StringType), StructField("dir0", StringType))
    ),
    perFileColumns = Seq("dir0"),
    columnsArray = false,
    inputPath = "file:/in",
    fingerprint = "f",
    cause = None,
    added = Seq("id", "name", "dir0"),
    writtenAtMillis = 0L
  )
  private def options(more: (String, String)*): ReaderOptions =
    TableScan.parseOptions(Map("header" -> "true") ++ more, StreamOptions.all)
  private val adding = SchemaEvolution(options(), byPosition = false)
  private val widening =
    SchemaEvolution(options("schemaEvolutionMode" -> "addNewColumnsWithTypeWidening"), byPosition = false)

  private def file(name: String, fields: (String, DataType)*)(dirs: String*): FileSchema =
    FileSchema(
      FileInfo(s"file:/in/${(dirs :+ name).mkString("/")}", dirs, 1L, 1L),
      schema(fields: _*),
      Discovery.Sampled
    )
  private def schema(fields: (String, DataType)*) = StructType(fields.map { case (n, t) =>
    StructField(n, t)
  })
  private def types(s: StructType): Seq[(String, DataType)] = s.fields.toSeq.map(f => f.name -> f.dataType)

  test("a file with the version's columns (any case, any order, fewer) brings nothing") {
    assert(adding.next(v0, Seq(file("a.csv", "NAME" -> StringType, "id" -> IntegerType)("x")), "a").isEmpty)
    assert(adding.brings(v0, file("a.csv", "id" -> IntegerType)()).isEmpty)
  }

  test("new columns, a deeper directory and new hive keys are changes") {
    val c = adding.brings(v0, file("a.csv", "id" -> IntegerType, "extra" -> DoubleType)("x", "y"))
    assert(c == Seq("extra", "dir1"))
    val hive = SchemaEvolution(options("partitionStyle" -> "hive"), byPosition = false)
    assert(hive.brings(v0, file("a.csv", "id" -> IntegerType)("day=1", "plain")) == Seq("day"))
  }

  test("a type that widens is a change only under type widening; a narrower one never is") {
    val wider = file("a.csv", "id" -> StringType)()
    assert(adding.next(v0, Seq(wider), "a").isEmpty)
    val v1 = widening.next(v0, Seq(wider), "a").get
    assert(v1.schema("id").dataType == StringType && v1.schema.fieldNames.head == "id")
    assert(v1.added == Seq("id (widened)"))
    val long = v0.copy(schema = schema("id" -> LongType))
    assert(widening.next(long, Seq(file("a.csv", "id" -> IntegerType)()), "a").isEmpty)
  }

  test("headerless text without a schema has nothing to add but directories") {
    val columns =
      v0.copy(schema = schema("columns" -> ArrayType(StringType)), perFileColumns = Nil, columnsArray = true)
    val headerless = SchemaEvolution(options("header" -> "false"), byPosition = true)
    val array = "columns" -> ArrayType(StringType)
    assert(headerless.next(columns, Seq(file("a.csv", array)()), "a").isEmpty)
    assert(headerless.brings(columns, file("a.csv", array)("x")) == Seq("dir0"))
  }

  test("the next version keeps existing columns and types, then new ones in path order, types joined") {
    val files = Seq(
      file("c.csv", "A" -> DoubleType, "c" -> StringType)(),
      file("b.csv", "b" -> IntegerType, "a" -> IntegerType)("x", "y")
    )
    val v1 = adding.next(v0, files, "file:/in/b.csv").get
    assert(v1.version == 1 && v1.cause.contains("file:/in/b.csv"))
    assert(
      types(v1.schema) == Seq(
        "id" -> IntegerType,
        "name" -> StringType,
        "dir0" -> StringType,
        "A" -> DoubleType,
        "c" -> StringType,
        "b" -> IntegerType,
        "dir1" -> StringType
      )
    )
    assert(v1.perFileColumns == Seq("dir0", "dir1"))
    assert(v1.dataSchema.fieldNames.toSeq == Seq("id", "name", "A", "c", "b"))
    assert(v1.added == Seq("A", "c", "b", "dir1"))
  }

  test("an object whose keys are data is the map batch discovery makes, not a struct of every key") {
    // Issue 38's case: five files land together, each with 60 user ids as keys of `attrs`.
    val json = TableScan.parseOptions(Map.empty)
    val evolution = SchemaEvolution(json, byPosition = false)
    val ids = v0.copy(schema = schema("id" -> LongType), perFileColumns = Nil)
    val files = (0 until 5).map { f =>
      val attrs = StructType((0 until 60).map(k => StructField(s"user${f * 60 + k}", LongType)))
      file(s"f$f.json", "id" -> LongType, "attrs" -> attrs)()
    }
    val v1 = evolution.next(ids, files, "f0.json").get
    assert(v1.schema("attrs").dataType == MapType(StringType, LongType))
    val batch = ScanSchemaTracker.resolve(ScanConfig.fromOptions(json), Projection.wildcard, files).schema
    assert(types(v1.schema) == types(batch))
  }

  test("a provided schema's columns keep their types; what files add beyond it is discovered as in batch") {
    val provided = options("providedSchema" -> "id bigint, name string")
    val v = v0.copy(schema = schema("id" -> LongType, "name" -> StringType), perFileColumns = Nil)
    val next = SchemaEvolution(provided, byPosition = false)
      .next(v, Seq(file("a.csv", "id" -> StringType, "n" -> IntegerType)()), "a")
      .get
    assert(types(next.schema) == Seq("id" -> LongType, "name" -> StringType, "n" -> IntegerType))
  }

  test("columns met past the sample append what the version lacks, typed as discovery types them") {
    val dir = java.nio.file.Files.createTempDirectory("late-columns").toString
    val conf = new org.apache.hadoop.conf.Configuration()
    SchemaVersions.write(dir, v0, conf)
    val late = schema("NAME" -> StringType, "seen" -> NullType, "n" -> LongType)
    val e =
      intercept[StreamStopException](PastSampleColumns(dir, v0, options()).stop("b.json", late, 4L, conf))
    assert(e.errorClass == ErrorClasses.StreamSchemaChanged)
    val next = SchemaVersions.newest(dir, conf).get
    assert(next.version == 1 && next.added == Seq("seen", "n") && next.cause.contains("b.json"))
    assert(types(next.schema) == types(v0.schema) ++ Seq("seen" -> StringType, "n" -> LongType))
    assert(next.dataSchema.fieldNames.toSeq == Seq("id", "name", "seen", "n"))
  }

  test("tasks that meet members past the sample each write what the newest version lacks, once") {
    val dir = java.nio.file.Files.createTempDirectory("late-columns").toString
    val conf = new org.apache.hadoop.conf.Configuration()
    SchemaVersions.write(dir, v0, conf)
    val stop = PastSampleColumns(dir, v0, options())
    def stopped(columns: StructType): StreamStopException =
      intercept[StreamStopException](stop.stop("file:/in/b.json", columns, 3L, conf))
    val first = stopped(schema("x" -> LongType))
    assert(first.errorClass == ErrorClasses.StreamSchemaChanged && first.getMessage.contains("Version 1"))
    assert(first.getMessage.contains("b.json has, at line 3"))
    // A retry of the same task, or another task with the same member: no new version.
    assert(stopped(schema("X" -> LongType)).getMessage.contains("Version 1"))
    // Another task's member, after version 1: version 2 keeps version 1's column.
    assert(stopped(schema("y" -> BooleanType)).getMessage.contains("Version 2"))
    assert(SchemaVersions.all(dir, conf).map(_.added) == Seq(v0.added, Seq("x"), Seq("y")))
    assert(SchemaVersions.newest(dir, conf).get.dataSchema.fieldNames.toSeq == Seq("id", "name", "x", "y"))
    // failOnNewColumns stops and writes nothing.
    val fail = intercept[StreamStopException](
      stop
        .copy(options = options("schemaEvolutionMode" -> "failOnNewColumns"))
        .stop("file:/in/c.json", schema("z" -> LongType), 9L, conf)
    )
    assert(fail.errorClass == ErrorClasses.StreamNewColumns && fail.getMessage.contains("line 9"))
    assert(SchemaVersions.all(dir, conf).size == 3)
  }
}
