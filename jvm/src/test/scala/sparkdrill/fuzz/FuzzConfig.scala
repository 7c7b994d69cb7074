package sparkdrill.fuzz

import scala.concurrent.duration._

import org.scalacheck.Test
import org.scalacheck.rng.Seed

/** How many examples each fuzz property tries, from which seed, and how long one example may take.
  *
  * `make test` (`sbt test`) runs every property's small default count from a fixed seed, so a failure in CI
  * replays. `make fuzz` sets these environment variables (the tests run in a forked JVM, which inherits the
  * environment; system properties would not reach it) and runs only the fuzz suites:
  *   - `SPARK_DRILL_FUZZ_EXAMPLES`: examples per property (default: each property's own, a few hundred at
  *     most)
  *   - `SPARK_DRILL_FUZZ_SEED`: a number, or `random` (default: [[DefaultSeed]]); every failure prints it
  *   - `SPARK_DRILL_FUZZ_TIMEOUT_SECONDS`: how long one example may run before it counts as a hang (default
  *     20)
  *
  * A failure replays with the same seed and at least as many examples: the generators never read ScalaCheck's
  * size parameter, so the n-th example depends on the seed alone.
  */
object FuzzConfig {
  val DefaultSeed: Long = 20261014L

  private def env(name: String): Option[String] = sys.env.get(name).map(_.trim).filter(_.nonEmpty)

  val examples: Option[Int] = env("SPARK_DRILL_FUZZ_EXAMPLES").map(_.toInt)

  val seed: Long = env("SPARK_DRILL_FUZZ_SEED") match {
    case Some(s) if s.equalsIgnoreCase("random") => new java.security.SecureRandom().nextLong()
    case Some(s) => s.toLong
    case None => DefaultSeed
  }

  val timeout: FiniteDuration = env("SPARK_DRILL_FUZZ_TIMEOUT_SECONDS").map(_.toInt).getOrElse(20).seconds

  /** ScalaCheck's parameters for a property whose default count is `defaultExamples`. */
  def parameters(defaultExamples: Int): Test.Parameters =
    Test.Parameters.default
      .withMinSuccessfulTests(examples.getOrElse(defaultExamples))
      .withInitialSeed(Seed(seed))
      .withWorkers(1)

  /** How to replay a run, for failure messages. */
  def replay(defaultExamples: Int): String =
    s"seed $seed; replay with: make fuzz FUZZ_SEED=$seed FUZZ_EXAMPLES=${examples.getOrElse(defaultExamples)}"
}
