package sparkdrill.loader

import java.math.BigDecimal

/** Spark's variant encoding written straight from UTF-8 bytes: the JSON byte reader's path to a VARIANT.
  * Spark's own `VariantBuilder` takes a `String` per key and per string and a fresh dictionary per value;
  * on the bench's JSON that made a VARIANT read only 1.2x Spark's own (JFR: a third of the time in key
  * Strings, their hashes and the dictionary's growth). This keeps one buffer, one dictionary of key bytes
  * and one stack of fields for every value, and writes what `VariantBuilder` writes, byte for byte
  * (VariantSuite compares every shape with `parse_json`'s).
  *
  * What it does not write, it refuses with [[VariantEncoder.Declined]] before the value is kept, and the
  * caller builds that value with Spark's builder instead: an object holding a key twice (Spark's builder
  * decides by `spark.sql.variant.allowDuplicateKeys`), a value of 16 MiB or more, deeper nesting than
  * [[VariantEncoder.MaxDepth]].
  *
  * Per value: [[clear]], the value (objects: [[startObject]], then [[key]] before each member's value,
  * [[endObject]]; arrays likewise with [[element]]), [[writeTo]].
  */
private[sparkdrill] final class VariantEncoder {
  import VariantEncoder._

  private var buf = new Array[Byte](1 << 10)
  private var pos = 0

  // Every key met, across values (until more than SymbolsKept, then forgotten between two values): symbol
  // s's UTF-8 bytes are pool(symbolStart(s) until symbolStart(s + 1)), found through an open-addressing
  // table of s + 1 (0: free). Kept across values so that a key is hashed once per value and objects sort by
  // the symbols' ranks (ints) rather than by their bytes: sorting by bytes was a third of a VARIANT read.
  private var pool = new Array[Byte](1 << 12)
  private var symbolStart = new Array[Int](257)
  private var symbols = 0
  private var table = new Array[Int](512)
  // Each symbol's place in Java's String order among the symbols ranked so far (those below `ranked`).
  private var rank = new Array[Int](256)
  private var ranked = 0
  // The symbol that followed each symbol, in the last value that had it (-1: none yet); the first key of the
  // last value; the last key of this value (-1: none yet).
  private var follows = Array.fill(256)(-1)
  private var firstKey = -1
  private var lastKey = -1
  // Objects sorted by their keys' bytes since the last ranking (a key of theirs had no rank).
  private var byteSorts = 0
  // The dictionary of the value being written: id i is symbol idSymbol(i), ids in the order keys are first
  // met (as Spark's builder numbers them). A symbol's id in this value is symbolId(s), when symbolValue(s)
  // is this value's number.
  private var idSymbol = new Array[Int](64)
  private var keyCount = 0
  private var symbolId = new Array[Int](256)
  private var symbolValue = new Array[Int](256)
  private var value = 1

  // Open objects and arrays: where each one's data starts in `buf`, and where its members start in the
  // member stack (a member's key id, or -1 for an element, and its offset from the data's start).
  private val frameStart = new Array[Int](MaxDepth)
  private val frameFirst = new Array[Int](MaxDepth)
  private var depth = 0
  private var memberIds = new Array[Int](256)
  private var memberOffsets = new Array[Int](256)
  private var members = 0

  def clear(): Unit = {
    pos = 0
    keyCount = 0
    depth = 0
    members = 0
    lastKey = -1
    if (symbols > SymbolsKept) forget()
    value += 1
    if (value == Int.MaxValue) { java.util.Arrays.fill(symbolValue, 0); value = 1 }
  }

  // Data-keyed objects (ids, dates as keys) would grow the symbols without end: start again.
  private def forget(): Unit = {
    java.util.Arrays.fill(table, 0)
    java.util.Arrays.fill(symbolValue, 0, symbols, 0)
    symbols = 0
    ranked = 0
    byteSorts = 0
    java.util.Arrays.fill(follows, -1)
    firstKey = -1
    java.util.Arrays.fill(orders.asInstanceOf[Array[Object]], null)
  }

  private def room(n: Int): Unit =
    if (pos + n > buf.length) {
      if (pos.toLong + n > U24Max) throw Declined
      buf = java.util.Arrays.copyOf(buf, math.max(buf.length * 2, pos + n))
    }

  private def primitive(kind: Int): Unit = { room(1); buf(pos) = (kind << 2).toByte; pos += 1 }

  def appendNull(): Unit = primitive(Null)
  def appendBoolean(v: Boolean): Unit = primitive(if (v) True else False)

  /** The smallest integer type that holds `v`. */
  def appendLong(v: Long): Unit = {
    room(9)
    if (v == v.toByte) { primitive(Int1); littleEndian(v, 1) }
    else if (v == v.toShort) { primitive(Int2); littleEndian(v, 2) }
    else if (v == v.toInt) { primitive(Int4); littleEndian(v, 4) }
    else { primitive(Int8); littleEndian(v, 8) }
  }

  def appendDouble(v: Double): Unit = {
    primitive(DoubleKind)
    room(8)
    littleEndian(java.lang.Double.doubleToLongBits(v), 8)
  }

  /** A decimal `unscaled` × 10^-`scale` of `precision` digits, both at most 38, whose unscaled value fits a
    * long (the narrowest of Spark's three decimal widths that holds both).
    */
  def appendDecimal(unscaled: Long, scale: Int, precision: Int): Unit = {
    room(18)
    if (scale <= 9 && precision <= 9) {
      primitive(Decimal4); buf(pos) = scale.toByte; pos += 1; littleEndian(unscaled, 4)
    } else if (scale <= 18 && precision <= 18) {
      primitive(Decimal8); buf(pos) = scale.toByte; pos += 1; littleEndian(unscaled, 8)
    } else {
      primitive(Decimal16); buf(pos) = scale.toByte; pos += 1
      littleEndian(unscaled, 8)
      littleEndian(if (unscaled < 0) -1L else 0L, 8)
    }
  }

  /** A decimal of at most 38 digits and scale 38 in any width. */
  def appendDecimal(d: BigDecimal): Unit =
    if (d.unscaledValue.bitLength < 64) appendDecimal(d.unscaledValue.longValue, d.scale, d.precision)
    else { // DECIMAL16: the unscaled value's two's complement, little-endian, sign-extended to 16 bytes
      room(18)
      primitive(Decimal16)
      buf(pos) = d.scale.toByte
      pos += 1
      val bytes = d.unscaledValue.toByteArray
      var i = 0
      while (i < 16) {
        buf(pos + i) =
          if (i < bytes.length) bytes(bytes.length - 1 - i) else (if (bytes(0) < 0) -1 else 0).toByte
        i += 1
      }
      pos += 16
    }

  /** A string's UTF-8 bytes, well formed. */
  def appendString(bytes: Array[Byte], from: Int, length: Int): Unit = {
    room(5 + length)
    if (length <= MaxShortString) { buf(pos) = ((length << 2) | ShortString).toByte; pos += 1 }
    else { buf(pos) = (LongString << 2).toByte; pos += 1; littleEndian(length.toLong, 4) }
    System.arraycopy(bytes, from, buf, pos, length)
    pos += length
  }

  private def open(): Unit = {
    if (depth == MaxDepth) throw Declined
    frameStart(depth) = pos
    frameFirst(depth) = members
    depth += 1
  }

  private def member(id: Int): Unit = {
    if (members == memberIds.length) {
      memberIds = java.util.Arrays.copyOf(memberIds, members * 2)
      memberOffsets = java.util.Arrays.copyOf(memberOffsets, members * 2)
    }
    memberIds(members) = id
    memberOffsets(members) = pos - frameStart(depth - 1)
    members += 1
  }

  def startObject(): Unit = open()
  def startArray(): Unit = open()
  def element(): Unit = member(-1)

  /** The next member's key, as UTF-8 bytes (well formed). */
  def key(bytes: Array[Byte], from: Int, length: Int): Unit = member(idOf(bytes, from, length))

  // The key's id in this value: its symbol's, or the next id.
  private def idOf(bytes: Array[Byte], from: Int, length: Int): Int = {
    // Records of one producer repeat their keys in one order: the key that followed the last one last time
    // is tried first, by its bytes alone (no hash).
    val guess = if (lastKey < 0) firstKey else follows(lastKey)
    val s =
      if (
        guess >= 0 && symbolStart(guess + 1) - symbolStart(guess) == length && sameBytes(
          bytes,
          from,
          symbolStart(guess),
          length
        )
      ) guess
      else symbolOf(bytes, from, length)
    if (lastKey < 0) firstKey = s else follows(lastKey) = s
    lastKey = s
    if (symbolValue(s) == value) symbolId(s)
    else {
      if (keyCount == idSymbol.length) idSymbol = java.util.Arrays.copyOf(idSymbol, keyCount * 2)
      idSymbol(keyCount) = s
      symbolId(s) = keyCount
      symbolValue(s) = value
      keyCount += 1
      keyCount - 1
    }
  }

  private def symbolOf(bytes: Array[Byte], from: Int, length: Int): Int = {
    val mask = table.length - 1
    var slot = hash(bytes, from, length) & mask
    while (true) {
      val entry = table(slot)
      if (entry == 0) return add(bytes, from, length, slot)
      val s = entry - 1
      val at = symbolStart(s)
      if (symbolStart(s + 1) - at == length && sameBytes(bytes, from, at, length)) return s
      slot = (slot + 1) & mask
    }
    -1
  }

  private def hash(bytes: Array[Byte], from: Int, length: Int): Int = {
    var h = length
    var i = 0
    while (i < length) { h = 31 * h + bytes(from + i); i += 1 }
    h ^ (h >>> 16)
  }

  private def sameBytes(bytes: Array[Byte], from: Int, at: Int, length: Int): Boolean = {
    var i = 0
    while (i < length && pool(at + i) == bytes(from + i)) i += 1
    i == length
  }

  private def add(bytes: Array[Byte], from: Int, length: Int, slot: Int): Int = {
    val s = symbols
    val end = symbolStart(s)
    if (end + length > pool.length)
      pool = java.util.Arrays.copyOf(pool, math.max(pool.length * 2, end + length))
    System.arraycopy(bytes, from, pool, end, length)
    if (s + 2 > symbolStart.length) symbolStart = java.util.Arrays.copyOf(symbolStart, symbolStart.length * 2)
    if (s == symbolId.length) {
      symbolId = java.util.Arrays.copyOf(symbolId, s * 2)
      symbolValue = java.util.Arrays.copyOf(symbolValue, s * 2)
      rank = java.util.Arrays.copyOf(rank, s * 2)
      follows = java.util.Arrays.copyOf(follows, s * 2)
      java.util.Arrays.fill(follows, s, s * 2, -1)
    }
    symbolStart(s + 1) = end + length
    symbols += 1
    table(slot) = s + 1
    if (symbols * 2 > table.length) rehash()
    s
  }

  private def rehash(): Unit = {
    table = new Array[Int](table.length * 2)
    val mask = table.length - 1
    var s = 0
    while (s < symbols) {
      var slot = hash(pool, symbolStart(s), symbolStart(s + 1) - symbolStart(s)) & mask
      while (table(slot) != 0) slot = (slot + 1) & mask
      table(slot) = s + 1
      s += 1
    }
  }

  // Ranks every symbol when some have no rank and either they are an eighth of those that do, or objects
  // sorted by bytes since the last ranking are a quarter of the symbols: a key that recurs gets its rank
  // soon, while keys met once (data as keys) cost a ranking now and then, not one per value.
  private def rankIfStale(): Unit =
    if (symbols > ranked && ((symbols - ranked) * 8 >= ranked || byteSorts * 4 >= symbols)) {
      byteSorts = 0
      val order = Array.tabulate(symbols)(Integer.valueOf)
      java.util.Arrays.sort(order, (a: Integer, b: Integer) => compareSymbols(a, b))
      var i = 0
      while (i < symbols) { rank(order(i)) = i; i += 1 }
      ranked = symbols
    }

  /** Ends the innermost object: its members sorted by key (as Java orders Strings), then its header moved in
    * front of its data.
    */
  def endObject(): Unit = {
    val first = frameFirst(depth - 1)
    if (members - first > 1) sortMembers(first, members)
    var maxId = if (members == first) 0 else memberIds(first)
    var i = first + 1
    while (i < members) {
      if (memberIds(i) == memberIds(i - 1)) throw Declined // a key twice: Spark's builder decides
      maxId = math.max(maxId, memberIds(i))
      i += 1
    }
    close(integerSize(maxId))
  }

  def endArray(): Unit = close(idSize = 0)

  // Ends the innermost container: its header (the kind and widths, the member count, an object's key ids of
  // `idSize` bytes each, the members' offsets and the data's size) moved in front of its data.
  private def close(idSize: Int): Unit = {
    depth -= 1
    val start = frameStart(depth)
    val first = frameFirst(depth)
    val n = members - first
    val dataSize = pos - start
    val large = n > U8Max
    val sizeBytes = if (large) 4 else 1
    val offsetSize = integerSize(dataSize)
    val header = 1 + sizeBytes + n * idSize + (n + 1) * offsetSize
    shift(start, dataSize, header)
    val widths = ((offsetSize - 1) << 2) | (if (large) 1 << (if (idSize > 0) 6 else 4) else 0)
    buf(start) = (if (idSize > 0) widths | ((idSize - 1) << 4) | ObjectBasic else widths | ArrayBasic).toByte
    var at = write(start + 1, n, sizeBytes)
    var i = first
    if (idSize > 0) while (i < members) { at = write(at, memberIds(i), idSize); i += 1 }
    i = first
    while (i < members) { at = write(at, memberOffsets(i), offsetSize); i += 1 }
    write(at, dataSize, offsetSize)
    members = first
  }

  // Moves a container's data `by` bytes on, to make room for its header.
  private def shift(start: Int, dataSize: Int, by: Int): Unit = {
    room(by)
    System.arraycopy(buf, start, buf, start + by, dataSize)
    pos += by
  }

  /** The value written, with its metadata (version 1, the dictionary in id order), into `w`. */
  def writeTo(w: ColumnWriter): Unit = {
    var stringSize = 0
    var id = 0
    while (id < keyCount) { stringSize += length(idSymbol(id)); id += 1 }
    val offsetSize = integerSize(math.max(stringSize, keyCount))
    val strings = 1 + offsetSize + (keyCount + 1) * offsetSize
    val metadata = new Array[Byte](strings + stringSize)
    metadata(0) = (Version | ((offsetSize - 1) << 6)).toByte
    writeInto(metadata, 1, keyCount, offsetSize)
    var at = 0
    id = 0
    while (id < keyCount) {
      val s = idSymbol(id)
      writeInto(metadata, 1 + offsetSize * (id + 1), at, offsetSize)
      System.arraycopy(pool, symbolStart(s), metadata, strings + at, length(s))
      at += length(s)
      id += 1
    }
    writeInto(metadata, 1 + offsetSize * (keyCount + 1), at, offsetSize)
    w.setVariant(java.util.Arrays.copyOf(buf, pos), metadata)
  }

  private def length(s: Int): Int = symbolStart(s + 1) - symbolStart(s)

  private def integerSize(v: Int): Int =
    if (v <= U8Max) 1 else if (v <= U16Max) 2 else if (v <= U24Max) 3 else throw Declined

  private def littleEndian(v: Long, n: Int): Unit = {
    var i = 0
    while (i < n) { buf(pos + i) = (v >>> (8 * i)).toByte; i += 1 }
    pos += n
  }

  private def write(at: Int, v: Int, n: Int): Int = { writeInto(buf, at, v, n); at + n }

  private def writeInto(to: Array[Byte], at: Int, v: Int, n: Int): Unit = {
    var i = 0
    while (i < n) { to(at + i) = (v >>> (8 * i)).toByte; i += 1 }
  }

  // Members from `from` until `until` by key: insertion sort (objects are small; the bench's have 24 keys),
  // by the keys' ranks where every key has one.
  private def sortMembers(from: Int, until: Int): Unit = {
    val n = until - from
    var h = n
    var k = from
    while (k < until) { h = 31 * h + idSymbol(memberIds(k)); k += 1 }
    val slot = (h ^ (h >>> 8)) & (orders.length - 1)
    val order = orders(slot)
    if (order != null && sameKeys(order, from, until)) reorder(order, from, until)
    else {
      if (position.length < keyCount) position = new Array[Int](keyCount * 2)
      k = from
      while (k < until) { position(memberIds(k)) = k - from; k += 1 }
      rankIfStale()
      var all = true
      k = from
      while (k < until && all) { all = idSymbol(memberIds(k)) < ranked; k += 1 }
      if (all) sortByRank(from, until) else { byteSorts += 1; sortByBytes(from, until) }
      if (n <= MaxOrderKept) orders(slot) = orderOf(from, until)
    }
  }

  // The sorted orders of recent objects' key sequences, by a hash of the sequence: an object whose keys come
  // in an order seen before is put in order without comparing keys. Each is its length n, the n symbols as
  // they came, then for each sorted place the index of the member that goes there.
  private val orders = new Array[Array[Int]](256)
  private var position = new Array[Int](64) // while sorting: each key id's index in the object as it came

  private def sameKeys(order: Array[Int], from: Int, until: Int): Boolean = {
    val n = until - from
    if (order(0) != n) return false
    var k = 0
    while (k < n && order(1 + k) == idSymbol(memberIds(from + k))) k += 1
    k == n
  }

  // Null for an object holding a key twice (its endObject declines it).
  private def orderOf(from: Int, until: Int): Array[Int] = {
    val n = until - from
    var k = from + 1
    while (k < until) { if (memberIds(k) == memberIds(k - 1)) return null; k += 1 }
    val order = new Array[Int](1 + 2 * n)
    order(0) = n
    k = 0
    while (k < n) {
      val id = memberIds(from + k)
      order(1 + n + k) = position(id)
      k += 1
    }
    // The symbols as they came: the sorted symbols put back in their first places.
    k = 0
    while (k < n) { order(1 + order(1 + n + k)) = idSymbol(memberIds(from + k)); k += 1 }
    order
  }

  private def reorder(order: Array[Int], from: Int, until: Int): Unit = {
    val n = until - from
    if (scratchIds.length < n) { scratchIds = new Array[Int](n * 2); scratchOffsets = new Array[Int](n * 2) }
    System.arraycopy(memberIds, from, scratchIds, 0, n)
    System.arraycopy(memberOffsets, from, scratchOffsets, 0, n)
    var k = 0
    while (k < n) {
      val was = order(1 + n + k)
      memberIds(from + k) = scratchIds(was)
      memberOffsets(from + k) = scratchOffsets(was)
      k += 1
    }
  }
  private var scratchIds = new Array[Int](64)
  private var scratchOffsets = new Array[Int](64)

  private def sortByRank(from: Int, until: Int): Unit = {
    var i = from + 1
    while (i < until) {
      val id = memberIds(i)
      val offset = memberOffsets(i)
      val r = rank(idSymbol(id))
      var j = i - 1
      while (j >= from && rank(idSymbol(memberIds(j))) > r) {
        memberIds(j + 1) = memberIds(j)
        memberOffsets(j + 1) = memberOffsets(j)
        j -= 1
      }
      memberIds(j + 1) = id
      memberOffsets(j + 1) = offset
      i += 1
    }
  }

  private def sortByBytes(from: Int, until: Int): Unit = {
    var i = from + 1
    while (i < until) {
      val id = memberIds(i)
      val offset = memberOffsets(i)
      var j = i - 1
      while (j >= from && compareKeys(memberIds(j), id) > 0) {
        memberIds(j + 1) = memberIds(j)
        memberOffsets(j + 1) = memberOffsets(j)
        j -= 1
      }
      memberIds(j + 1) = id
      memberOffsets(j + 1) = offset
      i += 1
    }
  }

  // Keys in Java's String order (UTF-16 units), from their UTF-8 bytes. Unsigned bytes order by code point,
  // which is the same order except between a character past U+FFFF (lead byte F0-F4, a surrogate pair in
  // UTF-16, D800-DFFF) and one in U+E000-U+FFFF (lead byte EE or EF): UTF-16 puts the surrogate first.
  private def compareKeys(a: Int, b: Int): Int = if (a == b) 0 else compareSymbols(idSymbol(a), idSymbol(b))

  private def compareSymbols(a: Int, b: Int): Int = {
    if (a == b) return 0
    val as = symbolStart(a)
    val bs = symbolStart(b)
    val al = symbolStart(a + 1) - as
    val bl = symbolStart(b + 1) - bs
    val n = math.min(al, bl)
    var i = 0
    while (i < n) {
      val x = pool(as + i) & 0xff
      val y = pool(bs + i) & 0xff
      if (x != y) {
        if (x >= 0xf0 && (y == 0xee || y == 0xef)) return -1
        if (y >= 0xf0 && (x == 0xee || x == 0xef)) return 1
        return x - y
      }
      i += 1
    }
    al - bl
  }
}

private[sparkdrill] object VariantEncoder {

  /** The encoder does not write this value; the caller builds it with Spark's builder. */
  object Declined extends scala.util.control.ControlThrowable

  /** Deeper than the JSON byte reader goes (its cursor leaves deeper records to Jackson). */
  val MaxDepth = 300

  /** Keys remembered across values (the bench's JSON has about 40; data-keyed objects have no end of them). */
  private val SymbolsKept = 1 << 14

  /** The largest object whose sorted order is kept for the next object with the same keys in the same order. */
  private val MaxOrderKept = 64

  // Spark's variant encoding (org.apache.spark.types.variant.VariantUtil).
  private final val ObjectBasic = 2
  private final val ArrayBasic = 3
  private final val ShortString = 1
  private final val Null = 0
  private final val True = 1
  private final val False = 2
  private final val Int1 = 3
  private final val Int2 = 4
  private final val Int4 = 5
  private final val Int8 = 6
  private final val DoubleKind = 7
  private final val Decimal4 = 8
  private final val Decimal8 = 9
  private final val Decimal16 = 10
  private final val LongString = 16
  private final val MaxShortString = 63
  private final val Version = 1
  private final val U8Max = 255
  private final val U16Max = 65535
  private final val U24Max = 16777215
}
