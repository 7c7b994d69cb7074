package sparkdrill.scan.cache

import scala.collection.mutable

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.StructType
import org.slf4j.LoggerFactory

import sparkdrill.reader.ReaderOptions
import sparkdrill.scan.{ScanFile, ScanOptions, SchemaDiscovery}

/** The discovery pass through the caches: each listed file is looked up in the driver's in-memory cache
  * (option `sessionSchemaCache`), then in the `schemaCache` directory; only the rest is discovered, by
  * `discoverAll` (a Spark job when many), and what it finds goes back into both. A file discovery found
  * corrupt (None, under `ignoreCorruptFiles`) is not kept: the next read asks it again.
  */
private[sparkdrill] object CachedDiscovery {
  private val log = LoggerFactory.getLogger(getClass.getName.stripSuffix("$"))

  /** The schema of each of `files`, as `discoverAll` would give it, and how each was found. */
  def discover(
      files: IndexedSeq[ScanFile],
      options: ReaderOptions,
      conf: Configuration,
      discoverAll: SchemaDiscovery.Many,
      memory: InMemorySchemaCache = InMemorySchemaCache.session
  ): (IndexedSeq[Option[StructType]], DiscoveryStats) = {
    val useMemory = options(ScanOptions.SessionSchemaCache)
    val directory = options.get(ScanOptions.SchemaCache).map(new SchemaCacheDir(_, conf))
    if (!useMemory && directory.isEmpty) {
      val found = intern(discoverAll(files, options, conf))
      (found, DiscoveryStats(files.size, 0, 0, files.size, Nil))
    } else {
      val fingerprint = ScanOptions.discoveryFingerprint(options)
      val cacheable = files.indices.filter(i => CacheKey.cacheable(files(i)))
      val keys: Map[Int, CacheKey] = cacheable.map(i => i -> CacheKey.of(files(i), fingerprint)).toMap
      val found: Array[Option[StructType]] = Array.fill(files.size)(None)
      if (useMemory)
        cacheable.zip(memory.getAll(cacheable.map(keys))).foreach { case (i, s) => found(i) = s }
      val fromMemory = found.count(_.isDefined)

      val warnings = Vector.newBuilder[String]
      // The directory is read only when the session's cache misses a file.
      val stored = directory.filter(_ => cacheable.exists(found(_).isEmpty)).map(_.load())
      stored.foreach(s => warnings ++= s.problems)
      val fromDirectory = stored.toSeq.flatMap { s =>
        cacheable.filter(found(_).isEmpty).flatMap(i => s.entries.get(keys(i)).map(i -> _))
      }
      fromDirectory.foreach { case (i, s) => found(i) = Some(s) }

      val missing = found.indices.filter(found(_).isEmpty)
      val discovered =
        if (missing.isEmpty) IndexedSeq.empty else discoverAll(missing.map(files), options, conf)
      val fresh = missing.zip(discovered).collect { case (i, Some(s)) => i -> s }
      fresh.foreach { case (i, s) => found(i) = Some(s) }

      // New to the session's cache: kept there, and each schema replaced by the equal one the cache holds,
      // so that tables share them.
      if (useMemory) {
        val added = (fromDirectory ++ fresh).filter { case (i, _) => keys.contains(i) }
        val pooled = memory.putAll(added.map { case (i, s) => keys(i) -> s })
        added.zip(pooled).foreach { case ((i, _), s) => found(i) = Some(s) }
      }

      val kept = fresh.filter { case (i, _) => keys.contains(i) }
      for (d <- directory; s <- stored if kept.nonEmpty)
        warnings ++= d.write(kept.map { case (i, schema) => keys(i) -> schema }, s, files)

      val stats = DiscoveryStats(files.size, fromMemory, fromDirectory.size, missing.size, warnings.result())
      stats.warnings.foreach(w => log.warn(s"spark-drill: $w"))
      log.info(
        s"spark-drill: schemas of ${stats.files} files: ${stats.fromMemory} from the session's cache, " +
          s"${stats.fromDirectory} from schemaCache, ${stats.discovered} discovered " +
          s"(session cache: ${memory.stats})"
      )
      (intern(found.toIndexedSeq), stats)
    }
  }

  // Equal schemas of a table as one object (files discovered by a Spark job each arrive as their own copy).
  private def intern(schemas: IndexedSeq[Option[StructType]]): IndexedSeq[Option[StructType]] = {
    val seen = mutable.HashMap.empty[StructType, StructType]
    schemas.map(_.map(s => seen.getOrElseUpdate(s, s)))
  }
}

/** How a table's discovery went: files listed; found in the session's cache; found in the `schemaCache`
  * directory; asked of discovery (misses); and what went wrong with the caches (logged as warnings; the read
  * went on without them).
  */
private[sparkdrill] final case class DiscoveryStats(
    files: Int,
    fromMemory: Int,
    fromDirectory: Int,
    discovered: Int,
    warnings: Seq[String]
)
