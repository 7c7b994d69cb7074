package sparkdrill.reader

/** Spark 4 (Java 17): Java's vectorized range compare. The Spark 3.5 jar targets Java 8, which has none. */
private[sparkdrill] object ByteRanges {
  @inline def equal(a: Array[Byte], aFrom: Int, aTo: Int, b: Array[Byte], bFrom: Int, bTo: Int): Boolean =
    java.util.Arrays.equals(a, aFrom, aTo, b, bFrom, bTo)
}
