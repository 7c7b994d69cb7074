package sparkdrill.formats.json

/** Where in a record the value being written is, kept as the writer descends: member names, array indexes and
  * map values, spelled out (`device.screen.w`, `tags[2]`, `m{}`) only when asked.
  */
private final class ValuePath {
  private var names = new Array[String](8) // a member's name; null for an element
  private var indexes = new Array[Int](8) // an element's index, or MapValue
  private var depth = 0

  def clear(): Unit = depth = 0

  def member(name: String): Unit = {
    grow()
    names(depth) = name
    depth += 1
  }

  def element(index: Int): Unit = {
    grow()
    names(depth) = null
    indexes(depth) = index
    depth += 1
  }

  def leave(): Unit = depth -= 1

  private def grow(): Unit = if (depth == names.length) {
    names = java.util.Arrays.copyOf(names, depth * 2)
    indexes = java.util.Arrays.copyOf(indexes, depth * 2)
  }

  override def toString: String = {
    val b = new StringBuilder
    var d = 0
    while (d < depth) {
      if (names(d) != null) {
        if (d > 0) b.append('.')
        b.append(names(d))
      } else if (indexes(d) == ValuePath.MapValue) b.append("{}")
      else b.append('[').append(indexes(d)).append(']')
      d += 1
    }
    b.toString
  }
}

private object ValuePath {
  val MapValue: Int = -1
}
