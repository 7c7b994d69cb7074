package sparkdrill.stream.events

import sparkdrill.errors.DrillErrors

import org.apache.hadoop.fs.Path

import sparkdrill.stream.{FileSource, QueueSettings, StreamDefinition, StreamSession}
import sparkdrill.stream.state.StateLayout

/** Builds a stream's event source from its settings (`fileEvents`): the one place that names a queue
  * service, and the first to load its client's classes, so a missing SDK is an error saying which jar.
  */
private[sparkdrill] object EventSources {

  /** The schemes of S3 through Hadoop: the bucket notifications SQS carries name objects of these. */
  private val S3Schemes = Set("s3a", "s3", "s3n")

  def open(
      definition: StreamDefinition,
      queue: QueueSettings,
      own: Seq[Path],
      session: StreamSession,
      listing: FileSource,
      stateDir: Path,
      tracked: String => Boolean
  ): EventSource = {
    val root = new Path(definition.root).toUri
    if (root.getScheme == null || !S3Schemes(root.getScheme))
      throw DrillErrors.fileEventsNeedObjectStore(definition.path)
    val client =
      try SqsQueue.open(queue.url, root.getHost, definition.conf, queue.region, queue.endpoint)
      catch { case e: NoClassDefFoundError => throw DrillErrors.sqsClientMissing(e.getMessage) }
    new EventSource(
      definition,
      own,
      session,
      client,
      queue.visibilitySeconds,
      listing,
      new StateLayout(stateDir).eventsListedAt,
      tracked
    )
  }
}
