package sparkdrill.stream

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.Files
import java.time.ZoneId

import scala.collection.mutable

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.StructType
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.scan.{SchemaDiscovery, SplitPlanner, TableScan}

/** Each micro-batch's files are discovered once (issue 38): the schemas the barrier found when the batch was
  * admitted are the ones it is planned with. The real engine, without Spark, with discovery counted per file
  * and the session's schema cache off (a cache would hide a second pass).
  */
class StreamDiscoveryOnceSuite extends AnyFunSuite with TestFiles {
  private val conf = new Configuration()

  test("a micro-batch's new files are discovered once, at admission, and planned with those schemas") {
    val counts = mutable.Map.empty[String, Int].withDefaultValue(0)
    val counting: SchemaDiscovery.Many = (files, options, c) => {
      files.foreach(f => counts(new org.apache.hadoop.fs.Path(f.path).getName) += 1)
      SchemaDiscovery.locally(files, options, c)
    }
    val session = StreamSession(
      ZoneId.of("UTC"),
      counting,
      () => Nil,
      () => SplitPlanner.Settings(128L << 20, 256L << 10, 2)
    )
    val old = System.currentTimeMillis() - 3600000L
    def land(name: String, text: String, age: Int): Unit = {
      val p = root.resolve("in").resolve(name)
      Files.createDirectories(p.getParent)
      Files.write(p, text.getBytes(UTF_8))
      p.toFile.setLastModified(old + age * 1000L)
    }
    land("a.json", "{\"id\": 1}\n", 0)
    val options = TableScan.parseOptions(
      Map("schemaLocation" -> root.resolve("schemas").toString, "sessionSchemaCache" -> "false"),
      StreamOptions.all
    )
    val definition = StreamDefinition.load(Seq(root.resolve("in").toString), options, None, conf, session)
    val engine = new StreamEngine(definition, root.resolve("chk/sources/0").toString, session)
    try {
      val first = engine.initialBatch()
      // Two files land; addNewColumns watches, so the barrier discovers both when it admits them.
      land("b.json", "{\"id\": 2}\n", 1)
      land("c.json", "{\"id\": 3}\n", 2)
      val next = engine.latestBatch(first, 1000, Long.MaxValue)
      assert(next > first)
      val before = counts.toMap
      assert(engine.plan(first, next, new StructType().add("id", "bigint")).isDefined)
      engine.commit(next)
      assert(counts.toMap == before, "planning discovered files again")
      assert(counts("b.json") == 1 && counts("c.json") == 1, counts)
    } finally engine.stop()
  }
}
