package sparkdrill.scan.schema

import java.io.{ByteArrayOutputStream, ObjectOutputStream}

import org.apache.spark.sql.catalyst.util.DateTimeUtils
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.reader.RecordColumns
import sparkdrill.loader.ProjectionFilter
import sparkdrill.projection._
import sparkdrill.scan.schema.TrackerFixtures._
import sparkdrill.errors.SchemaException

class ScanSchemaTrackerSuite extends AnyFunSuite {
  private val csvh = ScanConfig()
  private val json = ScanConfig()
  // Headerless text: fields bind by position, or form the `columns` array.
  private val text = ScanConfig(byPosition = true)
  private def provided(ddl: String, strict: Boolean = false) =
    ScanConfig(providedSchema = Some(ProvidedSchema.parse(ddl)), strictSchema = strict)
  // The reader columns the file lacks (by the columns the tracker reports for it), with the value the plan
  // fills them with; none when fields bind by position.
  private def fillOf(r: ResolvedSchema, plan: ScanPlan, path: String): Map[String, Any] = {
    def key(name: String) = name.toLowerCase(java.util.Locale.ROOT)
    val has = r.reports.find(_.path == path).get.columns.map(c => key(c.name)).toSet
    if (plan.readerInput.byPosition) Map.empty
    else
      plan.readerInput.columns.collect {
        case c if c.fromFile && !has(key(c.field.name)) =>
          c.field.name -> c.fill.literal(c.field.dataType).value
      }.toMap
  }

  /** A file's per-file constants, by output column name. */
  private def constants(plan: ScanPlan, file: FileInfo): Seq[(String, Any)] =
    plan.constantColumns.map(plan.output(_).name).zip(plan.constants(Seq(file)).head)
  private def options(entries: (String, String)*) = sparkdrill.scan.TableScan.parseOptions(entries.toMap)
  private var infos = Map.empty[String, FileInfo]
  private def fileInfo(path: String): FileInfo = infos(path)
  private def remember(files: FileSchema*): Seq[FileSchema] = {
    files.foreach(f => infos += f.path -> f.file); files
  }

  // ---- union and modes -------------------------------------------------------------------------------------

  test("two_files_expanding_schema: evolve is the union in path order; f0 lacks c, which is null there") {
    val fs = remember(csv("t/f1.csv", "a", "b", "c"), csv("t/f0.csv", "a", "b"))
    val r = ScanSchemaTracker.resolve(csvh.copy(partitionColumns = false), Projection.wildcard, fs)
    assert(shape(r.schema) == Seq(("a", "string", true), ("b", "string", true), ("c", "string", true)))
    assert(fillOf(r, r.plan, "/data/t/f0.csv") == Map("c" -> null))
    assert(fillOf(r, r.plan, "/data/t/f1.csv").isEmpty)
  }

  test("csvh_multi_file_wildcard_union: headers in other orders are matched by name") {
    val r = resolve(
      csvh,
      "*",
      csv("file0.csv", "id", "name", "date", "gender"),
      csv("file1.csv", "name", "id", "date")
    )
    assert(names(r.schema) == Seq("id", "name", "date", "gender"))
    assert(r.reports(1).missing == Seq("gender"))
  }

  test("csv_union_by_name_header_order: three header orders, one column order") {
    val r = resolve(
      csvh,
      "*",
      csv("t/c.csv", "name", "city", "id"),
      csv("t/a.csv", "id", "name", "city"),
      csv("t/b.csv", "city", "id", "name")
    )
    assert(names(r.schema).take(3) == Seq("id", "name", "city"))
  }

  test("names compare case-insensitively; the first spelling (path order) wins") {
    val r = resolve(json, "*", file("b.json", "a BIGINT, BOB BIGINT"), file("a.json", "A BIGINT, Bob BIGINT"))
    assert(names(r.schema) == Seq("A", "Bob"))
    assert(r.reports(1).columns.map(_.status) == Seq(ColumnStatus.Matched, ColumnStatus.Matched))
  }

  test(
    "schemamode_strict_first_file: the first file defines the columns, others' extras are reported dropped"
  ) {
    val cfg = csvh.copy(schemaMode = SchemaMode.Strict)
    val fs = remember(csv("t/f0.csv", "a", "b"), csv("t/f1.csv", "a", "b", "c"), csv("t/f2.csv", "b"))
    val r = ScanSchemaTracker.resolve(cfg, Projection.wildcard, fs)
    assert(names(r.schema) == Seq("a", "b", "dir0"))
    assert(r.reports(1).dropped == Seq("c"))
    assert(r.reports(1).columns.last.status == ColumnStatus.Dropped(DropReason.SchemaModeStrict))
    assert(r.warnings.exists(w => w.contains("'c'") && w.contains("schemaMode=strict")))
    assert(fillOf(r, r.plan, "/data/t/f2.csv") == Map("a" -> null))
  }

  test("schemaMode=fail: a file with other columns is an error naming it and the columns") {
    val e = intercept[SchemaException] {
      resolve(csvh.copy(schemaMode = SchemaMode.Fail), "*", csv("f0.csv", "a", "b"), csv("f1.csv", "a", "c"))
    }
    assert(
      e.getMessage.contains("/data/f1.csv") && e.getMessage.contains("lacks b") && e.getMessage.contains(
        "extra c"
      )
    )
    assert(e.getMessage.contains("schemaMode=fail"))
    // same columns in another order and spelling are fine
    resolve(csvh.copy(schemaMode = SchemaMode.Fail), "*", csv("f0.csv", "a", "b"), csv("f1.csv", "B", "a"))
  }

  test("csvh_empty_file: a file with no columns contributes nothing and is no error") {
    val r =
      resolve(csvh.copy(schemaMode = SchemaMode.Fail), "*", csv("t/empty.csv"), csv("t/data.csv", "a", "b"))
    assert(names(r.schema) == Seq("a", "b", "dir0"))
  }

  // ---- widening ----------------------------------------------------------------------------------------------

  private def widened(types: String*): String = {
    val files = types.zipWithIndex.map { case (t, i) => file(s"f$i.json", s"x $t") }
    resolve(json, "x", files: _*).schema("x").dataType.simpleString
  }

  test("widening: int -> bigint -> double") {
    assert(widened("INT", "BIGINT") == "bigint")
    assert(widened("BIGINT", "DOUBLE") == "double")
    assert(widened("INT", "DOUBLE", "BIGINT") == "double")
  }

  test("json_int_then_double_widens (across files): a bigint column seen as double is a double") {
    assert(widened("BIGINT", "DOUBLE") == "double")
  }

  test("widening: boolean with a number, or anything with a string, is a string") {
    assert(widened("BOOLEAN", "BIGINT") == "string")
    assert(widened("DOUBLE", "STRING") == "string")
    assert(widened("DATE", "TIMESTAMP") == "timestamp")
    assert(widened("DATE", "BIGINT") == "string")
  }

  test("json_cross_file_number_string_widens: bigint in f1, string in f2 -> string, reported") {
    val r = resolve(json, "*", file("t/f1.json", "a BIGINT"), file("t/f2.json", "a STRING"))
    assert(r.schema("a").dataType == StringType)
    val c = r.reports(1).conflicts.head
    assert(c == TypeConflict("a", "a", LongType, "/data/t/f1.json", StringType, "/data/t/f2.json"))
    assert(r.warnings.exists(_.contains("type conflict widened")))
  }

  test("json_object_then_scalar_as_text: struct vs scalar -> string (JSON text), both orders") {
    assert(widened("STRUCT<b: BIGINT>", "BIGINT") == "string")
    assert(widened("BIGINT", "STRUCT<b: BIGINT>") == "string")
    assert(widened("ARRAY<BIGINT>", "STRUCT<b: BIGINT>") == "string")
  }

  test("json_null_and_empty_array_first: a scalar where the column is an array -> array of it") {
    assert(widened("ARRAY<BOOLEAN>", "BOOLEAN") == "array<boolean>")
    assert(widened("BOOLEAN", "ARRAY<VOID>", "ARRAY<BOOLEAN>") == "array<boolean>")
    assert(widened("BIGINT", "ARRAY<DOUBLE>") == "array<double>")
  }

  test("arrays with elements of mixed kinds -> array<string>") {
    assert(widened("ARRAY<BIGINT>", "ARRAY<STRING>") == "array<string>")
    assert(widened("ARRAY<BIGINT>", "ARRAY<STRUCT<a: BIGINT>>") == "array<string>")
    assert(widened("ARRAY<BOOLEAN>", "ARRAY<BIGINT>") == "array<string>")
  }

  test("null-only columns are strings; arrays of only nulls are array<string>; another file's type wins") {
    assert(widened("VOID") == "string")
    assert(widened("ARRAY<VOID>") == "array<string>")
    assert(widened("VOID", "BIGINT") == "bigint")
    assert(widened("STRUCT<a: VOID>", "STRUCT<a: DOUBLE, b: BOOLEAN>") == "struct<a:double,b:boolean>")
  }

  test("structs merge member-wise, widening members and keeping first-seen member order") {
    assert(
      widened(
        "STRUCT<a: BIGINT, b: STRING>",
        "STRUCT<c: BOOLEAN, A: DOUBLE>"
      ) == "struct<a:double,b:string,c:boolean>"
    )
  }

  test("typeconflict_fail_names_files: typeConflict=fail names the column, both types and both files") {
    val e = intercept[SchemaException] {
      resolve(
        json.copy(typeConflict = TypeConflictMode.Fail),
        "*",
        file("t/f2.json", "qty STRING"),
        file("t/f1.json", "qty BIGINT")
      )
    }
    Seq("qty", "bigint", "/data/t/f1.json", "string", "/data/t/f2.json", "typeConflict").foreach { s =>
      assert(e.getMessage.contains(s), e.getMessage)
    }
  }

  test("typeConflict=fail names the nested path of a member conflict; new members are no conflict") {
    val cfg = json.copy(typeConflict = TypeConflictMode.Fail)
    resolve(
      cfg,
      "*",
      file("a.json", "m STRUCT<x: BIGINT>"),
      file("b.json", "m STRUCT<y: STRING>"),
      file("c.json", "m VOID")
    )
    val e = intercept[SchemaException] {
      resolve(cfg, "*", file("a.json", "m STRUCT<x: BIGINT>"), file("b.json", "m STRUCT<x: STRING>"))
    }
    assert(e.getMessage.contains("'m.x'"))
  }

  // ---- provided and defined schema -------------------------------------------------------------------------

  test("csv_schema_basic: in schema and file, file only, schema only (NOT NULL DEFAULT), neither") {
    val cfg = provided(
      "intcol INT NOT NULL, datecol DATE NOT NULL, dub DOUBLE NOT NULL, extra BIGINT NOT NULL DEFAULT 20"
    )
    val fs = remember(csv("basic/file0.csv", "intcol", "datecol", "str", "dub"))
    val r =
      ScanSchemaTracker.resolve(cfg, ProjectionParser.parse("intcol, datecol, str, dub, extra, missing"), fs)
    assert(
      shape(r.schema) == Seq(
        ("intcol", "int", false),
        ("datecol", "date", false),
        ("str", "string", true),
        ("dub", "double", false),
        ("extra", "bigint", false),
        ("missing", "string", true)
      )
    )
    assert(fillOf(r, r.plan, "/data/basic/file0.csv") == Map("extra" -> 20L, "missing" -> null))
    assert(r.reports.head.columns.find(_.name == "intcol").get.status == ColumnStatus.Converted)
    assert(r.plan.readerInput.columns.map(_.fill).take(2) == Seq(Fill.Zero, Fill.Zero))
  }

  test("csv_schema_wildcard_lenient: provided columns first in provided order, then file-only columns") {
    val cfg = provided(
      "id INT NOT NULL, `date` DATE, gender STRING NOT NULL DEFAULT 'NA', `comment` STRING NOT NULL DEFAULT 'ABC'"
    )
    val fs = remember(
      csv("w/file0.csv", "id", "name", "date", "gender"),
      csv("w/file1.csv", "name", "id", "date"),
      csv("w/file2.csv", "name")
    )
    val r = ScanSchemaTracker.resolve(cfg.copy(partitionColumns = false), Projection.wildcard, fs)
    assert(
      shape(r.schema) == Seq(
        ("id", "int", false),
        ("date", "date", true),
        ("gender", "string", false),
        ("comment", "string", false),
        ("name", "string", true)
      )
    )
    val dino = fillOf(r, r.plan, "/data/w/file2.csv")
    assert(
      dino == Map(
        "id" -> 0,
        "date" -> null,
        "gender" -> UTF8String.fromString("NA"),
        "comment" -> UTF8String.fromString("ABC")
      )
    )
  }

  test("csv_schema_multifile_missing_col: explicit projection, per-file fills follow each file's header") {
    val cfg = provided(
      "id INT NOT NULL, `date` DATE, gender STRING NOT NULL DEFAULT 'NA', `comment` STRING NOT NULL DEFAULT 'ABC'"
    )
    val fs = remember(
      csv("s/file0.csv", "id", "name", "date", "gender"),
      csv("s/file1.csv", "name", "id", "date"),
      csv("s/file2.csv", "name", "date")
    )
    val r = ScanSchemaTracker.resolve(cfg, ProjectionParser.parse("id, name, date, gender, comment"), fs)
    assert(names(r.schema) == Seq("id", "name", "date", "gender", "comment"))
    assert(fillOf(r, r.plan, "/data/s/file0.csv") == Map("comment" -> UTF8String.fromString("ABC")))
    assert(fillOf(r, r.plan, "/data/s/file2.csv").keySet == Set("id", "gender", "comment"))
    assert(fillOf(r, r.plan, "/data/s/file2.csv")("id") == 0)
  }

  test("csv_schema_missing_required_types: NOT NULL without DEFAULT fills the type's zero") {
    val cfg = provided(
      "col_int INT NOT NULL, col_bigint BIGINT NOT NULL, col_double DOUBLE NOT NULL, col_float FLOAT NOT NULL, " +
        "col_var STRING NOT NULL, col_boolean BOOLEAN NOT NULL, col_date DATE NOT NULL, col_timestamp TIMESTAMP NOT NULL"
    )
    val fs = remember(csv("m/file0.csv", "id"))
    val r = ScanSchemaTracker.resolve(cfg, Projection.wildcard, fs)
    assert(
      names(r.schema) == Seq(
        "col_int",
        "col_bigint",
        "col_double",
        "col_float",
        "col_var",
        "col_boolean",
        "col_date",
        "col_timestamp",
        "id",
        "dir0"
      )
    )
    assert(r.schema("id").nullable)
    val fills = fillOf(r, r.plan, "/data/m/file0.csv")
    assert(
      fills("col_int") == 0 && fills("col_bigint") == 0L && fills("col_double") == 0.0 && fills(
        "col_float"
      ) == 0.0f
    )
    assert(fills("col_var") == UTF8String.fromString("") && fills("col_boolean") == false)
    assert(fills("col_date") == 0 && fills("col_timestamp") == 0L)
  }

  test("a DEFAULT on a nullable column is ignored with a warning") {
    val r = resolve(provided("a INT DEFAULT 3"), "*", csv("f.csv", "b"))
    assert(r.plan.readerInput.columns.head.fill == Fill.Null)
    assert(r.warnings.exists(_.contains("DEFAULT of nullable column 'a' is ignored")))
  }

  test("strictSchema=true: only the provided columns; file-only columns are reported dropped") {
    val r = resolve(
      provided("id INT", strict = true).copy(partitionColumns = false),
      "*",
      csv("f.csv", "id", "name")
    )
    assert(names(r.schema) == Seq("id"))
    assert(
      r.reports.head.columns.map(_.status) == Seq(
        ColumnStatus.Converted,
        ColumnStatus.Dropped(DropReason.StrictSchema)
      )
    )
  }

  test("null-column type: provided type, else another file's type, else string") {
    val cfg = provided("p DATE")
    val fs = remember(csv("a.csv", "x"), file("b.json", "x STRING, n BIGINT"))
    val r = ScanSchemaTracker.resolve(cfg, ProjectionParser.parse("p, n, z"), fs)
    assert(shape(r.schema) == Seq(("p", "date", true), ("n", "bigint", true), ("z", "string", true)))
    assert(fillOf(r, r.plan, "/data/a.csv") == Map("p" -> null, "n" -> null, "z" -> null))
  }

  test("defined schema: exactly the output; extra file columns dropped; missing ones filled") {
    val defined = StructType.fromDDL("b INT, a STRING")
    val fs = remember(csv("f.csv", "a", "c"))
    val r = ScanSchemaTracker.resolve(csvh.copy(definedSchema = Some(defined)), Projection.wildcard, fs)
    assert(r.schema == defined)
    assert(
      r.reports.head.columns.map(_.status) == Seq(
        ColumnStatus.Matched,
        ColumnStatus.Dropped(DropReason.DefinedSchema)
      )
    )
    assert(fillOf(r, r.plan, "/data/f.csv") == Map("b" -> null))
  }

  test("a defined schema that disagrees with the projection is an error (too short, too long, disjoint)") {
    val cfg = csvh.copy(definedSchema = Some(StructType.fromDDL("a STRING, b STRING")))
    Seq("a", "a, b, c", "c, d", "b, a").foreach { list =>
      val e = intercept[SchemaException](resolve(cfg, list, csv("f.csv", "a", "b")))
      assert(e.getMessage.contains("(a, b)") && e.getMessage.contains("project"), e.getMessage)
    }
    assert(names(resolve(cfg, "A, b", csv("f.csv", "a", "b")).schema) == Seq("A", "b"))
  }

  // ---- projection against the table -------------------------------------------------------------------------

  test("csvh_explicit_case_insensitive: explicit columns match headers ignoring case, named as projected") {
    val r = resolve(csvh, "A, b, C", csv("basic.csv", "a", "b", "c"))
    assert(names(r.schema) == Seq("A", "b", "C"))
    assert(r.plan.readerInput.schema.fieldNames.toSeq == Seq("a", "b", "c"))
    assert(r.plan.output.map(_.source) == Seq(0, 1, 2).map(ColumnSource.TableColumn(_)))
  }

  test("csvh_multi_file_different_headers: each file lacks the column the other has") {
    val fs = remember(
      csv("d2/cars1.csvh", "Year", "Make", "Model", "Price"),
      csv("d2/cars2.csvh", "Year", "Make", "Category", "Price")
    )
    val r = ScanSchemaTracker.resolve(csvh, ProjectionParser.parse("Year, Make, Model, Category"), fs)
    assert(names(r.schema) == Seq("Year", "Make", "Model", "Category"))
    assert(fillOf(r, r.plan, "/data/d2/cars1.csvh").keySet == Set("Category"))
    assert(fillOf(r, r.plan, "/data/d2/cars2.csvh").keySet == Set("Model"))
  }

  test(
    "json_field_names_with_dots: member projections give structs of only those members; absent parent is a null struct"
  ) {
    val r = resolve(
      json,
      "m.`a.b`, m.a.b, `rk.q`, rk.q",
      file("table.json", "`rk.q` STRING, m STRUCT<`a.b`: STRING, a: STRUCT<b: STRING>, c: STRING>")
    )
    assert(
      shape(r.schema) == Seq(
        ("m", "struct<a.b:string,a:struct<b:string>>", true),
        ("rk.q", "string", true),
        ("rk", "struct<q:string>", true)
      )
    )
    val filter = r.plan.readerInput.filter
    assert(
      filter.isProjected("m") && filter.member("m").isProjected("a.b") && !filter.member("m").isProjected("c")
    )
  }

  test("json_projection_missing_nested: a projected path no file has is a null struct column") {
    val r = resolve(
      json,
      "field_1, non_existent_at_root, non_existent.nested.field",
      file("s.json", "field_1 ARRAY<BIGINT>, field_2 STRING")
    )
    assert(
      shape(r.schema) == Seq(
        ("field_1", "array<bigint>", true),
        ("non_existent_at_root", "string", true),
        ("non_existent", "struct<nested:struct<field:string>>", true)
      )
    )
  }

  test("a projected member of a column that is a scalar is an error naming the column and file") {
    val e = intercept[SchemaException](resolve(json, "m.a", file("f.json", "m BIGINT")))
    assert(
      e.getMessage.contains("'m'") && e.getMessage.contains("bigint") && e.getMessage.contains("/data/f.json")
    )
  }

  test("csvh_columns_index_error: with a header, columns[0] on the string column `columns` is an error") {
    val e =
      intercept[SchemaException](resolve(csvh, "author, columns[0]", csv("columns.csv", "author", "columns")))
    assert(e.getMessage.contains("columns"))
  }

  test("member projection on an array of structs prunes the element struct") {
    val r = resolve(json, "m.b", file("f.json", "m ARRAY<STRUCT<b: BIGINT, c: BIGINT>>"))
    assert(r.schema("m").dataType.simpleString == "array<struct<b:bigint>>")
  }

  test("* with named columns: table columns are not repeated, implicit ones stand where named") {
    val f = csv("d/x.csv", "a", "b")
    assert(names(resolve(csvh, "*, a", f).schema) == Seq("a", "b", "dir0"))
    assert(names(resolve(csvh, "filename, *, dir0", f).schema) == Seq("filename", "a", "b", "dir0"))
    assert(names(resolve(csvh, "*, x", f).schema) == Seq("a", "b", "dir0", "x"))
  }

  test("count(*): an empty projection reads no columns") {
    val r = resolve(csvh, "", csv("f.csv", "a"))
    assert(r.schema.isEmpty && r.plan.isCount && r.plan.readerInput.isEmpty)
    assert(r.plan.readerInput.filter eq ProjectionFilter.None)
  }

  test("the wildcard reader filter projects exactly the table columns") {
    val r = resolve(csvh, "*", csv("f.csv", "a", "b"))
    val f = r.plan.readerInput.filter
    assert(f.isProjected("a") && f.isProjected("B") && !f.isProjected("late"))
  }

  // ---- implicit and partition columns ----------------------------------------------------------------------

  test("implicit_columns_hidden_but_selectable: not in *, metadata columns, values per file") {
    val fs = remember(file("d/x.csv", "a STRING, b STRING", Discovery.HeaderOnly, mtime = 1500L))
    val r = ScanSchemaTracker.resolve(csvh.copy(partitionColumns = false), Projection.wildcard, fs)
    assert(names(r.schema) == Seq("a", "b"))
    assert(
      r.metadataColumns.map(f => f.name -> f.dataType.simpleString) == Seq(
        "filename" -> "string",
        "filepath" -> "string",
        "fqn" -> "string",
        "suffix" -> "string",
        "lmt" -> "timestamp",
        "_line" -> "bigint",
        "_offset" -> "bigint",
        "sheet" -> "string",
        "dir0" -> "string"
      )
    )
    val p = r.plan(ProjectionParser.parse("a, filename, suffix, fqn, filepath, lmt, _line, _offset"))
    val consts = constants(p, fileInfo("/data/d/x.csv"))
    assert(
      consts == Seq(
        "filename" -> UTF8String.fromString("x.csv"),
        "suffix" -> UTF8String.fromString("csv"),
        "fqn" -> UTF8String.fromString("/data/d/x.csv"),
        "filepath" -> UTF8String.fromString("/data/d"),
        "lmt" -> 1500000L
      )
    )
    assert(
      p.output.drop(6).map(_.source) == Seq(
        ColumnSource.RecordColumn(ImplicitKind.Line, 1),
        ColumnSource.RecordColumn(ImplicitKind.Offset, 2)
      )
    )
    assert(p.readerInput.schema.fieldNames.toSeq == Seq("a", RecordColumns.Line, RecordColumns.Offset))
    assert(fillOf(r, p, "/data/d/x.csv").isEmpty, "the reader writes _line and _offset: never missing")
  }

  test("csv_implicit_file_columns_all: dir0 in *, null for a file in the root") {
    val fs = remember(headerless("files/main.csv"), headerless("files/nested/nested.csv"))
    val r = ScanSchemaTracker.resolve(
      text,
      Projection.wildcard,
      fs.map(f => f.copy(file = f.file.copy(dirs = f.file.dirs.drop(1))))
    )
    infos = infos.map { case (k, v) => k -> v.copy(dirs = v.dirs.drop(1)) }
    assert(shape(r.schema) == Seq(("columns", "array<string>", true), ("dir0", "string", true)))
    val plan = r.plan(ProjectionParser.parse("columns, dir0, filename"))
    assert(
      constants(plan, fileInfo("/data/files/main.csv")).map(_._2) == Seq(
        null,
        UTF8String.fromString("main.csv")
      )
    )
    assert(
      constants(plan, fileInfo("/data/files/nested/nested.csv")).head._2 == UTF8String
        .fromString("nested")
    )
  }

  test("implicit labels are options; a renamed default becomes an ordinary (missing) column") {
    val cfg = ScanConfig.fromOptions(options("header" -> "true", "filenameLabel" -> "fname"))
    val r = resolve(cfg, "fname, filename", csv("f.csv", "a"))
    assert(
      r.plan.output.map(_.source) == Seq(
        ColumnSource.ImplicitColumn(ImplicitKind.FileName),
        ColumnSource.TableColumn(0)
      )
    )
  }

  test("a data column with an implicit column's name wins, with a warning") {
    val r = resolve(csvh, "*", csv("f.csv", "filename", "dir0"), csv("d/g.csv", "a"))
    assert(names(r.schema) == Seq("a", "filename", "dir0")) // d/g.csv comes first in path order
    assert(r.plan.output.map(_.source).forall(_.isInstanceOf[ColumnSource.TableColumn]))
    assert(!r.metadataColumns.exists(_.name == "filename"))
    assert(r.warnings.exists(w => w.contains("'filename'") && w.contains("data column wins")))
    assert(r.warnings.exists(w => w.contains("'dir0'") && w.contains("data column wins")))
    assert(
      resolve(csvh, "filename", csv("f.csv", "filename")).warnings.exists(_.contains("data column wins"))
    )
  }

  test("filename.a and dir0[0] are data columns, not implicit ones (Drill R45)") {
    val r = resolve(json, "filename.a, dir0[0]", file("f.json", "x BIGINT"))
    assert(r.plan.output.map(_.source) == Seq(ColumnSource.TableColumn(0), ColumnSource.TableColumn(1)))
  }

  test("csvh_partition_expansion_wildcard: * adds dir0..dir(D-1) after the table columns") {
    val fs = remember(csv("root/first.csv", "a", "b", "c"), csv("root/nested/second.csv", "a", "b", "c"))
    val shifted = fs.map(f => f.copy(file = f.file.copy(dirs = f.file.dirs.drop(1))))
    val r = ScanSchemaTracker.resolve(csvh, Projection.wildcard, shifted)
    assert(names(r.schema) == Seq("a", "b", "c", "dir0"))
    assert(r.plan.output(3).source == ColumnSource.PartitionColumn(PartitionKey.Dir(0)))
    assert(constants(r.plan, shifted(0).file).map(_._2) == Seq(null))
    assert(
      constants(r.plan, shifted(1).file).map(_._2) == Seq(UTF8String.fromString("nested"))
    )
  }

  test("csvh_partition_cols_unpartitioned: any dirN may be projected, null beyond the depth") {
    val fs = remember(csv("basic.csv", "a", "b", "c"))
    val r = ScanSchemaTracker.resolve(csvh, ProjectionParser.parse("a, dir0, dir5"), fs)
    assert(shape(r.schema) == Seq(("a", "string", true), ("dir0", "string", true), ("dir5", "string", true)))
    assert(constants(r.plan, fileInfo("/data/basic.csv")).map(_._2) == Seq(null, null))
  }

  test("csv_partition_label_option: partitionLabel renames the partition columns") {
    val cfg = ScanConfig.fromOptions(options("partitionLabel" -> "directory"), byPosition = true)
    val fs = remember(headerless("2018/a.csv"))
    val r = ScanSchemaTracker.resolve(cfg, ProjectionParser.parse("directory0"), fs)
    assert(shape(r.schema) == Seq(("directory0", "string", true)))
    assert(
      constants(r.plan, fileInfo("/data/2018/a.csv")).head._2 == UTF8String.fromString(
        "2018"
      )
    )
  }

  test("partitionstyle_hive_columns: key=value directories give columns named by key") {
    val cfg = csvh.copy(partitionStyle = PartitionStyle.Hive)
    val fs = remember(csv("region=eu/kind=web/a.csv", "v"), csv("region=us/kind=app/b.csv", "v"))
    val r = ScanSchemaTracker.resolve(cfg, Projection.wildcard, fs)
    assert(
      shape(r.schema) == Seq(("v", "string", true), ("region", "string", true), ("kind", "string", true))
    )
    assert(constants(r.plan, fs(1).file).map(_._2.toString) == Seq("us", "app"))
  }

  test("hive partition columns typed by the provided schema; not provided table columns") {
    val cfg = provided("region INT").copy(partitionStyle = PartitionStyle.Hive)
    val fs = remember(csv("region=7/a.csv", "v"))
    val r = ScanSchemaTracker.resolve(cfg, Projection.wildcard, fs)
    assert(shape(r.schema) == Seq(("v", "string", true), ("region", "int", true)))
    assert(constants(r.plan, fs.head.file).head._2 == 7)
  }

  test("partitionColumns=false leaves dirN out of * but selectable") {
    val r = resolve(csvh.copy(partitionColumns = false), "*", csv("x/f.csv", "a"))
    assert(names(r.schema) == Seq("a") && r.metadataColumns.exists(_.name == "dir0"))
    assert(
      r.plan(ProjectionParser.parse("a, dir0")).output(1).source == ColumnSource.PartitionColumn(
        PartitionKey.Dir(0)
      )
    )
  }

  // ---- headerless text -------------------------------------------------------------------------------------

  test("csv_columns_wildcard: headerless text has the one table column `columns`") {
    val r = resolve(text.copy(partitionColumns = false), "*", headerless("simple.csv"))
    assert(shape(r.schema) == Seq(("columns", "array<string>", true)))
    assert(r.plan.output.head.source == ColumnSource.ColumnsArray(0, None))
  }

  test("csv_columns_index: columns[0], columns[2] is one column reading only those indexes") {
    val r = resolve(text, "columns[0], columns[2]", headerless("simple.csv"))
    assert(names(r.schema) == Seq("columns"))
    assert(r.plan.output.head.source == ColumnSource.ColumnsArray(0, Some(Seq(0, 2))))
    assert(r.plan.readerInput.columns.head.indexes == Some(Seq(0, 2)))
    val e = intercept[IllegalArgumentException](resolve(text, "columns.x", headerless("simple.csv")))
    assert(e.getMessage.contains("columns"))
    assert(
      intercept[IllegalArgumentException](resolve(text, "columns[70000]", headerless("s.csv"))).getMessage
        .contains("70000")
    )
  }

  test("columns[n] with no file giving `columns` still types it (the columns parser)") {
    val r = resolve(text, "columns[1]", csv("empty.csv"))
    assert(shape(r.schema) == Seq(("columns", "array<string>", false)))
    assert(r.plan.output.head.source == ColumnSource.ColumnsArray(0, Some(Seq(1))))
  }

  test("csv_noheader_schema_explicit: headerless text with a provided schema binds columns by position") {
    val cfg = ScanConfig(
      byPosition = true,
      providedSchema = Some(
        ProvidedSchema.parse(
          "intcol INT NOT NULL, datecol DATE NOT NULL, str STRING NOT NULL, dub DOUBLE NOT NULL"
        )
      )
    )
    val fs = remember(headerless("basic/file0.csv"))
    val r = ScanSchemaTracker.resolve(cfg, ProjectionParser.parse("intcol, datecol, str, dub, missing"), fs)
    assert(
      shape(r.schema) == Seq(
        ("intcol", "int", false),
        ("datecol", "date", false),
        ("str", "string", false),
        ("dub", "double", false),
        ("missing", "string", true)
      )
    )
    assert(r.plan.readerInput.byPosition)
    assert(r.plan.readerInput.columns.map(_.position) == Seq(Some(0), Some(1), Some(2), Some(3), None))
    assert(r.reports.head.columns.head.status == ColumnStatus.ByPosition)
  }

  // ---- Spark's required schema -------------------------------------------------------------------------------

  test("plan(required) narrows the scan's own projection and keeps its indexes") {
    val r = resolve(text, "columns[0], columns[2], filename", headerless("simple.csv"))
    val p = r.plan(SparkProjection.fromRequiredSchema(StructType(Seq(r.schema("columns")))))
    assert(p.output.map(_.source) == Seq(ColumnSource.ColumnsArray(0, Some(Seq(0, 2)))))
    val p2 = r.plan(SparkProjection.fromRequiredSchema(StructType(Seq(r.schema("filename")))))
    assert(p2.output.map(_.source) == Seq(ColumnSource.ImplicitColumn(ImplicitKind.FileName)))
  }

  test("plan(required): pruned structs read only those members; renamed metadata columns resolve by key") {
    val r = resolve(json, "*", file("f.json", "a BIGINT, m STRUCT<b: BIGINT, c: STRING>, filename STRING"))
    val meta = new MetadataBuilder().putString(SparkProjection.MetadataColumnKey, "filepath").build()
    val required = StructType(
      Seq(
        StructField("m", StructType(Seq(StructField("c", StringType)))),
        StructField("_filepath", StringType, nullable = false, meta)
      )
    )
    val p = r.plan(SparkProjection.fromRequiredSchema(required))
    assert(p.outputSchema.fieldNames.toSeq == Seq("m", "_filepath"))
    assert(p.outputSchema("m").dataType.simpleString == "struct<c:string>")
    assert(p.output(1).source == ColumnSource.ImplicitColumn(ImplicitKind.FilePath))
    assert(p.readerInput.schema.fieldNames.toSeq == Seq("m"))
  }

  // ---- plumbing ----------------------------------------------------------------------------------------------

  test("provided schema DDL: DEFAULT literals of many types, NOT NULL, COMMENT, nested types") {
    val p = ProvidedSchema.parse(
      "a BIGINT NOT NULL DEFAULT 20, b STRING NOT NULL DEFAULT 'x, y', c BOOLEAN NOT NULL DEFAULT true, " +
        "d DATE NOT NULL DEFAULT DATE '2019-03-28', e TIMESTAMP NOT NULL DEFAULT TIMESTAMP '2019-03-28 12:34:56', " +
        "f INT NOT NULL DEFAULT -1 COMMENT 'neg', m STRUCT<x: INT, y: STRING>, `odd, name` DECIMAL(10, 2)"
    )
    assert(p.schema.fieldNames.toSeq == Seq("a", "b", "c", "d", "e", "f", "m", "odd, name"))
    val defaults = p.columns.map(_.default.map(_.value))
    assert(defaults.take(3) == Seq(Some(20L), Some(UTF8String.fromString("x, y")), Some(true)))
    assert(defaults(3) == Some(DateTimeUtils.fromJavaDate(java.sql.Date.valueOf("2019-03-28"))))
    assert(defaults(4).isDefined && defaults(5) == Some(-1) && defaults(6).isEmpty)
    assert(!p.schema("a").nullable && p.schema("m").nullable)
    assert(p.schema("f").getComment() == Some("neg"))
  }

  test("provided schema errors name the column") {
    assert(
      intercept[SchemaException](ProvidedSchema.parse("a INT NOT NULL DEFAULT 'abc'")).getMessage
        .contains("'a'")
    )
    assert(intercept[SchemaException](ProvidedSchema.parse("a INTT")).getMessage.contains("a INTT"))
    assert(intercept[SchemaException](ProvidedSchema.parse("a INT, A STRING")).getMessage.contains("twice"))
    assert(
      intercept[SchemaException](ProvidedSchema.parse("a INT NOT NULL DEFAULT")).getMessage
        .contains("DEFAULT")
    )
  }

  test("ScanConfig.fromOptions reads SPEC options case-insensitively and rejects bad values") {
    val c = ScanConfig.fromOptions(
      options(
        "SCHEMAMODE" -> "Strict",
        "typeConflict" -> "fail",
        "partitionStyle" -> "hive",
        "header" -> "true"
      )
    )
    assert(
      c.schemaMode == SchemaMode.Strict && c.typeConflict == TypeConflictMode.Fail && c.partitionStyle == PartitionStyle.Hive
    )
    assert(
      intercept[IllegalArgumentException](options("schemaMode" -> "loose")).getMessage.contains("schemaMode")
    )
  }

  test("reader input and file plans are serializable for executors") {
    val fs = remember(file("x/f.json", "a BIGINT"))
    val r = ScanSchemaTracker.resolve(
      provided("z INT NOT NULL DEFAULT 5"),
      ProjectionParser.parse("a, m.b, z, dir0, filename"),
      fs
    )
    val plan = r.plan
    Seq[AnyRef](plan.readerInput, plan.output).foreach { o =>
      val out = new ObjectOutputStream(new ByteArrayOutputStream())
      out.writeObject(o)
      out.close()
    }
  }
}
