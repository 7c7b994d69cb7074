package sparkdrill.stream.state

/** MurmurHash3 x64_128 (Austin Appleby's public-domain design), seed 0, over a byte range: the two 64-bit
  * halves of a path's identity in PathIndex. 128 bits so that a collision between two of a stream's paths
  * (which would make the source skip a file forever) is out of reach: about 2^-88 at 10^12 files.
  * Little-endian blocks, as the reference implementation reads them, so the halves equal other ports'.
  */
private[sparkdrill] object Murmur3 {
  private final val C1 = 0x87c37b91114253d5L
  private final val C2 = 0x4cf5ad432745937fL

  /** Hashes `bytes(offset until offset + length)` into `out(0)` (h1) and `out(1)` (h2): no allocation, since
    * the restart hashes every tracked path.
    */
  def hash128(bytes: Array[Byte], offset: Int, length: Int, out: Array[Long]): Unit = {
    var h1 = 0L
    var h2 = 0L
    val blocks = length >>> 4
    var i = 0
    while (i < blocks) {
      val at = offset + (i << 4)
      var k1 = littleEndianLong(bytes, at)
      var k2 = littleEndianLong(bytes, at + 8)
      k1 *= C1; k1 = java.lang.Long.rotateLeft(k1, 31); k1 *= C2; h1 ^= k1
      h1 = java.lang.Long.rotateLeft(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729
      k2 *= C2; k2 = java.lang.Long.rotateLeft(k2, 33); k2 *= C1; h2 ^= k2
      h2 = java.lang.Long.rotateLeft(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5
      i += 1
    }
    // The 0 to 15 bytes left: bytes 8..14 feed k2, bytes 0..7 feed k1.
    val tail = offset + (blocks << 4)
    val rest = length & 15
    if (rest > 8) {
      var k2 = 0L
      var j = rest - 1
      while (j >= 8) { k2 ^= (bytes(tail + j) & 0xffL) << ((j - 8) * 8); j -= 1 }
      k2 *= C2; k2 = java.lang.Long.rotateLeft(k2, 33); k2 *= C1; h2 ^= k2
    }
    if (rest > 0) {
      var k1 = 0L
      var j = math.min(rest, 8) - 1
      while (j >= 0) { k1 ^= (bytes(tail + j) & 0xffL) << (j * 8); j -= 1 }
      k1 *= C1; k1 = java.lang.Long.rotateLeft(k1, 31); k1 *= C2; h1 ^= k1
    }
    h1 ^= length
    h2 ^= length
    h1 += h2
    h2 += h1
    h1 = mix(h1)
    h2 = mix(h2)
    h1 += h2
    h2 += h1
    out(0) = h1
    out(1) = h2
  }

  /** The finalizer (fmix64): every input bit flips each output bit with probability about 1/2. */
  def mix(value: Long): Long = {
    var k = value
    k ^= k >>> 33
    k *= 0xff51afd7ed558ccdL
    k ^= k >>> 33
    k *= 0xc4ceb9fe1a85ec53L
    k ^= k >>> 33
    k
  }

  private def littleEndianLong(b: Array[Byte], at: Int): Long =
    (b(at) & 0xffL) | (b(at + 1) & 0xffL) << 8 | (b(at + 2) & 0xffL) << 16 | (b(at + 3) & 0xffL) << 24 |
      (b(at + 4) & 0xffL) << 32 | (b(at + 5) & 0xffL) << 40 | (b(at + 6) & 0xffL) << 48 |
      (b(at + 7) & 0xffL) << 56
}
