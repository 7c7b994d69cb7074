package sparkdrill.stream.state

import sparkdrill.errors.DrillErrors

import java.nio.charset.StandardCharsets

/** The set of paths a stream has read, with a stamp of each one's (length, modificationTime), in one
  * primitive array: a HashMap[String, ...] costs some 150 bytes of heap per path on the driver, this at most
  * 64 (3 longs per slot, the table at least 3/8 full).
  *
  * Open addressing with linear probing over slots of three longs: the path's 128-bit hash (Murmur3) and the
  * stamp. A slot whose two hash longs are both 0 is empty, so a hash that comes out (0, 0) is stored as
  * (0, 1); no path is kept, so the hash is the identity (its collision odds are in Murmur3's header).
  * Single-threaded, like the source that owns it.
  */
private[sparkdrill] final class PathIndex(initialCapacity: Int = 16) {
  private var capacity: Int = PathIndex.powerOfTwoAtLeast(math.max(initialCapacity, 16))
  private var slots: Array[Long] = new Array[Long](3 * capacity)
  private var count: Int = 0
  private val scratch = new Array[Long](2)

  def size: Int = count

  /** The bytes of heap the table holds: its array (header included). */
  def heapBytes: Long = 16L + 8L * slots.length

  /** Adds a path (UTF-8 bytes in a range, so loading hashes without a String per path), or updates its
    * stamp when present.
    */
  def put(bytes: Array[Byte], offset: Int, length: Int, stamp: Long): Unit = {
    Murmur3.hash128(bytes, offset, length, scratch)
    putHash(scratch(0), scratch(1), stamp)
  }

  def put(path: String, stamp: Long): Unit = { hash(path); putHash(scratch(0), scratch(1), stamp) }

  def contains(path: String): Boolean = { hash(path); containsHash(scratch(0), scratch(1)) }

  /** Replaces a present path's stamp: Absent, Same (the stamp was already this) or Changed. */
  def restamp(path: String, stamp: Long): Int = compare(path, stamp, replace = true)

  /** Absent, Same or Changed, as [[restamp]], leaving the stamp as it is. */
  def compare(path: String, stamp: Long): Int = compare(path, stamp, replace = false)

  private def compare(path: String, stamp: Long, replace: Boolean): Int = {
    hash(path)
    val h2 = if (scratch(0) == 0L && scratch(1) == 0L) 1L else scratch(1)
    val slot = find(scratch(0), h2)
    if (slot < 0) PathIndex.Absent
    else if (slots(3 * slot + 2) == stamp) PathIndex.Same
    else {
      if (replace) slots(3 * slot + 2) = stamp
      PathIndex.Changed
    }
  }

  /** Adds or updates by hash: the index's one write, public to the package so tests can force collisions. */
  def putHash(rawH1: Long, rawH2: Long, stamp: Long): Unit = {
    val h2 = if (rawH1 == 0L && rawH2 == 0L) 1L else rawH2
    val h1 = rawH1
    val found = find(h1, h2)
    if (found >= 0) slots(3 * found + 2) = stamp
    else {
      // Grow before the insert that would pass 3/4 full: probes stay short, and after doubling the table is
      // over 3/8 full, which keeps the heap per path at or under 24 / (3/8) = 64 bytes.
      if (4L * (count + 1) > 3L * capacity) grow()
      insert(h1, h2, stamp)
      count += 1
    }
  }

  def containsHash(rawH1: Long, rawH2: Long): Boolean =
    find(rawH1, if (rawH1 == 0L && rawH2 == 0L) 1L else rawH2) >= 0

  private def hash(path: String): Unit = {
    val bytes = path.getBytes(StandardCharsets.UTF_8)
    Murmur3.hash128(bytes, 0, bytes.length, scratch)
  }

  /** The slot holding (h1, h2), or -1. h1 picks the home slot: it is already well mixed. */
  private def find(h1: Long, h2: Long): Int = {
    val mask = capacity - 1
    var slot = (h1 ^ (h1 >>> 32)).toInt & mask
    while (true) {
      val a = slots(3 * slot)
      val b = slots(3 * slot + 1)
      if (a == h1 && b == h2) return slot
      if (a == 0L && b == 0L) return -1
      slot = (slot + 1) & mask
    }
    -1
  }

  private def insert(h1: Long, h2: Long, stamp: Long): Unit = {
    val mask = capacity - 1
    var slot = (h1 ^ (h1 >>> 32)).toInt & mask
    while (slots(3 * slot) != 0L || slots(3 * slot + 1) != 0L) slot = (slot + 1) & mask
    slots(3 * slot) = h1
    slots(3 * slot + 1) = h2
    slots(3 * slot + 2) = stamp
  }

  private def grow(): Unit = {
    val old = slots
    val oldCapacity = capacity
    if (oldCapacity >= PathIndex.MaxCapacity)
      throw DrillErrors.internal(s"the stream's file index is full ($count files)")
    capacity = oldCapacity * 2
    slots = new Array[Long](3 * capacity)
    var i = 0
    while (i < oldCapacity) {
      val a = old(3 * i)
      val b = old(3 * i + 1)
      if (a != 0L || b != 0L) insert(a, b, old(3 * i + 2))
      i += 1
    }
  }
}

private[sparkdrill] object PathIndex {
  // 3 longs per slot in one array: 2^29 slots is the largest whose array length fits an Int.
  private val MaxCapacity = 1 << 29

  val Absent = 0
  val Same = 1
  val Changed = 2

  /** A file's (length, modificationTime) in one long: equal stamps mean unchanged, to 2^-64. */
  def stamp(length: Long, modificationTime: Long): Long =
    Murmur3.mix(Murmur3.mix(length ^ 0x9e3779b97f4a7c15L) + modificationTime)

  private def powerOfTwoAtLeast(n: Int): Int =
    if (n >= MaxCapacity) MaxCapacity else Integer.highestOneBit(n - 1) << 1
}
