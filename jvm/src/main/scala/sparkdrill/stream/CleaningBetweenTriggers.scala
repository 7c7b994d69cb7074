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
  * micro-batch's progress): the round goes on, a few files at a time, as long as the few files it would take
  * next should be done before the next trigger starts (TriggerForecast). One round at a time, so a trigger
  * never finds two.
  *
  * Triggers back to back (a constant flow under Spark's default trigger, or micro-batches longer than their
  * interval) leave no time between them: a round that got no time during [[StarvedAfter]] triggers in a row
  * runs beside the next one, so that a busy landing zone is cleaned too, if more slowly.
  */
private[sparkdrill] final class CleaningBetweenTriggers(cleaner: SourceCleaner) extends AutoCloseable {
  import CleaningBetweenTriggers._

  private val lock = new Object
  // Guarded by lock: the worker reads them in proceed().
  private var between = false // no trigger is running
  private var beside = false // this trigger lets the round run beside it
  private var draining = false // a stop waits for the round: it goes on regardless
  private var stopping = false
  private val forecast = new TriggerForecast
  private var grants = 0L // few files the worker was let do, ever
  private var grantedAt: Option[Long] = None // when the worker was last let go on, in this round

  private val worker = Executors.newSingleThreadExecutor(new ThreadFactory {
    def newThread(r: Runnable): Thread = {
      val t = new Thread(r, "spark-drill-clean-source")
      t.setDaemon(true)
      t
    }
  })
  // Micro-batch thread only.
  private var inFlight: Option[(CleanerRound, Future[Option[Vector[CleanRecord]]])] = None
  private var grantsAtStart = 0L // grants when the last trigger started
  private var starved = 0 // triggers in a row that started while a round waited and got no time

  def triggerStarts(now: Long): Unit = {
    val waited = inFlight.nonEmpty
    lock.synchronized {
      between = false
      beside = false
      forecast.started(now)
      starved = if (waited && grants == grantsAtStart) starved + 1 else 0
      grantsAtStart = grants
    }
    collect()
    if (inFlight.isEmpty) cleaner.nextRound(now).foreach { round =>
      val acting = new Callable[Option[Vector[CleanRecord]]] {
        def call(): Option[Vector[CleanRecord]] = {
          lock.synchronized { grantedAt = None }
          cleaner.act(round, () => proceed())
        }
      }
      inFlight = Some(round -> worker.submit(acting))
    }
    if (inFlight.nonEmpty && starved >= StarvedAfter) lock.synchronized {
      starved = 0
      beside = true
      lock.notifyAll()
    }
  }

  def triggerEnds(): Unit = {
    lock.synchronized {
      between = true
      beside = false
      forecast.ended(System.currentTimeMillis())
      lock.notifyAll()
    }
    collect()
  }

  /** Lets the round in flight finish, for up to [[CloseWaitMillis]] (a query stopped between triggers, as
    * `Trigger.AvailableNow` is at its end, still cleans what it planned), then stops it after its current
    * few files: its plan is the next run's first round.
    */
  def close(): Unit = {
    lock.synchronized { draining = true; lock.notifyAll() }
    try inFlight.foreach { case (_, f) => f.get(CloseWaitMillis, TimeUnit.MILLISECONDS) }
    catch { case _: TimeoutException | _: ExecutionException | _: InterruptedException => () }
    lock.synchronized { stopping = true; lock.notifyAll() }
    worker.shutdown()
    if (!worker.awaitTermination(CloseWaitMillis, TimeUnit.MILLISECONDS))
      log.warn("spark-drill: cleanSource's round did not stop; its plan is finished at the next start")
    collect()
  }

  // The worker, before each few files: waits while a trigger runs, or while the next should start before the
  // few files would be done; false once stopping. The time since it was last let go on is what the last few
  // took.
  private def proceed(): Boolean = lock.synchronized {
    grantedAt.foreach(t => forecast.chunkTook(System.currentTimeMillis() - t))
    while (!stopping && !draining && !beside && !(between && forecast.fits(System.currentTimeMillis())))
      lock.wait(RecheckMillis)
    grants += 1
    grantedAt = Some(System.currentTimeMillis())
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

  /** Triggers in a row in which a round got no time, after which the next lets it run beside it. */
  val StarvedAfter = 10

  // A waiting worker looks at the forecast again this often (a forecast start that does not come goes stale).
  private val RecheckMillis = 100L
}
