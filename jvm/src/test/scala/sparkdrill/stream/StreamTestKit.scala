package sparkdrill.stream

import java.time.ZoneId

import org.scalatest.Assertions

import sparkdrill.scan.{SchemaDiscovery, SplitPlanner}

/** What the suites that drive a StreamEngine by hand share: a session without Spark, and idle triggers. */
private[stream] object StreamTestKit {

  /** A session in UTC, discovering on this thread, with no Python parsers. */
  val session: StreamSession =
    StreamSession(
      ZoneId.of("UTC"),
      SchemaDiscovery.locally,
      () => Nil,
      () => SplitPlanner.Settings(128L << 20, 256L << 10, 2)
    )

  /** Idle triggers, as Spark runs them (the offset asked for, then the progress), until `condition` holds (at
    * most 30 s): a trigger plans the next cleaning round once the last is recorded.
    */
  def triggersUntil(e: StreamEngine, start: Long, what: String)(condition: => Boolean): Unit = {
    val deadline = System.nanoTime() + 30L * 1000000000L
    while ({ e.latestBatch(start, 1000, Long.MaxValue); e.metrics(start); !condition }) {
      if (System.nanoTime() > deadline) Assertions.fail(s"$what: not within 30 s")
      Thread.sleep(20)
    }
  }
}
