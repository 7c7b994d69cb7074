package sparkdrill.scan.cache

import sparkdrill.scan.ScanFile

/** What one file's discovered schema depends on: the file's bytes, known by path, length and modification
  * time (a rewritten file has another length or time, hence another key; a deleted one is not listed, hence
  * never looked up), the format that reads it, and the fingerprint of the options discovery reads
  * ([[sparkdrill.scan.ScanOptions.discoveryFingerprint]]).
  */
private[sparkdrill] final case class CacheKey(
    path: String,
    length: Long,
    modificationTime: Long,
    format: String,
    fingerprint: String
)

private[sparkdrill] object CacheKey {
  def of(file: ScanFile, fingerprint: String): CacheKey =
    CacheKey(file.path, file.length, file.modificationTime, file.format, fingerprint)

  /** Whether a file's key can tell its versions apart: a file system that reports no modification time (0)
    * would let a rewrite of the same length pass for the old file.
    */
  def cacheable(file: ScanFile): Boolean = file.modificationTime > 0
}
