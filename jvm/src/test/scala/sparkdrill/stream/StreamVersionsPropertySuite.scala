package sparkdrill.stream

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path => JPath}
import java.time.ZoneId
import java.util.Locale

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.{DataType, StructType}
import org.scalacheck.Gen
import org.scalatest.funsuite.AnyFunSuite
import org.scalatestplus.scalacheck.ScalaCheckDrivenPropertyChecks

import sparkdrill.scan.{SchemaDiscovery, SplitPlanner, TableScan}
import sparkdrill.errors.{ErrorClasses, StreamStopException}
import sparkdrill.stream.schema.{SchemaVersion, SchemaVersions}

/** SPEC 11, "One schema, batch or stream", as a property of the real stream engine over real files: random
  * landings of generated files (CSV with drifting headers, or JSON with nested objects, objects keyed by data
  * below and above the map threshold, numbers that widen, new `dirN` levels or hive keys, names differing
  * only in case, a provided schema), taken in random micro-batches, each schema change restarting the stream
  * from its checkpoint as `sd.run_stream` does. Under `addNewColumnsWithTypeWidening` the final version has
  * batch discovery's columns and types for all the files; under `addNewColumns` every column a version adds
  * has batch discovery's type for the files there when it was written. Names compare case-insensitively (the
  * spelling is the first file's, and a stream meets files in another order than a listing).
  */
class StreamVersionsPropertySuite extends AnyFunSuite with ScalaCheckDrivenPropertyChecks {
  implicit override val generatorDrivenConfig: PropertyCheckConfiguration =
    PropertyCheckConfiguration(minSuccessful = 30)

  private final case class Landed(path: String, text: String)

  /** One stream's input: its options and its files, landing by landing. */
  private final case class Case(
      json: Boolean,
      options: Map[String, String],
      landings: Seq[Seq[Landed]],
      maxFiles: Int
  ) {
    override def toString: String =
      s"options $options, maxFilesPerTrigger $maxFiles\n" + landings.zipWithIndex
        .map { case (l, i) =>
          s"landing $i:\n" + l.map(f => s"  ${f.path}: ${f.text.replace("\n", " | ")}").mkString("\n")
        }
        .mkString("\n")
  }

  private def dirs(hive: Boolean): Gen[String] =
    if (hive) Gen.oneOf("", "day=1/", "day=2/", "day=1/hr=3/", "x/")
    else Gen.oneOf("", "", "a/", "b/", "a/c/", "a/c/d/")

  // JSON: each column keeps one shape (so no struct meets a scalar: the lattice's text for that is not a
  // version's string), numbers are integral or not, `attrs` has keys from a pool larger than the threshold.
  private val jsonFile: Gen[Seq[(String, String)]] = for {
    columns <- Gen.someOf("n", "Name", "name", "attrs", "tags", "flag", "nested")
    rows <- Gen.choose(1, 3)
    decimal <- Gen.oneOf(true, false)
    keys <- Gen.pick(3, (1 to 14).map(k => s"u$k"))
  } yield (0 until rows).map { r =>
    val values = ("id" -> s"$r") +: columns.toSeq.map {
      case "n" => "n" -> (if (decimal) s"$r.5" else s"$r")
      case "attrs" => "attrs" -> keys.map(k => s""""$k": $r""").mkString("{", ", ", "}")
      case "tags" => "tags" -> s"[$r, ${r + 1}]"
      case "flag" => "flag" -> "true"
      case "nested" => "nested" -> s"""{"a": {"b": $r}, "c": "x"}"""
      case other => other -> s""""v$r""""
    }
    "" -> values.map { case (k, v) => s""""$k": $v""" }.mkString("{", ", ", "}")
  }

  private val csvFile: Gen[Seq[(String, String)]] = for {
    columns <- Gen.someOf("n", "Name", "city", "score")
    rows <- Gen.choose(1, 3)
    decimal <- Gen.oneOf(true, false)
  } yield {
    val header = ("id" +: columns.toSeq).mkString(",")
    val lines = (0 until rows).map { r =>
      ("id" +: columns.toSeq)
        .map {
          case "id" => s"$r"
          case "n" | "score" => if (decimal) s"$r.5" else s"$r"
          case _ => s"t$r"
        }
        .mkString(",")
    }
    Seq("" -> (header +: lines).mkString("\n"))
  }

  private def cases(widening: Boolean): Gen[Case] = for {
    json <- Gen.oneOf(true, false)
    hive <- Gen.oneOf(true, false)
    provided <- Gen.oneOf(true, false)
    count <- Gen.choose(2, 5)
    maxFiles <- if (widening) Gen.choose(1, 4) else Gen.const(Int.MaxValue)
    landings <- Gen.listOfN(
      count,
      Gen.choose(1, 4).flatMap(n => Gen.listOfN(n, Gen.zip(dirs(hive), if (json) jsonFile else csvFile)))
    )
  } yield {
    var k = 0
    val files = landings.map(_.map { case (dir, content) =>
      k += 1
      Landed(f"$dir$k%03d.${if (json) "json" else "csv"}", content.map(_._2).mkString("\n") + "\n")
    })
    val options = Map("mapInferenceThreshold" -> "8") ++
      (if (json) Map.empty else Map("header" -> "true", "inferTypes" -> "true")) ++
      (if (hive) Map("partitionStyle" -> "hive") else Map.empty) ++
      (if (provided) Map("providedSchema" -> "id bigint") else Map.empty) ++
      (if (widening) Map("schemaEvolutionMode" -> "addNewColumnsWithTypeWidening") else Map.empty)
    Case(json, options, files, maxFiles)
  }

  private val session = StreamSession(
    ZoneId.of("UTC"),
    SchemaDiscovery.locally,
    () => Nil,
    () => SplitPlanner.Settings(128L << 20, 256L << 10, 2)
  )
  private val conf = new Configuration()
  private def lower(s: String) = s.toLowerCase(Locale.ROOT)
  private def types(s: StructType): Map[String, DataType] =
    s.fields.map(f => lower(f.name) -> membersByName(f.dataType)).toMap

  // A struct's members in name order: their order is first-seen, and a stream sees files in another order.
  private def membersByName(t: DataType): DataType = t match {
    case st: StructType =>
      StructType(st.fields.sortBy(f => lower(f.name)).map(f => f.copy(dataType = membersByName(f.dataType))))
    case a: org.apache.spark.sql.types.ArrayType => a.copy(elementType = membersByName(a.elementType))
    case m: org.apache.spark.sql.types.MapType => m.copy(valueType = membersByName(m.valueType))
    case other => other
  }

  /** Runs the stream over `c`, triggers taking `c.maxFiles` files at most, restarting it at
    * each schema change. Returns each version written with the files there when it was, and the last.
    */
  private def run(c: Case, root: JPath): (Seq[(SchemaVersion, Set[String])], SchemaVersion) = {
    val in = root.resolve("in")
    val schemas = root.resolve("schemas").toString
    val checkpoint = root.resolve("chk/sources/0").toString
    val landed = scala.collection.mutable.LinkedHashSet.empty[String]
    val base = System.currentTimeMillis() - 86400000L
    def land(files: Seq[Landed]): Unit = files.foreach { f =>
      val p = in.resolve(f.path)
      Files.createDirectories(p.getParent)
      Files.write(p, f.text.getBytes(UTF_8))
      landed += p.toString
      p.toFile.setLastModified(base + landed.size * 1000L)
    }
    val options = TableScan.parseOptions(c.options + ("schemaLocation" -> schemas), StreamOptions.all)
    def load() = StreamDefinition.load(Seq(in.toString), options, None, conf, session)
    land(c.landings.head)
    var engine = new StreamEngine(load(), checkpoint, session)
    var last = engine.initialBatch()
    val written = Seq.newBuilder[(SchemaVersion, Set[String])]
    // Drains what has landed, restarting at each schema change. Bounded: each trigger takes a file or writes
    // a version, and there are few of either.
    def drain(): Unit = {
      var triggers = 0
      var done = false
      while (!done && triggers < 100) {
        triggers += 1
        try {
          val next = engine.latestBatch(last, c.maxFiles, Long.MaxValue)
          if (next == last) done = true
          else {
            engine.plan(last, next, new StructType())
            engine.commit(next)
            last = next
          }
        } catch {
          case e: StreamStopException if e.errorClass == ErrorClasses.StreamSchemaChanged =>
            written += SchemaVersions.newest(schemas, conf).get -> landed.toSet
            engine.stop()
            engine = new StreamEngine(load(), checkpoint, session)
        }
      }
      assert(done, "the stream did not drain its input in 100 triggers")
    }
    try {
      drain()
      c.landings.tail.foreach { l =>
        land(l)
        drain()
      }
    } finally engine.stop()
    (written.result(), SchemaVersions.newest(schemas, conf).get)
  }

  private def batch(c: Case, root: JPath, only: Option[Set[String]]): StructType = {
    val options = TableScan.parseOptions(c.options - "schemaEvolutionMode", StreamOptions.all)
    val listed = TableScan.list(Seq(root.resolve("in").toString), options, conf, ZoneId.of("UTC"))
    val files =
      only.fold(listed)(keep => listed.filter(f => keep(new org.apache.hadoop.fs.Path(f.path).toUri.getPath)))
    TableScan.fromFiles(Seq(root.resolve("in").toString), files, options, None, conf).schema
  }

  private def withRoot[T](f: JPath => T): T = {
    val root = Files.createTempDirectory("stream-versions")
    try f(root)
    finally org.apache.commons.io.FileUtils.deleteDirectory(root.toFile)
  }

  test(
    "property: under type widening the final version is batch discovery of every file, in any micro-batches"
  ) {
    forAll(cases(widening = true)) { (c: Case) =>
      withRoot { root =>
        val (_, last) = run(c, root)
        assert(types(last.schema) == types(batch(c, root, None)), s"\n$c")
      }
    }
  }

  test("property: under addNewColumns every column a version adds has batch discovery's type for its files") {
    forAll(cases(widening = false)) { (c: Case) =>
      withRoot { root =>
        val (written, last) = run(c, root)
        written.foreach { case (version, present) =>
          val want = types(batch(c, root, Some(present)))
          version.added.foreach { name =>
            assert(types(version.schema)(lower(name)) == want(lower(name)), s"\n$c\nversion $version")
          }
        }
        assert(types(last.schema).keySet == types(batch(c, root, None)).keySet, s"\n$c")
      }
    }
  }
}
