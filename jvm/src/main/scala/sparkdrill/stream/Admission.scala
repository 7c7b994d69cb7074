package sparkdrill.stream

import sparkdrill.scan.ScanFile
import sparkdrill.stream.state.PathIndex

/** What one trigger makes of the files it was offered (SPEC 11, "Admission").
  *
  * @param taken the next micro-batch's files, in admission order (before the schema barrier)
  * @param left eligible files past the limits, for a later trigger
  * @param heldBack files younger than `minFileAge`
  * @param changedAfterRead files read before whose length or time changed since: not read again
  * @param outsideRun files that arrived after an `AvailableNow` run started: not taken in this run
  */
private[sparkdrill] final case class Admitted(
    taken: Seq[ScanFile],
    left: Seq[ScanFile],
    heldBack: Seq[ScanFile],
    changedAfterRead: Seq[ScanFile],
    outsideRun: Seq[ScanFile]
)

/** Admission as a pure function of the files offered, what the state has seen, the time and the limits. */
private[sparkdrill] object Admission {

  /** @param seen what the file log knows of a file: [[PathIndex.Absent]], `Same` or `Changed`
    * @param inRun whether an `AvailableNow` run (if one is under way) may take the file
    */
  def apply(
      offered: Seq[ScanFile],
      seen: ScanFile => Int,
      inRun: ScanFile => Boolean,
      now: Long,
      minFileAge: Long,
      maxFiles: Int,
      maxBytes: Long
  ): Admitted = {
    val byState = offered.groupBy(seen)
    val fresh = byState.getOrElse(PathIndex.Absent, Nil)
    val (inThisRun, outsideRun) = fresh.partition(inRun)
    val (old, young) = inThisRun.partition(f => now - f.modificationTime >= minFileAge)
    val (taken, left) = StreamFiles.admit(old, maxFiles, maxBytes)
    Admitted(taken, left, young, byState.getOrElse(PathIndex.Changed, Nil), outsideRun)
  }
}
