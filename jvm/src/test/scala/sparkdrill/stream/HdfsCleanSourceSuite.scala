package sparkdrill.stream

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.Files

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileSystem, Path}
import org.apache.hadoop.hdfs.MiniDFSCluster
import org.apache.spark.sql.types.StructType
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.scan.TableScan
import sparkdrill.stream.state._
import sparkdrill.tags.Slow

/** `cleanSource` on HDFS (SPEC 11.1: local disks, HDFS and object stores): a real HDFS, a NameNode and a
  * DataNode started in this JVM on 127.0.0.1, holding the input, the archive and the checkpoint; triggers
  * driven as Spark drives them.
  */
@Slow
class HdfsCleanSourceSuite extends AnyFunSuite with BeforeAndAfterAll {
  import StreamTestKit._

  private val base = Files.createTempDirectory("spark-drill-hdfs")
  private val conf = new Configuration()
  private var cluster: MiniDFSCluster = _
  private var fs: FileSystem = _
  private var test = 0 // each test under a directory of its own

  override def beforeAll(): Unit = {
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString)
    conf.set("dfs.namenode.rpc-address", "127.0.0.1:0")
    conf.set("dfs.datanode.address", "127.0.0.1:0")
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build()
    cluster.waitActive()
    fs = cluster.getFileSystem
  }

  override def afterAll(): Unit =
    try if (cluster != null) cluster.shutdown()
    finally {
      val walk = Files.walk(base)
      try walk.sorted(java.util.Comparator.reverseOrder()).forEach(p => Files.delete(p))
      finally walk.close()
    }

  private def dir: Path = fs.makeQualified(new Path(s"/t$test"))
  private def in(rel: String) = new Path(dir, s"in/$rel")
  private def archived(rel: String) = new Path(dir, s"archive/$rel")
  private def checkpoint = new Path(dir, "chk/sources/0").toString

  private def land(rel: String, text: String): Unit = {
    val out = fs.create(in(rel))
    try out.write(text.getBytes(UTF_8))
    finally out.close()
    fs.setTimes(in(rel), System.currentTimeMillis() - 3600000L, -1L)
  }

  private def read(p: Path): String = {
    val s = fs.open(p)
    try new String(s.readAllBytes(), UTF_8)
    finally s.close()
  }

  private def engine(options: (String, String)*): StreamEngine = {
    val all = Map("schemaLocation" -> new Path(dir, "schemas").toString, "header" -> "true") ++ options
    val d = StreamDefinition.load(
      Seq(new Path(dir, "in").toString),
      TableScan.parseOptions(all, StreamOptions.all),
      None,
      conf,
      session
    )
    new StreamEngine(d, checkpoint, session)
  }

  private def records: Seq[CleanRecord] = {
    val layout = new StateLayout(StreamState.dirFor(new Path(checkpoint)))
    CleanLog.read(fs, layout).records
  }

  private def readAll(e: StreamEngine): Long = {
    val start = e.initialBatch()
    val end = e.latestBatch(start, 1000, Long.MaxValue)
    assert(end > start)
    e.plan(start, end, StructType(Nil))
    e.commit(end)
    end
  }

  test("archive on HDFS: committed files renamed under the archive directory, keeping their path") {
    test = 1
    land("2026/12/a.csv", "id\n1\n")
    land("b.csv", "id\n2\n")
    val archive = new Path(dir, "archive").toString
    val e =
      engine("cleanSource" -> "archive", "cleanSourceArchiveDir" -> archive, "cleanSourceRetention" -> "1s")
    try {
      val batch = readAll(e)
      Thread.sleep(1100)
      triggersUntil(e, batch, "archived")(e.metrics(batch)("numFilesArchived") == "2")
      assert(!fs.exists(in("2026/12/a.csv")) && !fs.exists(in("b.csv")))
      assert(read(archived("2026/12/a.csv")) == "id\n1\n" && read(archived("b.csv")) == "id\n2\n")
      val r = records.sortBy(_.path)
      assert(r.map(_.path) == Seq("2026/12/a.csv", "b.csv") && r.forall(_.mode == "archive"))
      assert(r.head.archivePath.contains(archived("2026/12/a.csv").toString))
      assert(r.head.archivePath.get.startsWith("hdfs://"))
    } finally e.stop()
  }

  test("delete on HDFS: committed files deleted after the retention, and recorded") {
    test = 2
    land("a.csv", "id\n1\n")
    land("d/b.csv", "id\n2\n")
    val e = engine("cleanSource" -> "delete", "cleanSourceRetention" -> "1s")
    try {
      val batch = readAll(e)
      Thread.sleep(1100)
      triggersUntil(e, batch, "deleted")(e.metrics(batch)("numFilesDeleted") == "2")
      assert(!fs.exists(in("a.csv")) && !fs.exists(in("d/b.csv")))
      assert(
        records.map(r => (r.path, r.mode, r.archivePath)).sorted == Seq(
          ("a.csv", "delete", None),
          ("d/b.csv", "delete", None)
        )
      )
    } finally e.stop()
  }
}
