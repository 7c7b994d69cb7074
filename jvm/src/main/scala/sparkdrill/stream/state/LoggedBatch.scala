package sparkdrill.stream.state

/** A batch as the state files hold it: its id, the files it read (possibly none), and when Spark committed
  * it where a tier holds that (None in a batch file, written before its commit, and in format 1).
  */
private[sparkdrill] final case class LoggedBatch(
    id: Long,
    files: Seq[TrackedFile],
    committedAt: Option[Long] = None
)
