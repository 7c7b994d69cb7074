package sparkdrill.stream.events

import java.io.FileNotFoundException
import java.net.URI
import java.nio.charset.StandardCharsets

import scala.collection.mutable
import scala.util.Try
import scala.util.control.NonFatal

import org.apache.commons.io.IOUtils
import org.apache.hadoop.fs.{FileStatus, Path}
import org.slf4j.LoggerFactory

import sparkdrill.scan.{DriverThreads, FileLister, ScanFile}
import sparkdrill.stream.{FileSource, StreamDefinition, StreamFiles, StreamSession}

/** A stream's new files from file events (SPEC 11.1, `fileEvents`): at the query's first start the input is
  * listed once (the listing source's `all`), after that a trigger reads the queue and lists nothing, except
  * every `backfillInterval`, when a whole listing finds what no event announced.
  *
  * Exactly once with events that repeat, come late, out of order or never: a file is offered until a
  * micro-batch takes it, and the file log (through admission) drops what was read before; a message is
  * deleted only once every file it named is in a committed micro-batch, or named nothing to read; until then
  * it is kept invisible. A crash before the deletion makes the queue deliver it again, and the file log drops
  * its file then. Everything here is in memory: what it forgets in a crash, the queue delivers again.
  *
  * @param invisibleSeconds how long a received message stays hidden (`queueVisibilityTimeout`); renewed at
  *   half while it is still needed
  * @param listing the input's listing: the first start's, the backfill's and an `AvailableNow` run's
  * @param listedAt where the time of the last whole listing is kept (beside the file log), so a restart
  *   neither lists again nor forgets when the next backfill is due
  * @param tracked whether the file log holds a path (full form): a file listed by the backfill that it does
  *   not hold, and no event announced, is one the events missed
  */
private[sparkdrill] final class EventSource(
    definition: StreamDefinition,
    own: Seq[Path],
    session: StreamSession,
    queue: EventQueue,
    invisibleSeconds: Int,
    listing: FileSource,
    listedAt: Path,
    tracked: String => Boolean
) extends FileSource {
  import EventSource._

  private val conf = definition.conf
  private val backfillMillis = definition.settings.backfillIntervalMillis
  private val fs = listedAt.getFileSystem(conf)
  private val scheme = new Path(definition.root).toUri.getScheme

  /** A file an event (or a listing) offered and no micro-batch took yet, and the messages that named it. */
  private final class Waiting(val file: ScanFile, var fromListing: Boolean) {
    val handles = mutable.ArrayBuffer.empty[String]
  }

  /** A received message: how many of its files still wait, the last batch that took one, when it was last
    * kept invisible.
    */
  private final class Received(var waiting: Int, var batch: Long, var invisibleSince: Long)

  private val waiting = mutable.LinkedHashMap.empty[String, Waiting]
  private val received = mutable.HashMap.empty[String, Received]
  private var committedThrough = -1L

  // The last whole listing's time: read once, from beside the file log; None before the first.
  private var lastListing: Option[Long] = readListedAt()
  // A whole listing whose files are not all taken yet: its time is kept only once they are (a crash before
  // that lists again).
  private var unsavedListing: Option[Long] = None

  var lastCount = 0
  var lastMillis = 0L
  private var eventsReceived = 0L
  private var eventsIgnored = 0L
  private var foundByBackfill = 0L
  private var queueSize: Option[Long] = None

  override def offered(): IndexedSeq[ScanFile] = {
    val started = System.nanoTime()
    val now = System.currentTimeMillis()
    lastCount = 0
    if (lastListing.forall(last => backfillMillis.exists(now - last >= _))) wholeListing(now)
    receiveAll(now)
    keepWaitingInvisible(now)
    queueSize = Try(queue.approximateSize()).toOption.flatten
    lastMillis = (System.nanoTime() - started) / 1000000
    waiting.valuesIterator.map(_.file).toIndexedSeq
  }

  /** A whole listing (a first start without the existing files, an `AvailableNow` run's start): its files not
    * read yet are offered from now on too.
    */
  override def all(): IndexedSeq[ScanFile] = wholeListing(System.currentTimeMillis())

  override def notTaken(files: Seq[ScanFile]): Unit = ()

  override def logged(batch: Long, files: Seq[ScanFile]): Unit = {
    files.foreach(f => done(f.path, batch))
    afterSettling()
  }

  override def passedOver(files: Seq[ScanFile], lastLogged: Long, lastCommitted: Long): Unit = {
    committedThrough = math.max(committedThrough, lastCommitted)
    files.foreach(f => done(f.path, lastLogged))
    afterSettling()
  }

  override def committed(batch: Long): Unit = {
    committedThrough = math.max(committedThrough, batch)
    deleteDone()
  }

  // Counted since the previous progress report, not per trigger: Spark reports a trigger that read nothing
  // only now and then, and the events such a trigger received (ignored ones, say) must still be counted once.
  override def metrics: Map[String, String] = {
    val reported = Map(
      "numEventsReceived" -> eventsReceived.toString,
      "numEventsIgnored" -> eventsIgnored.toString,
      "numFilesFoundByBackfill" -> foundByBackfill.toString
    ) ++ queueSize.map(n => "approximateQueueSize" -> n.toString)
    eventsReceived = 0
    eventsIgnored = 0
    foundByBackfill = 0
    reported
  }

  override def close(): Unit = Try(queue.close())

  private def wholeListing(now: Long): IndexedSeq[ScanFile] = {
    val files = listing.all()
    val first = lastListing.isEmpty && unsavedListing.isEmpty
    var found = 0
    files.foreach { f =>
      if (!waiting.contains(f.path) && !tracked(f.path)) {
        waiting(f.path) = new Waiting(f, fromListing = true)
        if (!first) found += 1
      }
    }
    foundByBackfill += found
    if (found > 0)
      log.warn(
        s"spark-drill: the backfill listing of ${definition.path} found $found files no event announced"
      )
    lastCount = listing.lastCount
    lastListing = Some(now)
    unsavedListing = Some(now)
    afterSettling()
    files
  }

  // Receives until the queue has nothing more now, or for at most MaxReceiveCalls calls (the rest waits for
  // the next trigger).
  private def receiveAll(now: Long): Unit = {
    var calls = 0
    var more = true
    while (more && calls < MaxReceiveCalls) {
      val messages = queue.receive(SqsQueue.MaxBatch, invisibleSeconds)
      calls += 1
      more = messages.nonEmpty
      val named = messages.map(m => m -> namedFiles(m))
      val paths = named.flatMap(_._2).distinct
      val statuses = paths.zip(headAll(paths)).collect { case (p, Some(s)) => p -> s }.toMap
      val selected = eligible(statuses.values.toSeq).map(f => f.path -> f).toMap
      val nothingToRead = Seq.newBuilder[String]
      named.foreach { case (m, paths) =>
        val files =
          paths.flatMap(p => statuses.get(p).flatMap(s => selected.get(s.getPath.toString))).distinct
        eventsIgnored += paths.size - files.size
        if (files.isEmpty) nothingToRead += m.handle
        else {
          received(m.handle) = new Received(files.size, -1L, now)
          files.foreach(f =>
            waiting.getOrElseUpdate(f.path, new Waiting(f, fromListing = false)).handles += m.handle
          )
        }
      }
      val done = nothingToRead.result()
      if (done.nonEmpty) queue.delete(done)
    }
  }

  // The full paths a message names (events of created objects), counting the rest as ignored.
  private def namedFiles(m: QueueMessage): Seq[String] =
    FileEvents.parse(m.body) match {
      case EventMessage.Objects(events) =>
        eventsReceived += events.size
        val created = events.filter(_.created)
        eventsIgnored += events.size - created.size
        created.map(e => new Path(new URI(scheme, e.bucket, "/" + e.key, null)).toString).distinct
      case EventMessage.TestEvent =>
        eventsReceived += 1
        eventsIgnored += 1
        Nil
      case EventMessage.Unknown(reason) =>
        eventsReceived += 1
        eventsIgnored += 1
        log.warn(
          s"spark-drill: a message on the queue of ${definition.path} is not a file event ($reason): deleted"
        )
        Nil
    }

  // The files' statuses now (a HEAD each, a few at once); None for a file gone since its event.
  private def headAll(paths: Seq[String]): Seq[Option[FileStatus]] =
    DriverThreads.map(paths) { p =>
      val path = new Path(p)
      try Some(path.getFileSystem(conf).getFileStatus(path))
      catch { case _: FileNotFoundException => None }
    }

  // Of announced files, those the listing rules take (SPEC 11.1: as a listing of the input would).
  private def eligible(statuses: Seq[FileStatus]): Seq[ScanFile] =
    StreamFiles.eligible(
      FileLister.select(Seq(definition.path), statuses, conf, definition.options, session.zone),
      own,
      conf
    )

  // A file is no longer waiting: taken into `batch`, or passed over as read before (its messages are done
  // when the last logged batch commits).
  private def done(path: String, batch: Long): Unit =
    waiting.remove(path).foreach { w =>
      w.handles.foreach { h =>
        received.get(h).foreach { r =>
          r.waiting -= 1
          r.batch = math.max(r.batch, batch)
        }
      }
    }

  private def afterSettling(): Unit = {
    deleteDone()
    if (unsavedListing.nonEmpty && !waiting.valuesIterator.exists(_.fromListing)) {
      writeListedAt(unsavedListing.get)
      unsavedListing = None
    }
  }

  // Deletes the messages whose files are all in committed micro-batches.
  private def deleteDone(): Unit = {
    val ready = received.collect { case (h, r) if r.waiting <= 0 && r.batch <= committedThrough => h }.toSeq
    if (ready.nonEmpty) {
      queue.delete(ready)
      ready.foreach(received.remove)
    }
  }

  // Messages still needed are kept invisible: renewed once half their invisibility has passed.
  private def keepWaitingInvisible(now: Long): Unit = {
    val due = received.collect { case (h, r) if now - r.invisibleSince >= invisibleSeconds * 500L => h }.toSeq
    if (due.nonEmpty) {
      try queue.keepInvisible(due, invisibleSeconds)
      catch {
        // A handle of a message delivered again meanwhile is refused: that delivery's handle takes over.
        case NonFatal(e) => log.warn(s"spark-drill: keeping queue messages invisible failed: ${e.getMessage}")
      }
      due.foreach(h => received(h).invisibleSince = now)
    }
  }

  private def readListedAt(): Option[Long] =
    try {
      val in = fs.open(listedAt)
      try Some(new String(IOUtils.toByteArray(in), StandardCharsets.US_ASCII).trim.toLong)
      finally in.close()
    } catch {
      case _: FileNotFoundException => None
      // A write cut short by a crash: as if never listed (the next trigger lists again; the file log
      // keeps it from reading anything twice).
      case _: NumberFormatException => None
    }

  private def writeListedAt(time: Long): Unit = {
    val out = fs.create(listedAt, true)
    try out.write(time.toString.getBytes(StandardCharsets.US_ASCII))
    finally out.close()
  }
}

private[sparkdrill] object EventSource {
  private val log = LoggerFactory.getLogger(classOf[EventSource])

  /** At most this many receive calls (10 messages each) per trigger: the rest waits for the next one. */
  val MaxReceiveCalls = 100
}
