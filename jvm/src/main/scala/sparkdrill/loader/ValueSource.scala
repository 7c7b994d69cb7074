package sparkdrill.loader

/** Where a writer's value goes: a position in its vector, and an epoch that changes whenever a new value
  * begins there (a new row, a new array element). Writers compare epochs to tell "written in this value"
  * from "left over from an earlier one", which is what lets a restarted row, or a member never written,
  * be filled with null (or zero) when its value ends.
  */
private[loader] abstract class ValueSource {
  def position: Int
  def epoch: Long
}

/** The row being written. */
private[loader] final class RowSource extends ValueSource {
  var row: Int = 0
  var epoch: Long = 0L
  def position: Int = row
}
