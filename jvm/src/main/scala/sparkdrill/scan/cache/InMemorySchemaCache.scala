package sparkdrill.scan.cache

import org.apache.spark.sql.types.{ArrayType, DataType, MapType, Metadata, StructType}

/** The driver's in-memory discovery cache: each file's schema by [[CacheKey]], for every table this JVM
  * opens (tables of any session; keys hold nothing session-specific).
  *
  * Bounded twice: by entries, and by an estimate of the heap they hold (keys and schemas), the least
  * recently used entry leaving first. Equal schemas are held once: a tree of 100,000 files with two header
  * variants holds two StructTypes, and tables planned from the cache share them. A pooled schema counts the
  * entries that use it and leaves the pool with the last one, so schemas no entry needs are not kept.
  * One lock: planning asks for all of a table's files in one call, so contention is per table, not per file.
  */
private[sparkdrill] final class InMemorySchemaCache(val maxEntries: Int, val maxBytes: Long) {
  import InMemorySchemaCache._

  // Access order: a lookup makes an entry young; eviction takes the eldest.
  private val entries = new java.util.LinkedHashMap[CacheKey, Pooled](1024, 0.75f, true)
  private val pool = new java.util.HashMap[StructType, Pooled]()
  private var bytes = 0L
  private var hits = 0L
  private var misses = 0L
  private var evictions = 0L

  /** The schema kept for each key, if any. */
  def getAll(keys: IndexedSeq[CacheKey]): IndexedSeq[Option[StructType]] = synchronized {
    val found = keys.map(k => Option(entries.get(k)).map(_.schema))
    val hit = found.count(_.isDefined)
    hits += hit
    misses += keys.size - hit
    found
  }

  /** Keeps each schema under its key; returns the schemas as the pool holds them (an equal schema kept
    * before, else the one given), for the caller to use in their place.
    */
  def putAll(found: Seq[(CacheKey, StructType)]): Seq[StructType] = synchronized {
    found.map { case (key, schema) => put(key, schema) }
  }

  def clear(): Unit = synchronized {
    entries.clear()
    pool.clear()
    bytes = 0L
  }

  def stats: Stats = synchronized(Stats(entries.size, pool.size, bytes, hits, misses, evictions))

  private def put(key: CacheKey, schema: StructType): StructType = {
    val old = entries.remove(key)
    if (old != null) release(key, old)
    val pooled = pool.get(schema) match {
      case null =>
        val p = new Pooled(schema, estimate(schema))
        pool.put(schema, p)
        bytes += p.bytes
        p
      case p => p
    }
    pooled.users += 1
    entries.put(key, pooled)
    bytes += entryBytes(key)
    evict()
    pooled.schema
  }

  private def release(key: CacheKey, pooled: Pooled): Unit = {
    bytes -= entryBytes(key)
    pooled.users -= 1
    if (pooled.users == 0) {
      pool.remove(pooled.schema)
      bytes -= pooled.bytes
    }
  }

  private def evict(): Unit =
    while (!entries.isEmpty && (entries.size > maxEntries || bytes > maxBytes)) {
      val eldest = entries.entrySet.iterator
      val entry = eldest.next()
      eldest.remove()
      release(entry.getKey, entry.getValue)
      evictions += 1
    }
}

private[sparkdrill] object InMemorySchemaCache {

  /** At most this many files. */
  val MaxEntries: Int = 1000000

  /** At most about this much heap. A file's entry takes ~120 bytes plus its path (~250 bytes for paths of
    * 60 characters), so the bytes bind first: ~250,000 such files, or fewer when their schemas are wide
    * and all differ. A larger tree keeps only its most recently used files here; `schemaCache` keeps all.
    */
  val MaxBytes: Long = 64L << 20

  /** The JVM's cache, shared by every table it plans. */
  val session: InMemorySchemaCache = new InMemorySchemaCache(MaxEntries, MaxBytes)

  /** Counters for tests and the planning log line. */
  final case class Stats(
      entries: Int,
      schemas: Int,
      estimatedBytes: Long,
      hits: Long,
      misses: Long,
      evictions: Long
  ) {
    override def toString: String =
      s"$entries files, $schemas distinct schemas, ~${estimatedBytes >> 10} KiB; " +
        s"$hits hits, $misses misses, $evictions evicted since start"
  }

  private[cache] final class Pooled(val schema: StructType, val bytes: Long) {
    var users = 0
  }

  // A key's share of the heap: key object, map entry and the path (counted at two bytes a character to stay
  // on the safe side; compact strings take one for ASCII). Format and fingerprint strings are shared by all
  // the keys of a table.
  private def entryBytes(key: CacheKey): Long = 120L + 2L * key.path.length

  /** A rough size of a schema's objects: fields, names, nested types, metadata. */
  private[cache] def estimate(t: DataType): Long = t match {
    case s: StructType =>
      32L + s.fields.map { f =>
        val metadata = if (f.metadata == Metadata.empty) 0L else 2L * f.metadata.json.length
        80L + 2L * f.name.length + metadata + estimate(f.dataType)
      }.sum
    case a: ArrayType => 24L + estimate(a.elementType)
    case m: MapType => 32L + estimate(m.keyType) + estimate(m.valueType)
    case _ => 16L
  }
}
