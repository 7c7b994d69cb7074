package sparkdrill.scan

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path => JPath}
import java.nio.file.attribute.FileTime
import java.time.ZoneOffset

import org.apache.hadoop.conf.Configuration
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles

/** `listChangedDirectoriesOnly`: a listing with a stream's memo leaves out the files of directories unchanged
  * since it last listed them, and lists every other: changed, recent, timeless (0), unfinished, or under an
  * unlisted directory. A directory's time is set by hand here, to show which directories were trusted.
  */
class DirectoryMemoSuite extends AnyFunSuite with TestFiles {
  private val conf = new Configuration()
  private val options = TableScan.parseOptions(Map("header" -> "true"))
  private val hourAgo = System.currentTimeMillis() - 3600000L

  private def put(dir: JPath, name: String): JPath = {
    val file = dir.resolve(name)
    Files.createDirectories(file.getParent)
    Files.write(file, "id\n1\n".getBytes(UTF_8))
  }
  private def setTime(dir: JPath, millis: Long): Unit = {
    Files.setLastModifiedTime(dir, FileTime.fromMillis(millis)); ()
  }
  private def timeOf(dir: JPath): Long = Files.getLastModifiedTime(dir).toMillis

  private def files(in: JPath, memo: Option[DirectoryMemo]): Seq[ScanFile] =
    FileLister.list(Seq("file:" + in), conf, options, ZoneOffset.UTC, memo)

  // The listed files' paths under `in`.
  private def listing(in: JPath, memo: Option[DirectoryMemo]): Seq[String] =
    files(in, memo).map(f => f.path.substring(f.path.indexOf("/in/") + 4))

  // in/a/1.csv, in/b/2.csv, in/b/c/3.csv, every directory an hour old.
  private def tree(): JPath = {
    val in = root.resolve("in")
    put(in, "a/1.csv"); put(in, "b/2.csv"); put(in, "b/c/3.csv")
    Seq("b/c", "a", "b", "").foreach(d => setTime(in.resolve(d), hourAgo))
    in
  }

  test("an unchanged, settled directory is not listed again; a changed one is, with all its files") {
    val in = tree()
    val memo = new DirectoryMemo(30000L)
    assert(listing(in, Some(memo)) == Seq("a/1.csv", "b/2.csv", "b/c/3.csv"))
    assert(listing(in, Some(memo)).isEmpty)
    assert(memo.size == 4)
    // A file added to `a` while its time is put back (as a file system that kept no times would show it):
    // trusted, so not seen. This is what the option takes on trust.
    val before = timeOf(in.resolve("a"))
    put(in, "a/4.csv")
    setTime(in.resolve("a"), before)
    assert(listing(in, Some(memo)).isEmpty)
    // Its time changed: `a` is listed whole.
    setTime(in.resolve("a"), hourAgo + 1000L)
    assert(listing(in, Some(memo)) == Seq("a/1.csv", "a/4.csv"))
    // Without a memo, every listing lists everything.
    assert(listing(in, None).size == 4)
  }

  test("a directory under unlisted ones is still looked at; a recent one is listed until it settles") {
    val in = tree()
    val memo = new DirectoryMemo(30000L)
    listing(in, Some(memo))
    put(in, "b/c/5.csv") // c's time is now: in and b are unchanged, c is listed
    assert(listing(in, Some(memo)) == Seq("b/c/3.csv", "b/c/5.csv"))
    assert(listing(in, Some(memo)) == Seq("b/c/3.csv", "b/c/5.csv")) // not settled yet
    val settled = new DirectoryMemo(0L)
    listing(in, Some(settled))
    assert(listing(in, Some(settled)).isEmpty)
    // A new directory under an unchanged in would change the in's time: here it does.
    put(in, "d/6.csv")
    assert(listing(in, Some(settled)) == Seq("d/6.csv"))
  }

  test("a directory with a file not taken, or with no time (an object store's), is listed every time") {
    val in = tree()
    val memo = new DirectoryMemo(30000L)
    val first = files(in, Some(memo))
    memo.unfinished(first.find(_.path.endsWith("b/2.csv")).get.path)
    assert(listing(in, Some(memo)) == Seq("b/2.csv"))
    assert(listing(in, Some(memo)).isEmpty) // listed, and nothing was left out this time
    setTime(in.resolve("a"), 0L)
    listing(in, Some(memo))
    assert(listing(in, Some(memo)) == Seq("a/1.csv"))
    assert(listing(in, Some(memo)) == Seq("a/1.csv"))
  }

  test("a directory gone since its last listing is neither listed nor an error") {
    val in = tree()
    val memo = new DirectoryMemo(30000L)
    listing(in, Some(memo))
    Files.delete(in.resolve("b/c/3.csv"))
    Files.delete(in.resolve("b/c"))
    setTime(in.resolve("b"), hourAgo) // b's entries changed, but its time is put back: c is looked up
    assert(listing(in, Some(memo)).isEmpty)
  }

  test("a file not taken keeps its directory listed whatever its directory's name") {
    val in = root.resolve("in")
    val names = Seq("with space", "per%20cent", "ünï cödé", "hash#", "brace{1}", "plain")
    names.foreach(n => put(in, s"$n/x.csv"))
    (names :+ "").foreach(d => setTime(in.resolve(d), hourAgo))
    val memo = new DirectoryMemo(30000L)
    val first = files(in, Some(memo))
    assert(first.size == names.size)
    first.foreach(f => memo.unfinished(f.path))
    assert(listing(in, Some(memo)).size == names.size) // every directory listed again
    assert(listing(in, Some(memo)).isEmpty) // and then, every file taken, none
  }
}
