package sparkdrill.scan

import java.io.FileNotFoundException
import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path => JPath}

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{ChecksumException, FileSystem, Path}
import org.apache.hadoop.io.compress.{CompressionCodecFactory, GzipCodec}
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles

/** The JDK's listing and opening of local files (LocalFiles) give what Hadoop's LocalFileSystem gives, and
  * step aside wherever they could not: another file system, a replaced `file:` implementation, a `.crc`.
  */
class LocalFilesSuite extends AnyFunSuite with TestFiles {
  private val conf = new Configuration()
  private def hadoop = FileSystem.getLocal(conf)
  private def uri(p: JPath): String = "file:" + p.toString

  // Names Hadoop lists as they are (a `:` in a name is one Hadoop's Path cannot take, so it is left out).
  private val oddNames =
    Seq(
      "plain.csv",
      "with space.csv",
      "per%20cent.csv",
      "ünï cödé.csv",
      "hash#.csv",
      "q?.csv",
      "brace{1}.csv"
    )

  private def hadoopListing(dir: JPath): Seq[FileLister.Listed] =
    hadoop.listStatus(new Path(uri(dir))).toSeq.map(FileLister.Listed(_)).map { l =>
      if (l.isDirectory) l.copy(length = 0L) else l // a directory's length means nothing to the lister
    }

  private def ours(dir: JPath): Seq[FileLister.Listed] = LocalFiles.list(new Path(uri(dir)), conf).get.toSeq

  test("a directory lists as Hadoop lists it: odd names, subdirectories, links, hidden and checksum files") {
    write(oddNames.map(n => s"d/$n" -> s"a,b\n1,$n\n"): _*)
    write(
      "d/sub/x.csv" -> "a\n1\n",
      "d/.hidden.csv" -> "a\n",
      "d/_underscore.csv" -> "a\n",
      "d/empty/.keep" -> ""
    )
    Files.createDirectories(root.resolve("d/emptier"))
    val d = root.resolve("d")
    // A file written through Hadoop's LocalFileSystem gets a `.crc` beside it, which listings hide.
    val out = hadoop.create(new Path(uri(d.resolve("checked.csv"))))
    out.write("a\n1\n".getBytes(UTF_8))
    out.close()
    assert(Files.exists(d.resolve(".checked.csv.crc")))
    val links = Seq(
      Files.createSymbolicLink(d.resolve("link-to-file.csv"), d.resolve("plain.csv")),
      Files.createSymbolicLink(d.resolve("link-to-dir"), d.resolve("sub")),
      Files.createSymbolicLink(d.resolve("dangling.csv"), d.resolve("nowhere.csv"))
    )
    try {
      val expected = hadoopListing(d).sortBy(_.path)
      assert(
        expected.map(_.name).contains("link-to-dir") && !expected.map(_.name).contains(".checked.csv.crc")
      )
      assert(ours(d).sortBy(_.path) == expected)
      assert(ours(d.resolve("sub")) == hadoopListing(d.resolve("sub")))
    } finally links.foreach(Files.delete)
  }

  test("a missing directory fails as Hadoop's listing fails") {
    val gone = root.resolve("gone")
    val theirs = intercept[FileNotFoundException](hadoop.listStatus(new Path(uri(gone))))
    val mine = intercept[FileNotFoundException](ours(gone))
    assert(mine.getMessage == theirs.getMessage)
  }

  test("a file opens to the bytes Hadoop reads, and its bytes count in Hadoop's statistics for Spark") {
    write("a b%.csv" -> ("x,y\n" + (1 to 5000).map(i => s"$i,v$i").mkString("\n")))
    val file = root.resolve("a b%.csv")
    def read(in: java.io.InputStream): Array[Byte] = try in.readAllBytes()
    finally in.close()
    def threadBytes: Long = FileSystem.getAllStatistics.asScala.map(_.getThreadStatistics.getBytesRead).sum
    val before = threadBytes
    val bytes = read(LocalFiles.open(uri(file), conf).get)
    assert(threadBytes - before == Files.size(file))
    assert(bytes.sameElements(read(hadoop.open(new Path(uri(file))))))
    assert(bytes.sameElements(Files.readAllBytes(file)))
  }

  test("a missing file fails as Hadoop's open fails") {
    val gone = uri(root.resolve("gone.csv"))
    val theirs = intercept[FileNotFoundException](hadoop.open(new Path(gone)))
    val mine = intercept[FileNotFoundException](LocalFiles.open(gone, conf))
    assert(mine.getMessage == theirs.getMessage)
  }

  test("Hadoop is used for a file with a checksum, which it verifies, and off the local file system") {
    val d = root.resolve("d")
    Files.createDirectories(d)
    val checked = uri(d.resolve("checked.csv"))
    val out = hadoop.create(new Path(checked))
    out.write("a,b\n1,2\n".getBytes(UTF_8))
    out.close()
    assert(LocalFiles.open(checked, conf).isEmpty)
    // Spoiled behind Hadoop's back: the checksum catches it, through the scan's own input.
    Files.write(d.resolve("checked.csv"), "a,b\n1,3\n".getBytes(UTF_8))
    val input = new HadoopFileInput(checked, 0L, Long.MaxValue, conf)
    try intercept[ChecksumException](input.open(0L).readAllBytes())
    finally input.close()

    assert(LocalFiles.open("s3a://bucket/a.csv", conf).isEmpty)
    assert(LocalFiles.list(new Path("s3a://bucket/dir"), conf).isEmpty)
    assert(!LocalFiles.isLocal("file://host/a.csv", conf)) // an authority: Hadoop's to judge
  }

  test("a replaced `file:` file system is used, not the JDK") {
    write("a.csv" -> "a\n1\n")
    val replaced = new Configuration(conf)
    replaced.set("fs.file.impl", classOf[org.apache.hadoop.fs.RawLocalFileSystem].getName)
    replaced.setBoolean("fs.file.impl.disable.cache", true)
    assert(LocalFiles.open(uri(root.resolve("a.csv")), replaced).isEmpty)
    assert(LocalFiles.list(new Path(uri(root)), replaced).isEmpty)
    assert(LocalFiles.open(uri(root.resolve("a.csv")), conf).isDefined)
  }

  // Hadoop 3.4 (Spark 4) matches extensions in any case; Hadoop 3.3 (Spark 3.5) only in the case they are
  // registered in. spark-drill matches in any case on both lines, so the factory is asked for the lower-case name.
  test("codecs are found by name as Hadoop's CompressionCodecFactory finds them, in any case") {
    val factory = new CompressionCodecFactory(conf)
    def kind(c: AnyRef) = Option(c).map(_.getClass)
    val names = Seq(
      "a.csv",
      "a.csv.gz",
      "a.CSV.GZ",
      "a.bz2",
      "a.json.deflate",
      "a.zst",
      "a.lz4",
      "a.snappy",
      "gz",
      ".gz",
      "a.gz.csv",
      "a.tar.gz",
      "agz",
      "a.",
      "a",
      "dir.gz/a.csv",
      "dir/a.csv.bz2",
      "x.Bz2"
    )
    names.foreach { n =>
      val path = "file:/data/" + n
      val lowerCase = new Path(path.toLowerCase(java.util.Locale.ROOT))
      assert(kind(Codecs(conf).forFile(path)) == kind(factory.getCodec(lowerCase)), n)
    }
    assert(Codecs(conf).forFile("file:/data/a.csv.gz") != null)
    assert(kind(Codecs(conf).forFile("file:/data/a.CSV.GZ")).contains(classOf[GzipCodec]))
  }

  test("driver threads give results in order, and the first failure after all have run") {
    assert(DriverThreads.map(1 to 100)(i => i * 2) == (1 to 100).map(_ * 2))
    val ran = new java.util.concurrent.atomic.AtomicInteger()
    val e = intercept[IllegalStateException] {
      DriverThreads.map(1 to 40) { i =>
        ran.incrementAndGet()
        if (i % 10 == 3) throw new IllegalStateException(s"item $i")
        i
      }
    }
    assert(e.getMessage == "item 3" && ran.get == 40)
  }
}
