package sparkdrill.loader

import scala.sys.process._

import org.scalatest.funsuite.AnyFunSuite

/** Off-heap memory comes back on close, measured by the JVM's native memory tracking in a child JVM (the
  * vectors allocate with Unsafe, which Spark's memory manager does not see). A deliberate leak shows that the
  * measure can fail.
  */
class MemorySuite extends AnyFunSuite {
  private val Slack = 64L << 10

  private def probe(mode: String, projection: String, leak: String): Map[String, Long] = {
    val java = sys.props("java.home") + "/bin/java"
    val cmd = Seq(
      java,
      "-XX:NativeMemoryTracking=summary",
      "-Xmx512m",
      "-cp",
      sys.props("java.class.path"),
      "sparkdrill.loader.MemoryProbe",
      mode,
      projection,
      leak
    )
    val out = cmd.!!.linesIterator.map(_.trim).filter(_.matches("""(start|peak|end) \d+""")).toSeq
    val steps = out.map(_.split(" ")).map(a => a(0) -> a(1).toLong)
    assert(steps.map(_._1).distinct.toSet == Set("start", "peak", "end"), out.mkString("\n"))
    steps.toMap // the last `peak` (second run) wins
  }

  test("off-heap memory returns to its starting value after close") {
    val m = probe("OFF_HEAP", "all", "no")
    assert(m("peak") - m("start") > (512L << 10), s"the loader should hold off-heap memory while open: $m")
    assert(math.abs(m("end") - m("start")) < Slack, s"off-heap memory not returned: $m")
  }

  test("the measure catches a leaked vector") {
    val m = probe("OFF_HEAP", "all", "leak")
    assert(m("end") - m("start") > (1L << 20), s"a leaked 1 MiB vector should show: $m")
  }

  test("unprojected columns allocate no off-heap memory") {
    val m = probe("OFF_HEAP", "none", "no")
    assert(m("peak") - m("start") < Slack, s"nothing projected, yet memory grew: $m")
  }

  test("on-heap mode allocates no off-heap memory") {
    val m = probe("ON_HEAP", "all", "no")
    assert(m("peak") - m("start") < Slack, s"on-heap loader used off-heap memory: $m")
  }
}
