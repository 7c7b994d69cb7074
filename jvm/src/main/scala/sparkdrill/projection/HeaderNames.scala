package sparkdrill.projection

import java.util.Locale

import scala.collection.mutable

/** Column names from a text header line (SPEC 9.5). */
object HeaderNames {

  /** Trims each name; a blank one becomes `column_N` (N its 1-based position); a name already taken (ignoring
    * case) gets the first free suffix `_2`, `_3`, ... So `c,c,c_2` gives `c,c_2,c_2_2` and a later `C` gives
    * `C_3`. Other characters are kept as they are.
    */
  def clean(names: Seq[String]): Seq[String] = {
    val taken = mutable.HashSet.empty[String]
    names.zipWithIndex.map { case (raw, i) =>
      val trimmed = raw.trim
      val base = if (trimmed.isEmpty) s"column_${i + 1}" else trimmed
      var name = base
      var n = 2
      while (taken.contains(name.toLowerCase(Locale.ROOT))) {
        name = s"${base}_$n"
        n += 1
      }
      taken += name.toLowerCase(Locale.ROOT)
      name
    }
  }
}
