package sparkdrill.errors

import scala.jdk.CollectionConverters._

import org.apache.spark.SparkThrowable
import org.scalatest.funsuite.AnyFunSuite

/** Each factory method makes an error of a declared class, with only that class's parameters (and `reason`),
  * through Spark's interface, and leads its message with the class. The stream's texts are pinned where
  * tests and users match them.
  */
class DrillErrorsSuite extends AnyFunSuite {
  import DrillErrors._

  private val cause = new java.io.IOException("boom")

  private val samples: Seq[Throwable] = Seq(
    unknownOption("headr", Some("header")),
    sparkOptionWithoutCounterpart("multiLine", "JSON records are lines"),
    recursiveFileLookupOff("recursiveFileLookup"),
    optionsOfTheOtherRead(Seq("maxFilesPerTrigger"), streaming = false),
    badOptionValue("sampleRows", "x", "a number"),
    optionBelowOne("maxSchemaFields", 0),
    badTimestampOption("modifiedBefore", "yesterday", cause),
    optionSpelledTwice("sep", ";", "delimiter", ",", "delimiter"),
    unknownFormat("fixed", Seq("json", "csv")),
    logNeedsAPattern(),
    logPatternTwice(),
    badLogRegex("option 'regex' names no group", "a+"),
    badProvidedSchema("providedSchema names column 'a' twice"),
    projectionSyntax("unexpected ','", "a,,b", 2),
    includeColumnsNotHidden("x", Seq("_file", "_line")),
    includeColumnsClash("_file"),
    badMaxFilesPerTrigger(0),
    noPath(),
    noFiles(Seq("/in", "/in2"), ""),
    pathNotFound("/gone", cause),
    missingFile("/f.csv", cause),
    unreadableFile("/f.csv.gz", cause),
    undiscoverableFile("/f.csv.gz", cause),
    badPartitionValue("/t/year=x/a.csv", "year", "x", "int"),
    definedSchemaDisagreesWithProject(Seq("a"), Seq("b")),
    typeConflict("column 'a': int in /1.json, string in /2.json", "string"),
    filesDiffer("/2.csv", Seq("b"), Nil, "/1.csv"),
    schemaTooWide(5000L, 1000, "'m', with 4999 members", 4999L, "100", "raise maxSchemaFields"),
    unknownMetadataColumn("_nope"),
    projectedNameTwice("a"),
    indexOfNotAnArray("a", "int", "", 0),
    memberOfNotAStruct("a", "int", "", "b"),
    columnsIndexTooLarge("columns", 70000, 65535),
    memberOfColumnsArray("columns.x", "columns"),
    formatNamedTwice("csv", Seq("a.Csv", "b.Csv")),
    suffixClaimedTwice("txt", Seq("a", "b")),
    columnParserRaised("P", "x", "ValueError: no"),
    columnParserBadType("P", "x", "nope", cause),
    columnParserRaisedOnFile("P", "/f", "x", "ValueError: no"),
    columnParserWrongValue("P", "/f", "x", "int", "abc"),
    columnParserTimeout("P", 1.5, "parsing column 'x'"),
    columnParserCallFailed("P", "parsing column 'x'", new RuntimeException("gone")),
    readOnlyCatalog("drill"),
    streamSchemaChanged("file:/in/b.json", Seq("c"), 0, 1, "/chk/_schemas"),
    streamNewColumns("file:/in/b.json", Seq("c"), "failOnNewColumns", Some(9L)),
    streamStaleSchema(0, 1, "/chk/_schemas"),
    streamNeedsSchemaLocation(),
    streamOnePath(Seq("/a", "/b")),
    streamNoFiles("/in", "/chk/_schemas"),
    schemaLocationOfAnotherPath("/chk/_schemas", "file:/one", "file:/two"),
    streamEvolvesProjection("addNewColumns"),
    streamEvolvesDefinedSchema("addNewColumns"),
    streamTableOptions("drill.`/in`", Seq("header")),
    schemaVersionTaken("/chk/_schemas", 2),
    streamLeaseHeld("/chk/sources/0/lease", "1@h (lease id x)", 30),
    streamLeaseTakenOverFirst("/chk/sources/0/lease", "1@h (lease id x)"),
    streamLeaseLost("/chk/sources/0/lease", None),
    streamNoState("/chk", "drill"),
    streamStateNeedsPath(),
    streamNeedsArchiveDir(),
    streamArchiveDirInside("file:/in/archive", "file:/in", "input"),
    fileEventsNeedQueueUrl(),
    optionNeedsFileEvents(Seq("queueUrl")),
    badQueueUrl("nope", "it needs a scheme, a host and the queue's path"),
    fileEventsNeedObjectStore("file:/in"),
    sqsClientMissing("software/amazon/awssdk/services/sqs/SqsClient"),
    schemasOnePath(Seq("/a", "/b")),
    notADrillOffset("{}"),
    schemaVersionUnreadable("/chk/_schemas/1.json", new java.io.IOException("truncated")),
    includeExistingFilesChanged(now = true, stored = false, "/chk/sources/0/drill")
  )

  private val declared = ErrorClasses.all.map(c => c.name -> c.parameters.toSet).toMap

  test("each error has a declared class, that class's parameters only, and its class first in the message") {
    samples.foreach { e =>
      val t = e.asInstanceOf[SparkThrowable]
      val errorClass = t.getErrorClass: @annotation.nowarn
      assert(declared.contains(errorClass), e)
      val names = t.getMessageParameters.asScala.keySet.toSet - "reason"
      assert(names.subsetOf(declared(errorClass)), s"$errorClass: $names")
      assert(e.getMessage.startsWith(s"[$errorClass] "), e.getMessage)
    }
  }

  test("every class has a factory method (among the samples above)") {
    val made = samples.map(_.asInstanceOf[SparkThrowable].getErrorClass: @annotation.nowarn).toSet
    // A reader's own, made by its ErrorContext (ErrorClassSuite reads them from real files).
    val readers = Set(
      ErrorClasses.MalformedRecord,
      ErrorClasses.UnconvertibleValue,
      ErrorClasses.RecordTooLarge,
      ErrorClasses.SplitBoundary
    )
    val skipped = ErrorClasses.all.map(_.name).filterNot(n => made(n) || readers(n))
    assert(skipped == Nil)
  }

  test("the stream's schema change carries what sd.run_stream reads, and ends the query") {
    val e = streamSchemaChanged("file:/in/b.json", Seq("c", "d"), 3, 4, "/chk/_schemas")
    assert(e.isInstanceOf[EndsTheQuery] && e.isInstanceOf[IllegalStateException])
    assert(
      e.parameters == Map(
        "file" -> "file:/in/b.json",
        "columns" -> "c, d",
        "fromVersion" -> "3",
        "toVersion" -> "4",
        "location" -> "/chk/_schemas"
      )
    )
    assert(
      e.getMessage == "[SPARK_DRILL_STREAM_SCHEMA_CHANGED] the stream's schema changed: file:/in/b.json brings " +
        "c, d. Version 4 (adding c, d) is in schemaLocation /chk/_schemas, after version 3. Build the DataFrame " +
        "again and restart the query from the same checkpoint (sd.run_stream does both): it goes on from that " +
        "file, with the new columns"
    )
    val late = streamSchemaChanged("f", Seq("c"), 0, 1, "/l", line = Some(7L), added = Seq("c", "e"))
    assert(
      late.getMessage.contains("f has, at line 7 (past the discovery sample)") && late.parameters(
        "line"
      ) == "7"
    )
    assert(
      late.getMessage.contains("(adding c, e)") && late.getMessage.endsWith(
        "read again, with the new columns"
      )
    )
  }

  test(
    "a stale DataFrame and new columns end the query too; a lease held does not (the query never started)"
  ) {
    assert(streamStaleSchema(0, 1, "/l").isInstanceOf[EndsTheQuery])
    assert(streamNewColumns("f", Seq("c"), "none", None).isInstanceOf[EndsTheQuery])
    assert(!streamLeaseHeld("/l", "h", 30).isInstanceOf[EndsTheQuery])
    assert(
      streamLeaseHeld("/l", "h", 30).getMessage ==
        "[SPARK_DRILL_STREAM_LEASE_HELD] Another query is running on this checkpoint: the stream's lease /l is " +
        "held by h. Stop that query first, or give this one another checkpointLocation. (A lease not renewed " +
        "for 30 s, or whose process on this host has ended, is taken over.)"
    )
  }

  test("a schema version taken is an IOException, as the version writer's callers catch") {
    assert(schemaVersionTaken("/l", 2).isInstanceOf[java.io.IOException])
  }
}
