package sparkdrill.reader

/** Spark 3.5 (Java 8 bytecode): `Arrays.equals` over ranges is Java 9+, so the ranges are compared here. */
private[sparkdrill] object ByteRanges {
  def equal(a: Array[Byte], aFrom: Int, aTo: Int, b: Array[Byte], bFrom: Int, bTo: Int): Boolean = {
    val n = aTo - aFrom
    if (n != bTo - bFrom) return false
    var i = 0
    while (i < n && a(aFrom + i) == b(bFrom + i)) i += 1
    i == n
  }
}
