package sparkdrill.scan

import scala.collection.mutable
import scala.util.Try

import org.apache.hadoop.fs.Path

/** What a stream remembers of its input's directories between triggers, so that a trigger lists again only
  * the directories that changed (`listChangedDirectoriesOnly`, docs/streaming.md). Local file systems and
  * HDFS change a directory's modification time whenever an entry is added to it, removed or renamed in or
  * out, so a directory whose time is what it was at its last listing holds the same entries as then.
  *
  * A directory is left unlisted only when all of these hold, and listed otherwise:
  *   - its time is above 0 (object stores give directories none) and equal to its time at its last listing;
  *   - that time was at least `settleMillis` before that listing began: an entry added in the same tick of a
  *     coarse clock, or by a server whose clock runs a little behind the driver's, could leave it unchanged;
  *   - every file found in it then was taken by the stream (none was left for a later micro-batch, held back
  *     by `minFileAge`, or outside an AvailableNow run): see [[unfinished]].
  * Its files are then left out of the listing (the stream has read them all), and its subdirectories, as last
  * listed, are looked at in turn. A file rewritten in place in such a directory is not noticed: it would not
  * be read again either way, but it is not counted in `numFilesChangedAfterRead`.
  *
  * Used by one stream's trigger thread only.
  */
private[sparkdrill] final class DirectoryMemo(settleMillis: Long) {
  import DirectoryMemo.Seen

  private val seen = mutable.HashMap.empty[String, Seen]
  private val unfinishedDirs = mutable.HashSet.empty[String]

  /** The subdirectories to look at instead of listing `dir`, whose time is now `modificationTime`; None when
    * it must be listed.
    */
  def unchanged(dir: String, modificationTime: Long): Option[Seq[String]] = seen.get(dir) match {
    case Some(s) if modificationTime > 0 && s.settled && s.modificationTime == modificationTime =>
      if (unfinishedDirs(dir)) None else Some(s.subdirectories)
    case _ => None
  }

  /** `dir` was listed by a listing that began at `listingStart`, its time then `modificationTime`. */
  def listed(dir: String, modificationTime: Long, listingStart: Long, subdirectories: Seq[String]): Unit = {
    val settled = modificationTime > 0 && listingStart - modificationTime >= settleMillis
    seen(dir) = Seen(modificationTime, settled, subdirectories)
    unfinishedDirs -= dir
  }

  /** A file of this listing was not taken: its directory is listed again next time. The directory is known
    * by its path as listed (a file's path is its directory's and its name), and by Hadoop's spelling of it too
    * should the two ever differ: a directory marked under a spelling no listing uses stays listed, which is
    * safe, where one missed would hide the file.
    */
  def unfinished(filePath: String): Unit = {
    val slash = filePath.lastIndexOf('/')
    if (slash > 0) {
      val dir = filePath.substring(0, slash)
      if (unfinishedDirs.add(dir)) unfinishedDirs += Try(new Path(dir).toString).getOrElse(dir)
    }
  }

  /** How many directories are remembered. */
  def size: Int = seen.size
}

private object DirectoryMemo {
  private final case class Seen(modificationTime: Long, settled: Boolean, subdirectories: Seq[String])
}
