package sparkdrill.formats.json

import java.nio.charset.StandardCharsets

import org.apache.spark.unsafe.Platform

import sparkdrill.loader.ColumnWriter
import sparkdrill.reader.ByteRanges

/** The member names of one row or struct writer as the byte reader meets them: each name's raw bytes (no
  * escape, well-formed UTF-8, as [[JsonCursor.string]] checked them), what to do with its value, and its
  * writer. Records of a file mostly repeat one order, so the reader first compares the next name in place
  * with the name after the member just read ([[matches]]); any other name is found by hash. Past
  * `MaxMembers` names (an object used as a map of many keys) [[slotOf]] gives -1 and the record is left to
  * Jackson.
  *
  * @param actionOf what a new name's value gets, and its writer (null unless written)
  */
private final class ByteMembers(actionOf: String => (Int, ColumnWriter)) {
  var keys = new Array[Array[Byte]](8)
  var lengths = new Array[Int](8) // of the keys
  var actions = new Array[Int](8)
  var writers = new Array[ColumnWriter](8)
  var codes = new Array[Int](8) // the writer's column type (ByteRecordWriter.codeOf)
  var size = 0
  private var table = new Array[Int](32) // slot + 1 by hash, open addressing; 0 is empty

  // A name of up to 15 bytes with its closing quote, as two little-endian words and the masks of its bytes:
  // compared in two loads, not a byte at a time.
  private var low = new Array[Long](8)
  private var high = new Array[Long](8)
  private var lowMask = new Array[Long](8)
  private var highMask = new Array[Long](8)

  /** Whether the name at `buf(from)`, closed by a quote, is the name of `slot`. */
  def matches(slot: Int, buf: Array[Byte], from: Int, limit: Int): Boolean =
    if (lowMask(slot) != 0 && from + 16 <= limit) {
      val at = Platform.BYTE_ARRAY_OFFSET + from.toLong
      (Platform.getLong(buf, at) & lowMask(slot)) == low(slot) &&
      (Platform.getLong(buf, at + 8) & highMask(slot)) == high(slot)
    } else {
      val key = keys(slot)
      val n = key.length
      if (from + n >= limit || buf(from + n) != '"') return false
      var i = 0
      while (i < n && buf(from + i) == key(i)) i += 1
      i == n
    }

  /** The slot of the name `buf(from until from + length)`, added when new; -1 when the table is full. */
  def slotOf(buf: Array[Byte], from: Int, length: Int): Int = {
    val mask = table.length - 1
    var h = hash(buf, from, length) & mask
    while (table(h) != 0) {
      val slot = table(h) - 1
      if (ByteRanges.equal(keys(slot), 0, keys(slot).length, buf, from, from + length)) return slot
      h = (h + 1) & mask
    }
    if (size >= ByteMembers.MaxMembers) -1
    else add(java.util.Arrays.copyOfRange(buf, from, from + length), h)
  }

  private def add(key: Array[Byte], at: Int): Int = {
    if (size == keys.length) {
      keys = java.util.Arrays.copyOf(keys, size * 2)
      lengths = java.util.Arrays.copyOf(lengths, size * 2)
      actions = java.util.Arrays.copyOf(actions, size * 2)
      writers = java.util.Arrays.copyOf(writers, size * 2)
      codes = java.util.Arrays.copyOf(codes, size * 2)
      low = java.util.Arrays.copyOf(low, size * 2)
      high = java.util.Arrays.copyOf(high, size * 2)
      lowMask = java.util.Arrays.copyOf(lowMask, size * 2)
      highMask = java.util.Arrays.copyOf(highMask, size * 2)
    }
    if (key.length < 16 && ByteMembers.LittleEndian) {
      val quoted = java.util.Arrays.copyOf(key, 16)
      quoted(key.length) = '"'
      val n = key.length + 1
      low(size) = Platform.getLong(quoted, Platform.BYTE_ARRAY_OFFSET.toLong)
      high(size) = Platform.getLong(quoted, Platform.BYTE_ARRAY_OFFSET + 8L)
      lowMask(size) = if (n >= 8) -1L else (1L << (8 * n)) - 1
      highMask(size) = if (n <= 8) 0L else if (n == 16) -1L else (1L << (8 * (n - 8))) - 1
    }
    val (action, writer) = actionOf(new String(key, StandardCharsets.UTF_8))
    keys(size) = key
    lengths(size) = key.length
    actions(size) = action
    writers(size) = writer
    codes(size) = if (writer == null) ByteRecordWriter.AsOther else ByteRecordWriter.codeOf(writer.dataType)
    table(at) = size + 1
    size += 1
    if (size * 2 > table.length) rehash()
    size - 1
  }

  private def rehash(): Unit = {
    table = new Array[Int](table.length * 2)
    val mask = table.length - 1
    var slot = 0
    while (slot < size) {
      var h = hash(keys(slot), 0, keys(slot).length) & mask
      while (table(h) != 0) h = (h + 1) & mask
      table(h) = slot + 1
      slot += 1
    }
  }

  private def hash(buf: Array[Byte], from: Int, length: Int): Int = {
    var h = length
    var i = from
    while (i < from + length) {
      h = 31 * h + buf(i)
      i += 1
    }
    h ^ (h >>> 16)
  }
}

private object ByteMembers {
  val MaxMembers: Int = MemberOrder.MaxMembers
  private val LittleEndian = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN

  /** What a member's value gets: written into its column; skipped (no column, or a key of the table this read
    * leaves out); skipped and counted as dropped (a key no file had); or left to Jackson (a key kept in the
    * rescued-data column, which Jackson's tree writes).
    */
  val Write = 0
  val Skip = 1
  val Drop = 2
  val Rescue = 3
}
