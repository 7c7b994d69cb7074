package sparkdrill.formats.json

import com.fasterxml.jackson.core.io.SerializedString

import sparkdrill.loader.ColumnWriter

/** The member names of a row or struct writer in the order first seen, with their writers (null: no
  * column) and whether a member without one is only skipped, for [[JsonValueWriter]] to match an object's
  * members in place. Past `MaxMembers` (an object used as a map of many keys) new names are looked up each
  * time, not remembered.
  */
private final class MemberOrder(writerOf: String => ColumnWriter, skipped: String => Boolean) {
  var keys = new Array[String](8)
  var names = new Array[SerializedString](8)
  var writers = new Array[ColumnWriter](8)
  var skips = new Array[Boolean](8)
  var size = 0
  private val slots = new java.util.HashMap[String, Integer]()

  /** The slot of a member name, added when new; -1 when the order is full, or for a name with a lone
    * surrogate (its record is malformed, JsonText), which Jackson could not encode to match in place.
    */
  def slotOf(key: String): Int = {
    val known = slots.get(key)
    if (known != null) known
    else if (size >= MemberOrder.MaxMembers || !MemberOrder.wellFormed(key)) -1
    else {
      if (size == keys.length) {
        keys = java.util.Arrays.copyOf(keys, size * 2)
        names = java.util.Arrays.copyOf(names, size * 2)
        writers = java.util.Arrays.copyOf(writers, size * 2)
        skips = java.util.Arrays.copyOf(skips, size * 2)
      }
      keys(size) = key
      names(size) = new SerializedString(key)
      writers(size) = writerOf(key)
      skips(size) = writers(size) == null && skipped(key)
      slots.put(key, size)
      size += 1
      size - 1
    }
  }
}

private object MemberOrder {
  val MaxMembers = 1024

  /** Whether every surrogate in `s` is half of a pair. */
  def wellFormed(s: String): Boolean = {
    var i = 0
    while (i < s.length) {
      val c = s.charAt(i)
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= s.length || !Character.isLowSurrogate(s.charAt(i + 1))) return false
        i += 2
      } else if (Character.isLowSurrogate(c)) return false
      else i += 1
    }
    true
  }
}
