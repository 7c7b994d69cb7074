package sparkdrill.stream

import scala.collection.mutable

/** When the next trigger should start, and whether a few files' cleaning ends before it (CleaningBetweenTriggers
  * asks before each few). A source is not told the query's trigger, so the forecast learns it from when Spark
  * asks for offsets. Under a processing-time trigger of interval I, Spark asks at once when the query
  * starts, then at each multiple of I (with data or without), except after a micro-batch longer than I, when
  * it asks again at once; the one after that is at the next multiple again. So:
  *  - I is the shortest time from a start on time (not the query's first, not at once after the trigger
  *    before) to the next start; before two such starts, the shortest time between any two;
  *  - the next start is the first multiple of I, counted from the last start on time, after the last start,
  *    or the last end, if that is later (a micro-batch ran past it: Spark starts the next at once).
  * Under the default trigger every start comes at once, and I is the shortest time between any two.
  *
  * A few files' time is the longest of the last [[Window]]: an object store's requests slow down and speed
  * up with its load, and a few files that run into a trigger slow that trigger's own requests.
  *
  * Before the second start there is no forecast, and nothing fits (a round waits one trigger). A start that
  * did not come within [[StaleMillis]] or I, whichever is longer, of its forecast (a query stopped, or run by
  * hand) lets cleaning go on.
  */
private[stream] final class TriggerForecast {
  import TriggerForecast._

  private final case class Start(at: Long, onTime: Boolean)

  private val starts = mutable.Queue.empty[Start] // the last Window + 1, oldest first
  private var lastEnd: Option[Long] = None
  private var endedSinceStart = false
  private val chunks = mutable.Queue.empty[Long] // the last Window few files' times, in ms

  def started(now: Long): Unit = {
    starts.enqueue(Start(now, onTime = lastEnd.exists(now - _ > AtOnceMillis)))
    while (starts.size > Window + 1) starts.dequeue()
    endedSinceStart = false
  }

  /** The trigger is over. Only its first end counts: Spark may report progress again before the next. */
  def ended(now: Long): Unit = if (!endedSinceStart) {
    lastEnd = Some(now)
    endedSinceStart = true
  }

  def chunkTook(millis: Long): Unit = {
    chunks.enqueue(math.max(0L, millis))
    while (chunks.size > Window) chunks.dequeue()
  }

  /** When the next trigger should start; None before two starts. */
  def nextStart: Option[Long] = forecast.map(_._1)

  // The next start and the interval.
  private def forecast: Option[(Long, Long)] =
    if (starts.size < 2) None
    else {
      val pairs = starts.iterator.zip(starts.iterator.drop(1)).toSeq
      val fromOnTime = pairs.collect { case (a, b) if a.onTime => b.at - a.at }
      val interval =
        math.max(1L, (if (fromOnTime.nonEmpty) fromOnTime else pairs.map(p => p._2.at - p._1.at)).min)
      val anchor = starts.reverseIterator.find(_.onTime).getOrElse(starts.last).at
      val last = starts.last.at
      val onTime = anchor + interval * ((last - anchor) / interval + 1)
      Some((lastEnd.fold(onTime)(math.max(onTime, _)), interval))
    }

  /** Whether a few files begun `now` should be done before the next trigger starts. */
  def fits(now: Long): Boolean = forecast match {
    case None => false
    case Some((next, interval)) => now > next + math.max(StaleMillis, interval) || next - now > chunkMillis
  }

  /** How long a few files take, as far as the last few say (0 before any). */
  def chunkMillis: Long = if (chunks.isEmpty) 0L else chunks.max
}

private[stream] object TriggerForecast {

  /** Starts (and few files' times) the forecast looks back on. */
  val Window = 8

  /** A start this soon after the last trigger's end came at once, not on an interval's time. */
  val AtOnceMillis = 250L

  /** A forecast start this late (and at least an interval late) is no forecast any more. */
  val StaleMillis = 2000L
}
