// How fast a 64-byte block's compare masks become something a scan can use, on the JVM that runs it (issue 41,
// docs/performance.md "A vector search for count(*)"). Run as a single-file program, no build:
//
//   java --add-modules jdk.incubator.vector bench/vector/MaskBench.java bench/data/full/csv/2023/03/part-1.csv
//
// Each line times, over the file's bytes in memory, GB/s of:
//   toLong     three compares (quote, line feed, delimiter) as 64-bit masks by VectorMask.toLong, the bits a
//              prefix-XOR quote mask is made from
//   blendPack  one compare as a 64-bit mask without toLong: blend into per-lane bit weights, sum each 8 lanes
//              by a multiply, shift into place, OR across the long lanes
//   firstTrue  one compare's first set lane (what the vector search uses)
//   stops      the vector search itself: from each quote or line end found to the next, as count(*)'s scan
//              steps through a record
import java.nio.file.Files;
import java.nio.file.Paths;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

public class MaskBench {
  static final VectorSpecies<Byte> S = ByteVector.SPECIES_512;
  static final ByteVector NONE = ByteVector.zero(S);
  static final ByteVector WEIGHTS;
  static final LongVector SHIFTS = LongVector.fromArray(LongVector.SPECIES_512, new long[] {0, 8, 16, 24, 32, 40, 48, 56}, 0);

  static {
    byte[] w = new byte[64];
    for (int i = 0; i < 64; i++) w[i] = (byte) (1 << (i & 7));
    WEIGHTS = ByteVector.fromArray(S, w, 0);
  }

  static long toLong(byte[] d) {
    long acc = 0;
    for (int i = 0; i + 64 <= d.length; i += 64) {
      ByteVector v = ByteVector.fromArray(S, d, i);
      acc += Long.bitCount(v.eq((byte) '"').toLong() ^ v.eq((byte) '\n').toLong() ^ v.eq((byte) ',').toLong());
    }
    return acc;
  }

  static long blendPack(byte[] d) {
    long acc = 0;
    for (int i = 0; i + 64 <= d.length; i += 64) {
      ByteVector v = ByteVector.fromArray(S, d, i);
      acc += Long.bitCount(NONE.blend(WEIGHTS, v.eq((byte) '"')).reinterpretAsLongs().mul(0x0101010101010101L)
          .lanewise(VectorOperators.LSHR, 56).lanewise(VectorOperators.LSHL, SHIFTS).reduceLanes(VectorOperators.OR));
    }
    return acc;
  }

  static long firstTrue(byte[] d) {
    long acc = 0;
    for (int i = 0; i + 64 <= d.length; i += 64) acc += ByteVector.fromArray(S, d, i).eq((byte) '"').firstTrue();
    return acc;
  }

  static long stops(byte[] d) {
    long n = 0;
    int p = 0;
    while (p < d.length) {
      int i = p;
      int found = d.length;
      for (; i + 64 <= d.length; i += 64) {
        ByteVector v = ByteVector.fromArray(S, d, i);
        int f = v.eq((byte) '"').or(v.eq((byte) '\n')).or(v.eq((byte) '\r')).firstTrue();
        if (f < 64) { found = i + f; break; }
      }
      if (i + 64 > d.length) for (found = i; found < d.length && d[found] != '"' && d[found] != '\n'; found++);
      p = found + 1;
      n++;
    }
    return n;
  }

  interface Pass { long run(byte[] d); }

  public static void main(String[] args) throws Exception {
    byte[] data = Files.readAllBytes(Paths.get(args[0]));
    String[] names = {"toLong", "blendPack", "firstTrue", "stops"};
    Pass[] passes = {MaskBench::toLong, MaskBench::blendPack, MaskBench::firstTrue, MaskBench::stops};
    System.out.println(System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ", " + S);
    for (int round = 1; round <= 8; round++) {
      StringBuilder line = new StringBuilder("round " + round + ":");
      for (int k = 0; k < passes.length; k++) {
        long t0 = System.nanoTime();
        passes[k].run(data);
        double s = (System.nanoTime() - t0) / 1e9;
        line.append(String.format("  %s %.2f GB/s", names[k], data.length / s / 1e9));
      }
      System.out.println(line);
    }
  }
}
