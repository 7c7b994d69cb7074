package sparkdrill.stream

import org.scalatest.funsuite.AnyFunSuite

/** The forecast of the next trigger that keeps cleaning's few files out of the triggers' way. */
class TriggerForecastSuite extends AnyFunSuite {

  // A processing-time trigger of 10 s whose micro-batches took `took` ms each, then a few files of `chunk` ms.
  private def every10s(took: Long*)(chunk: Long): TriggerForecast = {
    val f = new TriggerForecast
    f.started(-10000L); f.ended(-9000L) // the query's first trigger, at its start
    took.zipWithIndex.foreach { case (t, i) => f.started(i * 10000L); f.ended(i * 10000L + t) }
    f.chunkTook(chunk)
    f
  }

  test("no forecast before two starts: nothing fits") {
    val f = new TriggerForecast
    assert(!f.fits(0L))
    f.started(0L)
    f.ended(2000L)
    f.chunkTook(50L)
    assert(f.nextStart.isEmpty && !f.fits(9000L) && !f.fits(60000L))
  }

  test("the query's first start is not on the interval's time: the interval is learnt from the next ones") {
    val f = new TriggerForecast
    f.started(2000L); f.ended(4000L) // the query starts at 2 s; Spark's first trigger is at once
    f.started(10000L); f.ended(12000L)
    f.chunkTook(100L)
    assert(f.nextStart.contains(18000L)) // 8 s: all it knows so far, too soon, so it errs on the safe side
    assert(!f.fits(19000L) && !f.fits(25000L)) // and the start at 20 s is not taken for a stale forecast
    f.started(20000L); f.ended(22000L)
    assert(f.nextStart.contains(30000L))
  }

  test("the next start is one interval after the last; a few files start only if they end before it") {
    val f = every10s(8000L, 7000L, 9000L)(chunk = 500L)
    assert(f.nextStart.contains(30000L))
    assert(f.fits(29000L)) // done at 29.5 s
    assert(!f.fits(29500L)) // would end as the trigger starts
    assert(!f.fits(29800L))
  }

  test("a micro-batch past its interval: the next starts at once, so nothing starts after it") {
    val f = every10s(8000L, 13000L)(chunk = 200L) // the second ran to 23 s; Spark starts the third at once
    assert(f.nextStart.contains(23000L))
    assert(!f.fits(23000L) && !f.fits(23100L))
  }

  test("after a micro-batch past its interval, the next but one is on the interval's time again") {
    val f = new TriggerForecast
    f.started(-7000L); f.ended(-6000L) // the query's first trigger
    f.started(0L); f.ended(8000L)
    f.started(10000L); f.ended(23000L) // 13 s
    f.started(23000L) // at once
    f.ended(27000L)
    assert(f.nextStart.contains(30000L)) // not 33 s
    f.started(30000L); f.ended(38000L)
    assert(f.nextStart.contains(40000L)) // the interval is 10 s, not the 7 s from 23 s to 30 s
  }

  test("a few files' time is the longest of the last Window; older ones are forgotten") {
    val f = new TriggerForecast
    f.chunkTook(3000L)
    (1 to TriggerForecast.Window - 1).foreach(_ => f.chunkTook(100L))
    assert(f.chunkMillis == 3000L)
    f.chunkTook(100L)
    assert(f.chunkMillis == 100L)
  }

  test("a forecast start that does not come goes stale: cleaning goes on") {
    val f = every10s(1000L, 1000L)(chunk = 500L)
    assert(!f.fits(19800L))
    (12000L to 22000L by 1000L).foreach(f.ended) // progress asked for again and again: the end stays 11 s
    assert(f.nextStart.contains(20000L))
    assert(!f.fits(20000L + 10000L)) // stale after the longer of StaleMillis and the interval
    assert(f.fits(20001L + 10000L))
  }

  test("triggers every few ms (the default trigger, idle): a few files longer than that never fit") {
    val f = new TriggerForecast
    (0 until 20).foreach { i => f.started(i * 11L); f.ended(i * 11L + 1) }
    f.chunkTook(20L)
    assert(!f.fits(210L) && !f.fits(215L))
  }
}
