package sparkdrill.scan.schema

import sparkdrill.reader.TypeLattice.{Arr, Kind, MapOf, Struct}

/** Where map inference made a discovered column's objects maps (SPEC 5), for `sd.describe`: the paths of its
  * maps (`properties`, `properties{value}.items`), outermost first. Discovery gives a map only for objects of
  * more than `mapInferenceThreshold` keys (no format discovers maps of its own), so every map of a
  * discovered column is one.
  */
private[schema] object InferredMaps {
  def paths(column: String, kind: Kind): Vector[String] = kind match {
    case Struct(fs) => fs.flatMap { case (n, k) => paths(s"$column.$n", k) }
    case Arr(e) => paths(s"$column[]", e)
    case MapOf(_, v) => column +: paths(s"$column{value}", v)
    case _ => Vector.empty
  }
}
