package sparkdrill.stream.state

import java.nio.charset.StandardCharsets

import org.scalatest.funsuite.AnyFunSuite

class PathIndexSuite extends AnyFunSuite {

  test("Murmur3 x64_128 gives the reference implementation's halves (vectors from Guava's murmur3_128)") {
    val vectors = Seq(
      "" -> (0L, 0L),
      "a" -> (0x85555565f6597889L, 0xe6b53a48510e895aL),
      "hello" -> (0xcbd8a7b341bd9b02L, 0x5b1e906a48ae1d19L),
      "2026/11/27/events-000123.csv" -> (0xfc978fc9ef7c069aL, 0xfddc88df2c7abefdL),
      "0123456789abcdef" -> (0x4be06d94cf4ad1a7L, 0x87c35b5c63a708daL),
      "0123456789abcdefg" -> (0x8e32612daa45f9deL, 0x0800f4c206c372eeL),
      "ünïcødé/päth/ファイル.json" -> (0x2ad1d37d9bc1499dL, 0xcdd997bed94b458aL)
    )
    val out = new Array[Long](2)
    vectors.foreach { case (s, (h1, h2)) =>
      // Hashed at an offset inside a larger array, as the restart hashes a decoder's buffer.
      val bytes = s.getBytes(StandardCharsets.UTF_8)
      val padded = Array[Byte](9, 9, 9) ++ bytes ++ Array[Byte](7)
      Murmur3.hash128(padded, 3, bytes.length, out)
      assert((out(0), out(1)) == ((h1, h2)), s)
    }
  }

  test("added paths are found, others not, across many doublings") {
    val index = new PathIndex()
    val n = 50000
    (0 until n).foreach(i => index.put(s"dir/$i.csv", i.toLong))
    assert(index.size == n)
    assert((0 until n).forall(i => index.contains(s"dir/$i.csv")))
    assert(!(0 until n).exists(i => index.contains(s"dir/$i.json")))
    // Adding again updates, never duplicates.
    (0 until n).foreach(i => index.put(s"dir/$i.csv", -i.toLong))
    assert(index.size == n)
  }

  test("entries that share their first hash long are kept apart by the second") {
    val index = new PathIndex()
    val shared = 0x1234567890abcdefL
    (1 to 2000).foreach(i => index.putHash(shared, i.toLong, i.toLong))
    (1 to 2000).foreach(i => index.putHash(i.toLong << 20, shared, 0L))
    assert(index.size == 4000)
    assert((1 to 2000).forall(i => index.containsHash(shared, i.toLong)))
    assert(!index.containsHash(shared, 2001L))
    assert(!index.containsHash(shared + 1, 1L))
    // (0, 0) marks an empty slot: such a hash is stored as (0, 1) and still found.
    index.putHash(0L, 0L, 5L)
    assert(index.containsHash(0L, 0L) && index.size == 4001)
  }

  test(
    "restamp: Changed once for a new stamp, Same for the same, Absent for an unknown path"
  ) {
    val index = new PathIndex()
    index.put("a.csv", PathIndex.stamp(10, 1000))
    assert(index.restamp("a.csv", PathIndex.stamp(10, 1000)) == PathIndex.Same)
    assert(index.restamp("a.csv", PathIndex.stamp(11, 1000)) == PathIndex.Changed)
    assert(index.restamp("a.csv", PathIndex.stamp(11, 1000)) == PathIndex.Same)
    assert(index.restamp("a.csv", PathIndex.stamp(11, 1001)) == PathIndex.Changed)
    assert(index.restamp("b.csv", PathIndex.stamp(11, 1001)) == PathIndex.Absent)
    assert(!index.contains("b.csv"))
    // length and time are not interchangeable in the stamp
    assert(PathIndex.stamp(1, 2) != PathIndex.stamp(2, 1))
  }

  test("heap per tracked file stays at or under 64 bytes, at 100,000 files and at every size on the way") {
    val index = new PathIndex()
    var worst = 0.0
    (0 until 100000).foreach { i =>
      index.put(f"2026/11/27/events-$i%06d.csv", i.toLong)
      if (i >= 1000) worst = math.max(worst, index.heapBytes.toDouble / index.size)
    }
    val perFile = index.heapBytes.toDouble / index.size
    info(
      f"heap: ${index.heapBytes} bytes for ${index.size} files = $perFile%.1f bytes/file (worst $worst%.1f)"
    )
    assert(perFile <= 64.0)
    assert(worst <= 64.0)
  }
}
