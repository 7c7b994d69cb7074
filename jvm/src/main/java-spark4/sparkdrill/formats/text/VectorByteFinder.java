package sparkdrill.formats.text;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The first of three bytes found a whole vector at a time with the Java Vector API (issue 41): 64 bytes per
 * step where the CPU has 512-bit vectors, 32 with 256-bit ones, against 8 for the word-at-a-time search
 * ({@code ByteSearch}). Three compares, their OR, and the first set lane: the compares and {@code firstTrue}
 * are intrinsics on Java 17 (a mask's {@code toLong}, which a prefix-XOR quote mask needs, runs lane by lane
 * there, measured at a fifth of the word search's speed; docs/performance.md).
 *
 * <p>Loaded by name when the module is present ({@link VectorScan}); the word search is the fallback and the
 * reference in the property tests.
 */
final class VectorByteFinder implements ByteFinder {
  private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;
  private static final int LANES = SPECIES.length();

  /** Whether this JVM's vectors make it worth it: 16 bytes or wider. */
  static boolean usable() {
    return LANES >= 16;
  }

  @Override
  public int indexOfAny(byte[] buf, int from, int to, byte a, byte b, byte c) {
    int i = from;
    for (int last = to - LANES; i <= last; i += LANES) {
      ByteVector v = ByteVector.fromArray(SPECIES, buf, i);
      VectorMask<Byte> found = v.eq(a).or(v.eq(b)).or(v.eq(c));
      int first = found.firstTrue();
      if (first < LANES) return i + first;
    }
    for (; i < to; i++) {
      byte x = buf[i];
      if (x == a || x == b || x == c) return i;
    }
    return to;
  }
}
