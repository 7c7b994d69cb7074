package sparkdrill.stream

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path

import sparkdrill.scan.ScanFile

/** Which listed files a stream may read, and in what order it takes them (SPEC 11, "Files" and "Admission"). */
private[sparkdrill] object StreamFiles {

  /** The listed files that are input: not under the stream's own directories (its checkpoint, its
    * `schemaLocation`) when those lie under the input, not a copy in progress (`._COPYING_`), not inside a
    * `_temporary` directory (the listing skips `_` names already; a glob may still reach into one).
    */
  def eligible(listed: IndexedSeq[ScanFile], own: Seq[Path], conf: Configuration): IndexedSeq[ScanFile] = {
    val prefixes = own.map { p =>
      val fs = p.getFileSystem(conf)
      fs.makeQualified(p).toString.stripSuffix("/") + "/"
    }
    listed.filter { f =>
      !f.path.endsWith("._COPYING_") && !f.path.contains("/_temporary/") && !prefixes.exists(
        f.path.startsWith
      )
    }
  }

  /** One micro-batch's files from `candidates`: oldest modification time first, then by path, until
    * `maxFiles` files or until the next file would pass `maxBytes`, whichever comes first; at least one file.
    * Returns the admitted files and the rest, both in that order.
    */
  def admit(candidates: Seq[ScanFile], maxFiles: Int, maxBytes: Long): (Seq[ScanFile], Seq[ScanFile]) = {
    val ordered = candidates.sortBy(f => (f.modificationTime, f.path))
    var files = 0
    var bytes = 0L
    val taken = ordered.takeWhile { f =>
      val fits = files == 0 || (files < maxFiles && bytes + f.length <= maxBytes)
      if (fits) {
        files += 1
        bytes += f.length
      }
      fits
    }
    (taken, ordered.drop(taken.size))
  }
}
