package sparkdrill.fuzz

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.Path

import org.scalacheck.{Gen, Prop}
import org.scalatest.exceptions.TestFailedException
import org.scalatest.funsuite.AnyFunSuite
import org.scalatestplus.scalacheck.Checkers

import sparkdrill.TestFiles
import sparkdrill.scan.TableScan

/** What the fuzz suites share: a property runs every example on a thread of its own within
  * [[FuzzConfig.timeout]] (property (b), no hang), turns anything but an assertion the example fails into a
  * failure naming the exception (property (a), only the documented errors), and says how to replay the run.
  */
trait FuzzSuite extends AnyFunSuite with TestFiles with Checkers {

  /** A property over `gen`: `holds` must return for `defaultExamples` examples (SPARK_DRILL_FUZZ_EXAMPLES)
    * drawn from the fuzz seed. Failing examples are not shrunk: each one is a few reads of a real file, and
    * the failure prints the file's bytes.
    */
  protected def property[T](name: String, defaultExamples: Int, gen: Gen[T])(holds: T => Unit): Unit =
    test(name) {
      warmUp()
      val replay = FuzzConfig.replay(defaultExamples)
      check(
        Prop.forAllNoShrink(gen) { example =>
          bounded(example, replay)(holds(example))
          Prop.passed
        },
        FuzzConfig.parameters(defaultExamples)
      )
    }

  // Loads the scan's classes (Hadoop's file system, Spark's vectors, Jackson) before the first timed example.
  private def warmUp(): Unit = {
    val files = Seq(
      FuzzScan.write(root, "warm.csv", "a,b\n1,2\n".getBytes(UTF_8)) -> Seq("header" -> "true"),
      FuzzScan.write(root, "warm.json", "{\"a\": 1}\n".getBytes(UTF_8)) -> Nil
    )
    files.foreach { case (file, options) =>
      FuzzScan.open(file, options).foreach(scan => FuzzScan.read(scan, FuzzScan.withPositions(scan)))
      FuzzScan.delete(file)
    }
  }

  private def bounded(example: Any, replay: String)(body: => Unit): Unit =
    Bounded(FuzzConfig.timeout)(body) match {
      case Bounded.Done(_) =>
      case Bounded.TimedOut =>
        fail(s"property (b): no result within ${FuzzConfig.timeout}, a hang? ($replay)\n$example")
      case Bounded.Threw(e: TestFailedException) => fail(s"${e.getMessage}\n($replay)", e)
      case Bounded.Threw(e) =>
        fail(
          s"property (a): ${e.getClass.getName} is not one of the scan's documented errors: ${e.getMessage}\n($replay)",
          e
        )
    }

  /** The table of `file`, which must open. */
  protected def opened(file: Path, options: Seq[(String, String)], what: String): TableScan =
    FuzzScan.open(file, options) match {
      case Right(scan) => scan
      case Left(err) => fail(s"$what: the table did not open: ${err.getMessage}", err)
    }

  /** A row for a failure message. */
  protected def show(row: Vector[String]): String =
    row.map(v => if (v == null) "null" else Show.bytes(v.getBytes(UTF_8))).mkString("[", ", ", "]")
}
