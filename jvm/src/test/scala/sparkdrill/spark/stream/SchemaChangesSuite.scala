package sparkdrill.spark.stream

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.scan.{ScanFile, TableScan}

/** What a new file brings that a stream's schema version lacks, and the version made from it (SPEC 11). */
class SchemaChangesSuite extends AnyFunSuite {
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
  private val options = TableScan.parseOptions(Map("header" -> "true"))
  private val hive = TableScan.parseOptions(Map("header" -> "true", "partitionStyle" -> "hive"))

  private def file(name: String, dirs: String*) = ScanFile(s"file:/in/$name", 1L, 1L, dirs.toArray, "csv")
  private def schema(fields: (String, DataType)*) = StructType(fields.map { case (n, t) =>
    StructField(n, t)
  })

  test("a file with the schema's columns (any case, any order, fewer) brings nothing") {
    val same = schema("NAME" -> StringType, "id" -> IntegerType)
    assert(SchemaChanges.of(v0, file("a.csv", "x"), same, options, widening = false).isEmpty)
    assert(
      SchemaChanges.of(v0, file("a.csv"), schema("id" -> IntegerType), options, widening = false).isEmpty
    )
  }

  test("new columns, a deeper directory and new hive keys are changes") {
    val c = SchemaChanges.of(
      v0,
      file("a.csv", "x", "y"),
      schema("id" -> IntegerType, "extra" -> DoubleType),
      options,
      false
    )
    assert(c.map(_.newColumns.map(_.name)).contains(Seq("extra")))
    assert(c.map(_.newPerFile).contains(Seq("dir1")))
    val h = SchemaChanges.of(v0, file("a.csv", "day=1", "plain"), schema("id" -> IntegerType), hive, false)
    assert(h.map(_.newPerFile).contains(Seq("day")))
  }

  test("a type that widens is a change only under type widening; a narrower one never is") {
    val wider = schema("id" -> StringType)
    assert(SchemaChanges.of(v0, file("a.csv"), wider, options, widening = false).isEmpty)
    assert(
      SchemaChanges.of(v0, file("a.csv"), wider, options, widening = true).map(_.widened) ==
        Some(Seq(StructField("id", StringType)))
    )
    val narrower = v0.copy(schema = schema("id" -> LongType))
    assert(
      SchemaChanges.of(narrower, file("a.csv"), schema("id" -> IntegerType), options, widening = true).isEmpty
    )
  }

  test("headerless text without a schema has nothing to add but directories") {
    val columns =
      v0.copy(schema = schema("columns" -> ArrayType(StringType)), perFileColumns = Nil, columnsArray = true)
    assert(
      SchemaChanges
        .of(
          columns,
          file("a.csv"),
          schema("columns" -> ArrayType(StringType), "x" -> StringType),
          options,
          false
        )
        .isEmpty
    )
  }

  test("the next version keeps existing columns and types, then new ones first seen first, types unioned") {
    val changes = Seq(
      SchemaChanges
        .of(v0, file("b.csv", "x", "y"), schema("b" -> IntegerType, "a" -> IntegerType), options, false)
        .get,
      SchemaChanges.of(v0, file("c.csv"), schema("A" -> DoubleType, "c" -> StringType), options, false).get
    )
    val v1 = SchemaChanges.next(v0, changes, "g")
    assert(v1.version == 1 && v1.cause.contains("/in/b.csv") && v1.fingerprint == "g")
    assert(
      v1.schema.map(f => f.name -> f.dataType) == Seq(
        "id" -> IntegerType,
        "name" -> StringType,
        "dir0" -> StringType,
        "b" -> IntegerType,
        "a" -> DoubleType,
        "c" -> StringType,
        "dir1" -> StringType
      )
    )
    assert(v1.perFileColumns == Seq("dir0", "dir1"))
    assert(v1.dataSchema.fieldNames.toSeq == Seq("id", "name", "b", "a", "c"))
    assert(v1.added == Seq("b", "a", "c", "dir1"))
  }

  test("a widened column keeps its place with the wider type") {
    val change = SchemaChanges.of(v0, file("a.csv"), schema("id" -> DoubleType), options, widening = true).get
    val v1 = SchemaChanges.next(v0, Seq(change), "g")
    assert(v1.schema("id").dataType == DoubleType && v1.schema.fieldNames.head == "id")
    assert(v1.added == Seq("id (widened)"))
  }

  test("columns met past the sample append what the version lacks, typed as discovery types them") {
    val late = schema("NAME" -> StringType, "seen" -> NullType, "n" -> LongType)
    val next = SchemaChanges.withColumns(v0, late, "file:/in/b.json", "g").get
    assert(next.version == 1 && next.added == Seq("seen", "n") && next.cause.contains("file:/in/b.json"))
    assert(
      next.schema.map(f => f.name -> f.dataType) == v0.schema.map(f => f.name -> f.dataType) ++
        Seq("seen" -> StringType, "n" -> LongType)
    )
    assert(
      next.perFileColumns == Seq("dir0") && next.dataSchema.fieldNames.toSeq == Seq("id", "name", "seen", "n")
    )
    assert(SchemaChanges.withColumns(v0, schema("Id" -> StringType), "file:/in/b.json", "g").isEmpty)
  }

  test("tasks that meet members past the sample each write what the newest version lacks, once") {
    val dir = java.nio.file.Files.createTempDirectory("late-columns").toString
    val conf = new org.apache.hadoop.conf.Configuration()
    SchemaVersions.write(dir, v0, conf)
    val stop = PastSampleColumns(dir, v0, EvolutionMode.AddNewColumns, "g")
    def stopped(columns: StructType): StreamSchemaException =
      intercept[StreamSchemaException](stop.stop("file:/in/b.json", columns, 3L, conf))
    val first = stopped(schema("x" -> LongType))
    assert(first.errorClass == StreamSchemaException.Changed && first.getMessage.contains("Version 1"))
    assert(first.getMessage.contains("b.json has, at line 3"))
    // A retry of the same task, or another task with the same member: no new version.
    assert(stopped(schema("X" -> LongType)).getMessage.contains("Version 1"))
    // Another task's member, after version 1: version 2 keeps version 1's column.
    assert(stopped(schema("y" -> BooleanType)).getMessage.contains("Version 2"))
    assert(SchemaVersions.all(dir, conf).map(_.added) == Seq(v0.added, Seq("x"), Seq("y")))
    assert(SchemaVersions.newest(dir, conf).get.dataSchema.fieldNames.toSeq == Seq("id", "name", "x", "y"))
    // failOnNewColumns stops and writes nothing.
    val fail = intercept[StreamSchemaException](
      stop
        .copy(mode = EvolutionMode.FailOnNewColumns)
        .stop("file:/in/c.json", schema("z" -> LongType), 9L, conf)
    )
    assert(fail.errorClass == StreamSchemaException.NewColumns && fail.getMessage.contains("line 9"))
    assert(SchemaVersions.all(dir, conf).size == 3)
  }
}
