package sparkdrill.formats.text

import java.io.InputStream

/** Where a split's first record is taken to start: right after the first line end at or after byte
  * `offset - 1` (so a split that starts exactly on a line start keeps that line). The reader of the split
  * before checks that this guess is a true record boundary (see [[CsvRecords]]).
  */
private[sparkdrill] object SplitBoundary {

  /** The guessed record start for a split starting at `offset` (> 0), reading `in` positioned at `offset - 1`;
    * the file length when no line end follows.
    */
  def recordStart(in: InputStream, offset: Long, settings: CsvSettings): Long = {
    val buf = new Array[Byte](8192)
    var position = offset - 1 // file offset of the next byte of `in`
    var pendingCr = false // auto mode: a '\r' was the last byte; a '\n' may follow
    var pendingFirst = false // a two-byte delimiter's first byte was the last byte
    val auto = settings.autoLineEnd
    val first = if (auto) '\n'.toInt else settings.lineDelimiter(0) & 0xff
    val second = if (auto || settings.lineDelimiter.length < 2) -1 else settings.lineDelimiter(1) & 0xff
    while (true) {
      val n = in.read(buf)
      if (n < 0) return position
      var i = 0
      while (i < n) {
        val b = buf(i) & 0xff
        if (pendingCr) return if (b == '\n') position + 1 else position
        if (pendingFirst) {
          if (b == second) return position + 1
          pendingFirst = false
        }
        if (auto && b == '\n') return position + 1
        if (auto && b == '\r') pendingCr = true
        else if (!auto && b == first) {
          if (second < 0) return position + 1
          pendingFirst = true
        }
        position += 1
        i += 1
      }
    }
    position
  }
}

/** Line numbers for a split that starts inside a file: the line ends before its first record. */
private[sparkdrill] object LineCounter {
  def lineEndsBefore(in: InputStream, upTo: Long, settings: CsvSettings): Long = {
    val buf = new Array[Byte](1 << 16)
    var position = 0L
    var count = 0L
    var lastCr = false
    val auto = settings.autoLineEnd
    val last = settings.lineDelimiter.lastOption.map(_ & 0xff).getOrElse('\n'.toInt)
    while (position < upTo) {
      val n = in.read(buf, 0, math.min(buf.length.toLong, upTo - position).toInt)
      if (n < 0) return count
      var i = 0
      while (i < n) {
        val b = buf(i) & 0xff
        if (auto) {
          if (b == '\n') { if (!lastCr) count += 1 }
          else if (b == '\r') count += 1
          lastCr = b == '\r'
        } else if (b == last) count += 1
        i += 1
      }
      position += n
    }
    count
  }
}
