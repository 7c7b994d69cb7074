package sparkdrill.stream

import sparkdrill.scan.ScanFile
import sparkdrill.stream.state.PathIndex

/** What one trigger makes of the files it was offered (SPEC 11, "Admission").
  *
  * @param taken the next micro-batch's files, in admission order (before the schema barrier)
  * @param left eligible files past the limits, for a later trigger
  * @param heldBack files younger than `minFileAge`
  * @param changedAfterRead files read before whose length or time changed since: not read again (with
  *   `allowOverwrites` they are fresh files, and those of them taken are in `readAgain`)
  * @param readAgain the taken files read before (`allowOverwrites`)
  * @param outsideRun files that arrived after an `AvailableNow` run started: not taken in this run
  */
private[sparkdrill] final case class Admitted(
    taken: Seq[ScanFile],
    left: Seq[ScanFile],
    heldBack: Seq[ScanFile],
    changedAfterRead: Seq[ScanFile],
    outsideRun: Seq[ScanFile],
    readAgain: Seq[ScanFile] = Nil
)

/** Admission as a pure function of the files offered, what the state has seen, the time and the limits. */
private[sparkdrill] object Admission {

  /** @param seen what the file log knows of a file: [[PathIndex.Absent]], `Same` or `Changed`
    * @param inRun whether an `AvailableNow` run (if one is under way) may take the file
    * @param overwrites a file changed after it was read is read again (`allowOverwrites`)
    */
  def apply(
      offered: Seq[ScanFile],
      seen: ScanFile => Int,
      inRun: ScanFile => Boolean,
      now: Long,
      minFileAge: Long,
      maxFiles: Int,
      maxBytes: Long,
      overwrites: Boolean = false
  ): Admitted = {
    val byState = offered.groupBy(seen)
    val changed = byState.getOrElse(PathIndex.Changed, Nil)
    val fresh = byState.getOrElse(PathIndex.Absent, Nil) ++ (if (overwrites) changed else Nil)
    val (inThisRun, outsideRun) = fresh.partition(inRun)
    val (old, young) = inThisRun.partition(f => now - f.modificationTime >= minFileAge)
    val (taken, left) = StreamFiles.admit(old, maxFiles, maxBytes)
    if (!overwrites) Admitted(taken, left, young, changed, outsideRun)
    else {
      val changedPaths = changed.map(_.path).toSet
      Admitted(taken, left, young, Nil, outsideRun, taken.filter(f => changedPaths(f.path)))
    }
  }
}
