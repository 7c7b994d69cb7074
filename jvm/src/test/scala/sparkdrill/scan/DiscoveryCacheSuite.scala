package sparkdrill.scan

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}
import java.util.concurrent.{Callable, CountDownLatch, Executors, TimeUnit}
import java.util.zip.CRC32

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.scan.cache._
import sparkdrill.scan.cache.CacheFileFormat.{FileLine, Header, SchemaLine, Version}

/** The discovery cache (docs/options.md, Discovery cache): a second load of a tree discovers only new or
  * changed files, in memory and through a `schemaCache` directory, which never trusts a spoiled line.
  */
class DiscoveryCacheSuite extends AnyFunSuite with TestFiles {
  private val memory = InMemorySchemaCache.session

  override def beforeEach(): Unit = {
    super.beforeEach()
    memory.clear()
  }

  private def data: Path = root.resolve("data")
  private def cacheDir: Path = root.resolve("cache")

  private def open(options: (String, String)*): TableScan = ScanTestKit.open(Seq(data.toString), options)

  private def names(scan: TableScan): Seq[String] = scan.schema.fieldNames.toSeq

  /** The cache files in the cache directory (not temporary or checksum files). */
  private def cacheFiles: Seq[String] =
    if (!Files.isDirectory(cacheDir)) Nil
    else {
      val listing = Files.list(cacheDir)
      try listing.iterator.asScala.map(_.getFileName.toString).filter(SchemaCacheDir.isCacheFile).toList
      finally listing.close()
    }

  /** A cache line with a correct CRC around any text. */
  private def crcLine(json: String): Array[Byte] = {
    val crc = new CRC32()
    crc.update(json.getBytes(UTF_8))
    f"${crc.getValue}%08x $json\n".getBytes(UTF_8)
  }

  private def concat(parts: Seq[Array[Byte]]): Array[Byte] = parts.foldLeft(Array.emptyByteArray)(_ ++ _)

  /** How many distinct objects (not merely equal ones) the schemas are. */
  private def objects(schemas: Seq[StructType]): Int = {
    val seen =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap[StructType, java.lang.Boolean])
    schemas.foreach(seen.add)
    seen.size
  }

  test("a second open of an unchanged tree discovers nothing and gives the same schema") {
    write("data/a.csv" -> "x,y\n1,2\n", "data/b.csv" -> "y,z\n3,4\n")
    val first = open("header" -> "true")
    assert(first.discoveryStats == DiscoveryStats(2, 0, 0, 2, Nil))
    val second = open("header" -> "true")
    assert(second.discoveryStats == DiscoveryStats(2, 2, 0, 0, Nil))
    assert(second.schema == first.schema && names(second) == Seq("x", "y", "z"))
    assert(second.fileSchemas == first.fileSchemas)
  }

  test("a file rewritten with another header is discovered again, by its time or by its length") {
    write("data/a.csv" -> "x,y\n1,2\n", "data/b.csv" -> "x,y\n3,4\n")
    val a = data.resolve("a.csv").toFile
    val time = a.lastModified
    open("header" -> "true")
    write("data/a.csv" -> "x,q\n1,2\n") // the same length: only the time tells
    assert(a.setLastModified(time + 10000))
    val retimed = open("header" -> "true")
    assert(retimed.discoveryStats == DiscoveryStats(2, 1, 0, 1, Nil))
    assert(names(retimed) == Seq("x", "q", "y"))
    write("data/a.csv" -> "x,qq\n1,2\n") // the same time again: only the length tells
    assert(a.setLastModified(time + 10000))
    val resized = open("header" -> "true")
    assert(resized.discoveryStats == DiscoveryStats(2, 1, 0, 1, Nil))
    assert(names(resized) == Seq("x", "qq", "y"))
  }

  test("a deleted file is not in the table; the others come from the cache") {
    write("data/a.csv" -> "x\n1\n", "data/b.csv" -> "y\n2\n")
    open("header" -> "true")
    Files.delete(data.resolve("b.csv"))
    val after = open("header" -> "true")
    assert(after.files.map(_.path.split('/').last) == Seq("a.csv"))
    assert(names(after) == Seq("x"))
    assert(after.discoveryStats == DiscoveryStats(1, 1, 0, 0, Nil))
  }

  test("a new file is discovered; the others come from the cache") {
    write("data/a.csv" -> "x\n1\n")
    open("header" -> "true")
    write("data/b.csv" -> "y\n2\n")
    val after = open("header" -> "true")
    assert(after.discoveryStats == DiscoveryStats(2, 1, 0, 1, Nil))
    assert(names(after) == Seq("x", "y"))
  }

  test("options that change discovery do not share entries; options that do not, do") {
    write("data/a.csv" -> "x;y\n1;2\n")
    def discovered(options: (String, String)*): Int = open(options: _*).discoveryStats.discovered
    assert(discovered("header" -> "true") == 1)
    assert(discovered("header" -> "false") == 1)
    assert(discovered("header" -> "true", "delimiter" -> ";") == 1)
    assert(names(open("header" -> "true", "delimiter" -> ";")) == Seq("x", "y"))
    assert(names(open("header" -> "true")) == Seq("x;y"))
    assert(discovered("header" -> "true", "inferTypes" -> "true") == 1)
    assert(discovered("header" -> "true", "schemaMode" -> "strict", "batchRows" -> "7") == 0)
    assert(discovered("header" -> "true", "pathGlobFilter" -> "*.csv", "typeConflict" -> "fail") == 0)
  }

  test("the fingerprint: a default set or not, and an alias, are the same; discovery options are not") {
    def fingerprint(options: (String, String)*): String =
      ScanOptions.discoveryFingerprint(TableScan.parseOptions(options.toMap))
    assert(fingerprint() == fingerprint("header" -> "false"))
    assert(fingerprint("sep" -> ";") == fingerprint("delimiter" -> ";"))
    assert(fingerprint("header" -> "true") != fingerprint())
    assert(fingerprint("sampleRows" -> "10") != fingerprint())
    assert(fingerprint("format.day" -> "dd.MM.yyyy") != fingerprint())
    assert(fingerprint("format" -> "csv") != fingerprint())
    // A file's sample makes maps of its objects past the threshold: a cached schema of another threshold is
    // not served. The bound on the table's width only judges the union.
    assert(fingerprint("mapInferenceThreshold" -> "-1") != fingerprint())
    assert(fingerprint("mapInferenceThreshold" -> "200") == fingerprint())
    assert(
      fingerprint(
        "maxSchemaFields" -> "50000",
        "modifiedAfter" -> "2024-01-01T00:00:00",
        "ignoreMissingFiles" -> "true",
        "schemaCache" -> "/x",
        "sessionSchemaCache" -> "false",
        "fs.s3a.endpoint" -> "http://127.0.0.1:9000"
      ) == fingerprint()
    )
  }

  test("a file discovery found corrupt is not cached: the next open asks it again") {
    write("data/good.csv" -> "x\n1\n")
    Files.write(data.resolve("bad.csv.gz"), "\u001f\u008b\u0008\u0000 not gzip".getBytes("ISO-8859-1"))
    val options = Seq("header" -> "true", "ignoreCorruptFiles" -> "true")
    assert(open(options: _*).discoveryStats == DiscoveryStats(2, 0, 0, 2, Nil))
    val again = open(options: _*)
    assert(again.discoveryStats == DiscoveryStats(2, 1, 0, 1, Nil))
    assert(again.files.map(_.path.split('/').last) == Seq("good.csv"))
  }

  test("sessionSchemaCache=false neither uses nor fills the session's cache") {
    write("data/a.csv" -> "x\n1\n")
    open("header" -> "true", "sessionSchemaCache" -> "false")
    assert(memory.stats.entries == 0)
    open("header" -> "true")
    assert(memory.stats.entries == 1)
    assert(open("header" -> "true", "sessionSchemaCache" -> "false").discoveryStats.discovered == 1)
  }

  test("equal schemas are one object: within a table, across tables and in the session's cache") {
    (0 until 50).foreach(i => write(f"data/f$i%02d.csv" -> (if (i % 2 == 0) "a,b\n1,2\n" else "c\n3\n")))
    val first = open("header" -> "true")
    val second = open("header" -> "true")
    assert(objects(first.fileSchemas) == 2)
    assert(first.fileSchemas.indices.forall(i => first.fileSchemas(i) eq second.fileSchemas(i)))
    assert(memory.stats.entries == 50 && memory.stats.schemas == 2)
    val cache = "schemaCache" -> cacheDir.toString
    assert(objects(open("header" -> "true", "sessionSchemaCache" -> "false").fileSchemas) == 2)
    open("header" -> "true", "sessionSchemaCache" -> "false", cache)
    val fromDirectory = open("header" -> "true", "sessionSchemaCache" -> "false", cache)
    assert(fromDirectory.discoveryStats.fromDirectory == 50 && objects(fromDirectory.fileSchemas) == 2)
  }

  test("schemaCache: a new session (an empty memory) with the same directory discovers nothing") {
    write("data/a.csv" -> "x\n1\n", "data/b.csv" -> "y\n2\n")
    val cache = "schemaCache" -> cacheDir.toUri.toString // file:///..., as for any Hadoop file system
    val first = open("header" -> "true", cache)
    assert(first.discoveryStats == DiscoveryStats(2, 0, 0, 2, Nil))
    assert(cacheFiles.size == 1)
    memory.clear()
    val second = open("header" -> "true", cache)
    assert(second.discoveryStats == DiscoveryStats(2, 0, 2, 0, Nil))
    assert(second.schema == first.schema && second.fileSchemas == first.fileSchemas)
    // Now in memory too: the directory is not read.
    assert(open("header" -> "true", cache).discoveryStats == DiscoveryStats(2, 2, 0, 0, Nil))
    val directoryOnly = open("header" -> "true", cache, "sessionSchemaCache" -> "false")
    assert(directoryOnly.discoveryStats == DiscoveryStats(2, 0, 2, 0, Nil))
    assert(cacheFiles.size == 1, "nothing new to write")
  }

  test("schemaCache: garbage, a line with a bad CRC, schemas that do not parse are ignored, never trusted") {
    write("data/a.csv" -> "x\n1\n", "data/b.csv" -> "y\n2\n", "data/c.csv" -> "z\n3\n")
    val options = Seq("header" -> "true", "sessionSchemaCache" -> "false")
    val plain = open(options: _*)
    val fingerprint = ScanOptions.discoveryFingerprint(plain.options)
    val keys = plain.files.map(CacheKey.of(_, fingerprint))
    val (a, b, c) = (keys(0), keys(1), keys(2))
    val evil = StructType(Seq(StructField("evil", StringType)))
    // b.csv: its line is whole but for one CRC digit, and names a schema that is valid.
    val bLine = CacheFileFormat.encode(FileLine(b, 1))
    bLine(0) = (if (bLine(0) == '0'.toByte) '1' else '0').toByte
    Files.createDirectories(cacheDir)
    Files.write(
      cacheDir.resolve("1-spoiled.sdcache"),
      concat(
        Seq(
          CacheFileFormat.encode(Header(Version)),
          crcLine("""{"id":0,"schema":{"type":"struct","fields":[{"name":"evil"}]}}"""), // not a schema
          CacheFileFormat.encode(FileLine(a, 0)),
          CacheFileFormat.encode(SchemaLine(1, evil)),
          bLine,
          crcLine("""{"id":2,"schema":{evil}}"""), // not JSON
          CacheFileFormat.encode(FileLine(c, 2))
        )
      )
    )
    Files.write(cacheDir.resolve("2-garbage.sdcache"), Array.tabulate[Byte](300)(i => (i * 37 + 11).toByte))
    memory.clear()

    val cached = open(options :+ ("schemaCache" -> cacheDir.toString): _*)
    assert(cached.schema == plain.schema && cached.fileSchemas == plain.fileSchemas)
    assert(!cached.fileSchemas.contains(evil))
    assert(cached.discoveryStats.fromDirectory == 0 && cached.discoveryStats.discovered == 3)
    val warnings = cached.discoveryStats.warnings
    assert(warnings.size == 2, warnings)
    assert(
      warnings.exists(w =>
        w.contains("1-spoiled.sdcache: 5 line(s) ignored") && w.contains("line 2: its schema does not parse")
      ),
      warnings
    )
    assert(
      warnings.exists(w => w.contains("2-garbage.sdcache is ignored") && w.contains("no spark-drill header")),
      warnings
    )
    // What was discovered again is kept: the next read takes it from the directory.
    val again = open(options :+ ("schemaCache" -> cacheDir.toString): _*)
    assert(again.discoveryStats.fromDirectory == 3 && again.discoveryStats.discovered == 0)
    assert(again.fileSchemas == plain.fileSchemas)
  }

  test("schemaCache: a torn last line is ignored; the lines before it are kept") {
    val a = CacheKey("file:/d/a.csv", 1L, 1L, "csv", "f")
    val b = a.copy(path = "file:/d/b.csv")
    val schema = StructType(Seq(StructField("x", StringType)))
    val lines = Seq(Header(Version), SchemaLine(0, schema), FileLine(a, 0), FileLine(b, 0)).map(
      CacheFileFormat.encode
    )
    Files.createDirectories(cacheDir)
    Files.write(
      cacheDir.resolve("1-torn.sdcache"),
      concat(lines.init :+ lines.last.take(lines.last.length / 2))
    )
    val contents = new SchemaCacheDir(cacheDir.toString, ScanTestKit.conf).load()
    assert(contents.entries == Map(a -> schema))
    assert(contents.problems.size == 1, contents.problems)
    assert(contents.problems.head.contains("1-torn.sdcache: 1 line(s) ignored"), contents.problems)
  }

  test("schemaCache: a directory that cannot be written is a warning; the read goes on") {
    write("data/a.csv" -> "x\n1\n", "blocker" -> "a file where the directory's parent should be")
    val scan = open("header" -> "true", "schemaCache" -> root.resolve("blocker/cache").toString)
    assert(names(scan) == Seq("x") && scan.discoveryStats.discovered == 1)
    assert(scan.discoveryStats.warnings.exists(_.contains("cannot be written")), scan.discoveryStats.warnings)
  }

  test("schemaCache: compaction merges the files and drops entries of files that changed") {
    val options = Seq("header" -> "true", "sessionSchemaCache" -> "false", "schemaCache" -> cacheDir.toString)
    def add(i: Int): Unit = {
      write(s"data/f$i.csv" -> s"c$i\n1\n")
      assert(open(options: _*).discoveryStats.discovered == 1)
    }
    (0 until SchemaCacheDir.CompactAt + 2).foreach(add)
    // The 16th write found 15 files and merged them with its own into one; two more followed.
    assert(cacheFiles.size == 3)
    val all = open(options: _*)
    assert(all.discoveryStats == DiscoveryStats(18, 0, 18, 0, Nil))

    write("data/f0.csv" -> "changed\n1\n")
    assert(open(options: _*).discoveryStats.discovered == 1)
    def entriesOfF0 = new SchemaCacheDir(cacheDir.toString, ScanTestKit.conf)
      .load()
      .entries
      .keys
      .count(_.path.endsWith("/f0.csv"))
    assert(entriesOfF0 == 2, "the old one and the new one")
    var i = SchemaCacheDir.CompactAt + 2
    while (cacheFiles.size > 1 && i < 60) {
      add(i)
      i += 1
    }
    assert(cacheFiles.size == 1)
    assert(entriesOfF0 == 1, "the old one is dropped")
    val after = open(options: _*)
    assert(after.discoveryStats.discovered == 0 && after.discoveryStats.fromDirectory == i)
    assert(names(after).contains("changed"))
  }

  test("schemaCache: writers at once (with their compactions) lose nothing and spoil nothing") {
    val threads = 4
    val rounds = 10
    val pool = Executors.newFixedThreadPool(threads)
    val start = new CountDownLatch(1)
    try {
      val futures = (0 until threads).map { t =>
        pool.submit(new Callable[Seq[String]] {
          def call(): Seq[String] = {
            start.await()
            (0 until rounds).flatMap { r =>
              write(s"data/t$t/f$r.csv" -> s"c$t,r$r\n1,2\n")
              ScanTestKit
                .open(
                  Seq(data.resolve(s"t$t").toString),
                  Seq("header" -> "true", "sessionSchemaCache" -> "false", "schemaCache" -> cacheDir.toString)
                )
                .discoveryStats
                .warnings
            }
          }
        })
      }
      start.countDown()
      val all = futures.flatMap(_.get(120, TimeUnit.SECONDS))
      assert(all.isEmpty, all)
    } finally pool.shutdownNow()
    val whole = open("header" -> "true", "sessionSchemaCache" -> "false", "schemaCache" -> cacheDir.toString)
    assert(whole.discoveryStats == DiscoveryStats(threads * rounds, 0, threads * rounds, 0, Nil))
    assert(cacheFiles.size < threads * rounds, "compactions ran")
  }
}

/** The in-memory cache's bounds and pool, on small instances. */
class InMemorySchemaCacheSuite extends AnyFunSuite {
  private def key(name: String) = CacheKey(s"file:/t/$name", 1L, 1L, "csv", "f")
  private def schema(names: String*) = StructType(names.map(StructField(_, StringType)))

  test("the least recently used entry leaves first; a schema leaves the pool with its last entry") {
    val cache = new InMemorySchemaCache(maxEntries = 2, maxBytes = Long.MaxValue)
    cache.putAll(Seq(key("a") -> schema("x"), key("b") -> schema("y")))
    assert(cache.getAll(Vector(key("a"))).head.isDefined) // a is now younger than b
    cache.putAll(Seq(key("c") -> schema("x")))
    assert(cache.getAll(Vector(key("a"), key("b"), key("c"))).map(_.isDefined) == Vector(true, false, true))
    assert(cache.stats.entries == 2 && cache.stats.schemas == 1 && cache.stats.evictions == 1)
  }

  test("the byte bound holds; a key put again replaces its entry") {
    val cache = new InMemorySchemaCache(maxEntries = Int.MaxValue, maxBytes = 2000)
    (0 until 100).foreach(i => cache.putAll(Seq(key(s"f$i") -> schema(s"c$i"))))
    val stats = cache.stats
    assert(stats.estimatedBytes <= 2000 && stats.entries > 0 && stats.entries < 100, stats)
    cache.putAll(Seq(key("f99") -> schema("other")))
    assert(cache.getAll(Vector(key("f99"))).head.contains(schema("other")))
    // The old schema left the pool with its only entry.
    assert(cache.stats.schemas == cache.stats.entries)
  }

  test("putAll gives back the pooled schema: equal schemas are one object") {
    val cache = new InMemorySchemaCache(10, Long.MaxValue)
    val first = schema("x")
    val pooled = cache.putAll(Seq(key("a") -> first, key("b") -> schema("x"), key("c") -> schema("y")))
    assert((pooled(0) eq first) && (pooled(1) eq first) && !(pooled(2) eq first))
    assert(cache.getAll(Vector(key("b"))).head.exists(_ eq first))
    cache.clear()
    assert(cache.stats.entries == 0 && cache.stats.schemas == 0 && cache.stats.estimatedBytes == 0)
  }
}

/** One line of a cache file: it decodes to what was encoded, and a changed byte is seen. */
class CacheFileFormatSuite extends AnyFunSuite {
  test("lines round-trip; a flipped bit anywhere is caught") {
    val key = CacheKey("s3a://b/odd \"name\"\n.csv", 12L, 1717171717000L, "csv", "ab" * 32)
    val nested = StructType(
      Seq(
        StructField("m", StructType(Seq(StructField("a", ArrayType(LongType))))),
        StructField("n", MapType(StringType, DoubleType), nullable = false),
        StructField("d", DecimalType(10, 2))
      )
    )
    Seq(Header(Version), SchemaLine(3, nested), FileLine(key, 3)).foreach { line =>
      val bytes = CacheFileFormat.encode(line)
      assert(bytes.last == '\n'.toByte && bytes.count(_ == '\n'.toByte) == 1)
      assert(CacheFileFormat.decode(bytes, bytes.length - 1) == Right(line))
      (0 until bytes.length - 1).foreach { i =>
        val flipped = bytes.clone()
        flipped(i) = (flipped(i) ^ 4).toByte
        assert(CacheFileFormat.decode(flipped, flipped.length - 1).isLeft, s"$line, byte $i")
      }
    }
  }
}
