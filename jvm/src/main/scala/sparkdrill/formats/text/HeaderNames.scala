package sparkdrill.formats.text

import java.util.Locale

import scala.collection.mutable

/** Turns a header line into column names (SPEC 9.5): names are trimmed, a blank one is `column_N` (N its
  * 1-based position), and duplicates, compared case-insensitively, get `_2`, `_3`, ... Other characters are
  * kept as they are.
  */
private[sparkdrill] object HeaderNames {
  def clean(raw: Seq[String]): IndexedSeq[String] = {
    val taken = mutable.HashSet.empty[String]
    raw.zipWithIndex.map { case (name, i) =>
      val trimmed = name.trim
      val base = if (trimmed.isEmpty) s"column_${i + 1}" else trimmed
      var candidate = base
      var n = 2
      while (taken.contains(candidate.toLowerCase(Locale.ROOT))) {
        candidate = s"${base}_$n"
        n += 1
      }
      taken += candidate.toLowerCase(Locale.ROOT)
      candidate
    }.toIndexedSeq
  }
}
