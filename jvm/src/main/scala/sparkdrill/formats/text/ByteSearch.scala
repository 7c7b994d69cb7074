package sparkdrill.formats.text

import java.nio.ByteOrder

import org.apache.spark.unsafe.Platform

/** Finds the first of a few bytes in a byte array eight bytes at a time (SWAR: "SIMD within a register"),
  * for the scans that look at most bytes only to pass them by, like counting records.
  *
  * A word has a byte equal to `b` where `w ^ broadcast(b)` has a zero byte, and `(v - 0x01..) & ~v & 0x80..`
  * sets the high bit of the lowest zero byte exactly (higher bytes may be marked falsely by a borrow, so
  * only the lowest mark is used).
  */
private[text] object ByteSearch {
  private val Ones = 0x0101010101010101L
  private val Highs = 0x8080808080808080L
  private val LittleEndian = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN

  /** The byte in every byte of a word; a negative byte (none) as the first of the others. */
  def broadcast(b: Int): Long = (b & 0xff).toLong * Ones

  /** Index of the first byte in `[from, to)` equal to one of the broadcast bytes `a`, `b`, `c`; `to` if none.
    * For bytes below 0x80 (ASCII delimiters, quotes and line ends) the three tests share their last steps:
    * `(v - 0x01..)` marks a zero byte of `v` (and borrows only upward), and `~w` drops the bytes of `w` at 0x80
    * and above, which no ASCII byte equals.
    */
  def indexOfAny(buf: Array[Byte], from: Int, to: Int, a: Long, b: Long, c: Long): Int = {
    var i = from
    if (ascii(a) && ascii(b) && ascii(c))
      while (i + 8 <= to) {
        val raw = Platform.getLong(buf, Platform.BYTE_ARRAY_OFFSET + i.toLong)
        val w = if (LittleEndian) raw else java.lang.Long.reverseBytes(raw)
        val marks = (((w ^ a) - Ones) | ((w ^ b) - Ones) | ((w ^ c) - Ones)) & ~w & Highs
        if (marks != 0) return i + (java.lang.Long.numberOfTrailingZeros(marks) >>> 3)
        i += 8
      }
    else
      while (i + 8 <= to) {
        val raw = Platform.getLong(buf, Platform.BYTE_ARRAY_OFFSET + i.toLong)
        val w = if (LittleEndian) raw else java.lang.Long.reverseBytes(raw)
        val marks = zeroBytes(w ^ a) | zeroBytes(w ^ b) | zeroBytes(w ^ c)
        if (marks != 0) return i + (java.lang.Long.numberOfTrailingZeros(marks) >>> 3)
        i += 8
      }
    val x = a.toByte
    val y = b.toByte
    val z = c.toByte
    while (i < to) {
      val v = buf(i)
      if (v == x || v == y || v == z) return i
      i += 1
    }
    to
  }

  @inline private def zeroBytes(v: Long): Long = (v - Ones) & ~v & Highs

  @inline private def ascii(broadcast: Long): Boolean = (broadcast & Highs) == 0
}
