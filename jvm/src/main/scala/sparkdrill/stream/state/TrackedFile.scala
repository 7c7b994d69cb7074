package sparkdrill.stream.state

/** One file a micro-batch read. `path` is relative to the stream's input root when under it (so the state
  * moves with the checkpoint), else the full URI string (StreamPaths says which is which).
  *
  * @param discoveredAtMillis when the stream first saw the file (the first trigger that offered it, as far
  *   as this run knows, else when it was read); None in a state an older spark-drill wrote
  */
private[sparkdrill] final case class TrackedFile(
    path: String,
    length: Long,
    modificationTime: Long,
    batchId: Long,
    readAtMillis: Long,
    discoveredAtMillis: Option[Long] = None
)
