package sparkdrill.formats.text;

/**
 * Finds the first of three bytes in a range of a byte array: the search under CSV's count(*) scan
 * ({@link WordScan#recordEnd}), where most bytes are looked at only to be passed by.
 *
 * <p>A Java interface, not a Scala trait, because its vector implementation is Java compiled before the Scala
 * sources (Scala's compiler is never shown the incubator module that implementation imports).
 */
interface ByteFinder {
  /** Index of the first byte in {@code [from, to)} equal to {@code a}, {@code b} or {@code c}; {@code to} if none. */
  int indexOfAny(byte[] buf, int from, int to, byte a, byte b, byte c);
}
