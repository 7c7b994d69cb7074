package sparkdrill.stream

import java.util.concurrent.{
  Callable,
  ExecutionException,
  Executors,
  Future,
  ThreadFactory,
  TimeUnit,
  TimeoutException
}

import scala.util.control.NonFatal

import org.slf4j.LoggerFactory

import sparkdrill.stream.state.CleanRecord

/** Runs `cleanSource`'s rounds (SourceCleaner) on a thread of their own, between triggers (SPEC 11.1): on an
  * object store a round's renames take seconds to minutes, which no trigger should wait for, and which would
  * slow a trigger's own requests to the same store if they ran beside them.
  *
  * The micro-batch thread calls [[triggerStarts]] when Spark asks for the next offset: the round in flight
  * pauses after the few files it is on, a finished one is recorded, and when none is in flight the next is
  * planned. It calls [[triggerEnds]] once the trigger is over (it found nothing, or Spark reports the
  * micro-batch's progress): the round goes on. One round at a time, so a trigger never finds two.
  *
  * Triggers back to back (a constant flow under Spark's default trigger) leave no time between them: after
  * [[StarvedAfter]] gaps in a row shorter than [[MinGapMillis]], the next trigger lets the round run beside
  * it, so that a busy landing zone is cleaned too, if more slowly.
  */
private[sparkdrill] final class CleaningBetweenTriggers(cleaner: SourceCleaner) extends AutoCloseable {
  import CleaningBetweenTriggers._

  private val lock = new Object
  private var between = false // guarded by lock: no trigger is running
  private var stopping = false // guarded by lock

  private val worker = Executors.newSingleThreadExecutor(new ThreadFactory {
    def newThread(r: Runnable): Thread = {
      val t = new Thread(r, "spark-drill-clean-source")
      t.setDaemon(true)
      t
    }
  })
  // Micro-batch thread only.
  private var inFlight: Option[(CleanerRound, Future[Option[Vector[CleanRecord]]])] = None
  private var lastEnd: Option[Long] = None // when the last trigger ended; None while one runs
  private var shortGaps = 0

  def triggerStarts(now: Long): Unit = {
    lock.synchronized { between = false }
    shortGaps = if (lastEnd.forall(now - _ < MinGapMillis)) shortGaps + 1 else 0
    lastEnd = None
    collect()
    if (inFlight.isEmpty) cleaner.nextRound(now).foreach { round =>
      val acting = new Callable[Option[Vector[CleanRecord]]] {
        def call(): Option[Vector[CleanRecord]] = cleaner.act(round, () => proceed())
      }
      inFlight = Some(round -> worker.submit(acting))
    }
    if (inFlight.nonEmpty && shortGaps > StarvedAfter) {
      shortGaps = 0
      open()
    }
  }

  def triggerEnds(): Unit = {
    if (lastEnd.isEmpty) lastEnd = Some(System.currentTimeMillis())
    collect()
    open()
  }

  private def open(): Unit = lock.synchronized { between = true; lock.notifyAll() }

  /** Lets the round in flight finish, for up to [[CloseWaitMillis]] (a query stopped between triggers, as
    * `Trigger.AvailableNow` is at its end, still cleans what it planned), then stops it after its current
    * few files: its plan is the next run's first round.
    */
  def close(): Unit = {
    open()
    try inFlight.foreach { case (_, f) => f.get(CloseWaitMillis, TimeUnit.MILLISECONDS) }
    catch { case _: TimeoutException | _: ExecutionException | _: InterruptedException => () }
    lock.synchronized { stopping = true; lock.notifyAll() }
    worker.shutdown()
    if (!worker.awaitTermination(CloseWaitMillis, TimeUnit.MILLISECONDS))
      log.warn("spark-drill: cleanSource's round did not stop; its plan is finished at the next start")
    collect()
  }

  // The worker, before each few files: waits while a trigger runs; false once stopping.
  private def proceed(): Boolean = lock.synchronized {
    while (!between && !stopping) lock.wait()
    !stopping
  }

  // Records the round in flight once it is over.
  private def collect(): Unit = inFlight.foreach { case (round, f) =>
    if (f.isDone) {
      inFlight = None
      try
        f.get() match {
          case Some(done) => cleaner.record(round, done)
          case None => () // stopped: its plan stays
        }
      catch {
        case e: ExecutionException =>
          cleaner.abandon(round)
          log.warn(s"spark-drill: cleanSource's round ${round.number} failed; it is tried again", e.getCause)
        case NonFatal(e) =>
          cleaner.abandon(round)
          log.warn(
            s"spark-drill: cleanSource's round ${round.number} could not be recorded; it is tried again",
            e
          )
      }
    }
  }
}

private[sparkdrill] object CleaningBetweenTriggers {
  private val log = LoggerFactory.getLogger(classOf[CleaningBetweenTriggers])

  /** How long a stop waits for the round in flight: a thousand renames on an object store. */
  val CloseWaitMillis = 60000L

  /** A time between triggers shorter than this leaves a round no time worth the name. */
  val MinGapMillis = 1000L

  /** Short gaps in a row after which a trigger lets the round run beside it. */
  val StarvedAfter = 10
}
