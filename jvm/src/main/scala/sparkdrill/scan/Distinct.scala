package sparkdrill.scan

import scala.collection.mutable

/** `Seq.distinctBy`, which Scala 2.12 (the Spark 3.5 jar) lacks: the first element of each key, in order. */
private[sparkdrill] object Distinct {
  def by[A, K](elements: Seq[A])(key: A => K): Vector[A] = {
    val seen = mutable.HashSet.empty[K]
    elements.iterator.filter(e => seen.add(key(e))).toVector
  }
}
