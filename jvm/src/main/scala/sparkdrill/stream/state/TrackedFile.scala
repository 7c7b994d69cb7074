package sparkdrill.stream.state

/** One file a micro-batch read. `path` is relative to the stream's input root when under it (so the state
  * moves with the checkpoint), else the full URI string (StreamPaths says which is which).
  */
private[sparkdrill] final case class TrackedFile(
    path: String,
    length: Long,
    modificationTime: Long,
    batchId: Long,
    readAtMillis: Long
)
