package sparkdrill.formats.json

import java.time.ZoneId

import scala.collection.mutable.ArrayBuffer

import com.fasterxml.jackson.core.JsonParser

import sparkdrill.reader.BoundRowFilter

/** Late materialization for JSON (issue 15). A record's members come in any order, so its filter columns
  * cannot be converted first within one read: the reader reads the record once for them alone, skipping
  * every other value unconverted (Jackson still checks its syntax), and reads it again whole, from its
  * bytes, only when it may pass. For a filter that keeps 1 % of the records that halves the time of reading
  * every column (bench Q6).
  *
  * When most records pass, the second read costs more than the first saves (a record is tokenized twice), so
  * the reader asks [[active]] per record and reports each outcome ([[judged]]), and reads twice only while
  * the filter is [[Selectivity selective]].
  *
  * @param zone the session's time zone, for timestamp filter columns
  */
private[json] final class JsonPrefilter(filter: BoundRowFilter, zone: ZoneId) {
  // A writer of its own: every member outside the filter's columns is unknown to `filter.only`, and a
  // JsonValueWriter only skips unknown members unless told otherwise.
  private val values = new JsonValueWriter(zone, JsonParsers.factory)

  /** The conversion errors in the filter's columns of the record read last by [[mayPass]]. */
  val errors = ArrayBuffer.empty[JsonConversionError]
  values.onError = (w, e) => {
    errors += e
    w.setNull()
  }

  private val selectivity = new Selectivity(JsonPrefilter.Window, JsonPrefilter.MostKept)

  /** Whether the next record is read for the filter first. */
  def active: Boolean = selectivity.selective

  /** Reads the object whose START_OBJECT `parser` is on to its end, writing the filter's columns only, and
    * tells whether the record may pass. It may still fail once read whole (a NOT NULL column's fill, say).
    */
  def mayPass(parser: JsonParser): Boolean = {
    errors.clear()
    filter.reset()
    values.writeRecord(filter.only, parser)
    filter.passes()
  }

  /** A record the filter judged, read once or twice: whether it passed. */
  def judged(passed: Boolean): Unit = selectivity.judged(passed)
}

/** Whether a filter keeps few enough records, judged anew over each window of `window` records: selective
  * at first, then after each window while at most `mostKept` (a share) of its records passed. Records read
  * either way are judged, so it turns selective again when the data does.
  */
private[json] final class Selectivity(window: Int, mostKept: Double) {
  var selective = true
  private var seen = 0
  private var kept = 0

  def judged(passed: Boolean): Unit = {
    seen += 1
    if (passed) kept += 1
    if (seen == window) {
      selective = kept <= window * mostKept
      seen = 0
      kept = 0
    }
  }
}

private object JsonPrefilter {
  val Window = 1024

  /** The share of passing records up to which reading twice pays: the first read costs about a tokenizing
    * (`count(*)`), the second a whole read of the record, which converting every column about doubles.
    */
  val MostKept = 0.4
}
