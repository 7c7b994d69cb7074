package sparkdrill.scan

import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.formats.text.TextOptions
import sparkdrill.reader.{CommonOptions, OptionCatalog, ParseMode}
import sparkdrill.scan.schema.{PartitionStyle, SchemaMode, TypeConflictMode}

/** The one option table: every option parsed once, at planning, with its type; unknown names fail. */
class OptionTableSuite extends AnyFunSuite {
  private def parse(entries: (String, String)*) = TableScan.parseOptions(entries.toMap)
  private def failure(entries: (String, String)*): String =
    intercept[IllegalArgumentException](parse(entries: _*)).getMessage

  test("a misspelt option fails naming the nearest valid one") {
    assert(failure("inferTyps" -> "true").contains("unknown option 'inferTyps'; did you mean inferTypes?"))
    assert(failure("HEADR" -> "true").contains("did you mean header?"))
    assert(failure("batchrow" -> "10").contains("did you mean batchRows?"))
    assert(!failure("completelyDifferent" -> "1").contains("did you mean"))
  }

  test("Spark's own names with the same meaning are aliases") {
    assert(parse("inferSchema" -> "true")(TextOptions.InferTypes))
    assert(parse("sep" -> ";")(TextOptions.Delimiter) == ';'.toByte)
    assert(parse("fieldDelimiter" -> "\\t")(TextOptions.Delimiter) == '\t'.toByte)
    assert(parse("lineSep" -> "\\r\\n")(TextOptions.LineDelimiter).toSeq == Seq('\r'.toByte, '\n'.toByte))
    assert(parse("primitivesAsString" -> "true")(sparkdrill.formats.json.JsonOptions.AllTextMode))
    assert(parse("multiLine" -> "true")(TextOptions.MultiLine))
    assert(parse("recursiveFileLookup" -> "true")(ScanOptions.RecursiveFileLookup))
  }

  test("an option and its alias with different values is an error; the same value is fine") {
    assert(failure("delimiter" -> ",", "sep" -> ";").contains("are the same option 'delimiter'"))
    assert(parse("delimiter" -> ";", "sep" -> ";")(TextOptions.Delimiter) == ';'.toByte)
  }

  test("Spark options with no meaning here are named in the error, with the reason") {
    val e = failure("samplingRatio" -> "0.5")
    assert(e.contains("option 'samplingRatio' of Spark's own reader has no counterpart here"), e)
    assert(failure("encoding" -> "latin1").contains("UTF-8"))
    assert(failure("recursiveFileLookup" -> "false").contains("always read recursively"))
  }

  test("values are checked at planning and typed once") {
    assert(failure("header" -> "yes").contains("option 'header' must be true or false, got 'yes'"))
    assert(failure("batchRows" -> "many").contains("option 'batchRows' must be an integer"))
    assert(
      failure("mode" -> "lenient").contains(
        "must be one of PERMISSIVE, DROPMALFORMED, FAILFAST, got 'lenient'"
      )
    )
    assert(failure("delimiter" -> ";;").contains("single one-byte character"))
    assert(failure("format" -> "xml").contains("unknown format 'xml'"))
    val o = parse("MODE" -> "failfast", "partitionStyle" -> "dir", "quote" -> "")
    assert(
      o(CommonOptions.Mode) == ParseMode.FailFast && o(ScanOptions.PartitionStyle) == PartitionStyle.Dirs
    )
    assert(o(TextOptions.Quote) == -1, "an empty quote turns quoting off")
  }

  test("every enumeration is parsed once into its value, and fails in one form naming its words") {
    val o = parse("schemaMode" -> "STRICT", "typeConflict" -> "fail", "partitionStyle" -> "Hive")
    assert(
      o(ScanOptions.SchemaMode) == SchemaMode.Strict && o(ScanOptions.TypeConflict) == TypeConflictMode.Fail
    )
    assert(o(ScanOptions.PartitionStyle) == PartitionStyle.Hive)
    assert(parse("partitionStyle" -> "dirs")(ScanOptions.PartitionStyle) == PartitionStyle.Dirs)
    Seq(
      "schemaMode" -> "evolve, strict, fail",
      "typeConflict" -> "widen, fail",
      "partitionStyle" -> "drill, hive",
      "memoryMode" -> "offHeap, onHeap",
      "validate" -> "projected, all",
      "mode" -> "PERMISSIVE, DROPMALFORMED, FAILFAST"
    ).foreach { case (name, words) =>
      assert(
        failure(
          name -> "x"
        ) == s"[SPARK_DRILL_BAD_OPTION_VALUE] spark-drill: option '$name' must be one of $words, got 'x'"
      )
    }
    // The option table shows each default by its word, as the docs and Python's table spell it.
    val kind = ScanOptions.SchemaMode.kind
    assert(kind.show(SchemaMode.Fail) == "fail" && kind.values == Seq("evolve", "strict", "fail"))
  }

  test("Hadoop settings pass through; per-column formats are a family") {
    val o = parse("fs.s3a.endpoint" -> "http://127.0.0.1:9000", "format.Day" -> "dd.MM.yyyy", "path" -> "/x")
    assert(o.passThrough == Map("fs.s3a.endpoint" -> "http://127.0.0.1:9000"))
    assert(o.withPrefix(TextOptions.ColumnFormat) == Map("Day" -> "dd.MM.yyyy"))
  }

  test("the table lists each option once, with a doc, and declares no name twice") {
    val names = ScanOptions.catalog.options.flatMap(s => s.name +: s.aliases).map(_.toLowerCase)
    assert(names.distinct.size == names.size)
    assert(ScanOptions.catalog.options.forall(_.doc.nonEmpty))
    assert(OptionCatalog.distance("inferTyps", "inferTypes") == 1)
  }
}

/** docs/options.md documents every option of the table, by name. */
class OptionDocsSuite extends AnyFunSuite {
  test("every option and alias of the table is in docs/options.md") {
    val docs =
      new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get("docs/options.md")), "UTF-8")
    // spark-drill's own options: a format of another jar (a test's) documents its own.
    val ours = ScanOptions.all ++ CommonOptions.all ++ sparkdrill.stream.StreamOptions.all ++
      FormatRegistry.plugins.filter(_.getClass.getName.startsWith("sparkdrill.")).flatMap(_.options)
    val missing = ours
      .flatMap(s => s.name +: s.aliases)
      .filterNot(n => docs.contains(s"`$n`"))
    assert(missing.isEmpty, s"not in docs/options.md: ${missing.mkString(", ")}")
  }
}

/** maxRecordTextBytes: the corrupt-record and rescued-data text is cut at a character boundary. */
class RecordTextCapSuite extends AnyFunSuite {
  private def cap(text: String, max: Int): String =
    CommonOptions.capText(text, TableScan.parseOptions(Map("maxRecordTextBytes" -> max.toString)))

  test("text within the cap is kept as it is; longer text is cut at a character boundary, with a note") {
    assert(cap("abc", 3) == "abc")
    assert(cap("abcd", 3) == "abc... (1 more bytes; maxRecordTextBytes)")
    // "é" is two bytes, "€" three: a cut never splits one.
    assert(cap("aé", 2) == "a... (2 more bytes; maxRecordTextBytes)")
    assert(cap("€€", 4) == "€... (3 more bytes; maxRecordTextBytes)")
    assert(cap("€€", 6) == "€€")
    assert(cap("x" * 100, 0) == "... (100 more bytes; maxRecordTextBytes)")
  }
}
