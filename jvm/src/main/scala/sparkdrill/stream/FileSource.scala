package sparkdrill.stream

import org.apache.hadoop.fs.Path

import sparkdrill.scan.{DirectoryMemo, ScanFile, ScanOptions, TableScan}

/** Where a stream's new files come from: today a listing of the input on every trigger; file events from a
  * queue are another implementation of the same calls (SPEC 11.1).
  */
private[sparkdrill] trait FileSource {

  /** The eligible files now, for a trigger: may leave out files known not to have changed. */
  def offered(): IndexedSeq[ScanFile]

  /** Every eligible file now (a first start, an `AvailableNow` run's files). */
  def all(): IndexedSeq[ScanFile]

  /** Files offered and not taken: a source that skips what it offered before must offer them again. */
  def notTaken(files: Seq[ScanFile]): Unit

  /** Files and milliseconds of the last call, for the progress metrics. */
  def lastCount: Int
  def lastMillis: Long
}

/** The input listed through Hadoop's FileSystem on each call, minus the stream's own directories; with
  * `listChangedDirectoriesOnly`, a trigger lists again only the directories whose time changed (and those
  * holding a file not taken).
  *
  * @param own the query's checkpoint and the schema versions: never input
  */
private[sparkdrill] final class ListingSource(
    definition: StreamDefinition,
    own: Seq[Path],
    session: StreamSession
) extends FileSource {
  private val options = definition.options

  private val directories =
    if (definition.settings.listChangedDirectoriesOnly) Some(new DirectoryMemo(ListingSource.SettleMillis))
    else None

  var lastCount = 0
  var lastMillis = 0L

  override def offered(): IndexedSeq[ScanFile] = list(directories)

  override def all(): IndexedSeq[ScanFile] = list(None)

  override def notTaken(files: Seq[ScanFile]): Unit =
    directories.foreach(memo => files.foreach(f => memo.unfinished(f.path)))

  private def list(memo: Option[DirectoryMemo]): IndexedSeq[ScanFile] = {
    val started = System.nanoTime()
    // The input directory may not exist yet (a stream with a defined schema over a landing zone to be).
    val listed = TableScan.list(
      Seq(definition.path),
      options.updated(ScanOptions.IgnoreMissingFiles, true),
      definition.conf,
      session.zone,
      memo
    )
    val eligible = StreamFiles.eligible(listed, own, definition.conf)
    lastCount = eligible.size
    lastMillis = (System.nanoTime() - started) / 1000000
    eligible
  }
}

private[sparkdrill] object ListingSource {

  /** listChangedDirectoriesOnly trusts a directory's time only once it is this far behind a listing. */
  val SettleMillis = 30000L
}
