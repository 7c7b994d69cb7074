package sparkdrill.stream.state

/** A batch as the state files hold it: its id and the files it read (possibly none). */
private[sparkdrill] final case class LoggedBatch(id: Long, files: Seq[TrackedFile])
