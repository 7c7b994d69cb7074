package sparkdrill

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import org.scalatest.{BeforeAndAfterEach, Suite}

/** A fresh temporary directory per test, and a way to fill it with files. */
trait TestFiles extends BeforeAndAfterEach { self: Suite =>
  private var dir: Path = _

  def root: Path = dir

  override def beforeEach(): Unit = {
    dir = Files.createTempDirectory("spark-drill-test").toRealPath()
    super.beforeEach()
  }

  override def afterEach(): Unit =
    try super.afterEach()
    finally deleteTree(dir)

  def write(files: (String, String)*): Path = {
    files.foreach { case (rel, text) =>
      val p = dir.resolve(rel)
      Files.createDirectories(p.getParent)
      Files.write(p, text.getBytes(StandardCharsets.UTF_8))
    }
    dir
  }

  private def deleteTree(p: Path): Unit = if (p != null && Files.exists(p)) {
    if (Files.isDirectory(p)) Files.list(p).forEach(deleteTree(_))
    Files.delete(p)
  }
}
