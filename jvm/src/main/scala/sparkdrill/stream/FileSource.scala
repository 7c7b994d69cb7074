package sparkdrill.stream

import org.apache.hadoop.fs.Path

import sparkdrill.scan.{DirectoryMemo, ScanFile, ScanOptions, TableScan}

/** Where a stream's new files come from: a listing of the input on every trigger ([[ListingSource]]), or file
  * events from a queue ([[sparkdrill.stream.events.EventSource]], SPEC 11.1). The engine tells it what became
  * of what it offered (logged, passed over, committed), so an event source knows when a message is done.
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

  /** A micro-batch took these files (logged as `batch`). */
  def logged(batch: Long, files: Seq[ScanFile]): Unit = ()

  /** Offered files the file log already held (read before, changed or not): done once `lastLogged` commits. */
  def passedOver(files: Seq[ScanFile], lastLogged: Long, lastCommitted: Long): Unit = ()

  /** Spark committed `batch` and every batch before it. */
  def committed(batch: Long): Unit = ()

  /** The source's own progress metrics (SPEC 11.1): a listing receives no events. */
  def metrics: Map[String, String] =
    Map("numEventsReceived" -> "0", "numEventsIgnored" -> "0", "numFilesFoundByBackfill" -> "0")

  def close(): Unit = ()
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
