package sparkdrill.formats.json

import org.scalatest.funsuite.AnyFunSuite

/** When the JSON reader reads records twice for a row filter (JsonPrefilter): while the filter keeps few. */
class SelectivitySuite extends AnyFunSuite {
  private def judge(s: Selectivity, records: Int, keptEvery: Int): Unit =
    (1 to records).foreach(i => s.judged(i % keptEvery == 0))

  test("selective at first, and until a whole window says otherwise") {
    val s = new Selectivity(window = 10, mostKept = 0.4)
    assert(s.selective)
    judge(s, 9, keptEvery = 1) // nine records all passed: the window is not over
    assert(s.selective)
    s.judged(passed = true)
    assert(!s.selective)
  }

  test("a window at the share itself stays selective; one record more is not") {
    val s = new Selectivity(window = 10, mostKept = 0.4)
    (1 to 10).foreach(i => s.judged(i <= 4))
    assert(s.selective)
    (1 to 10).foreach(i => s.judged(i <= 5))
    assert(!s.selective)
  }

  test("comes back when the filter turns selective, each window judged on its own") {
    val s = new Selectivity(window = 100, mostKept = 0.4)
    judge(s, 100, keptEvery = 1)
    assert(!s.selective)
    judge(s, 100, keptEvery = 100) // one record in a hundred
    assert(s.selective)
    judge(s, 250, keptEvery = 2) // half: two whole windows, and half a third
    assert(!s.selective)
  }
}
