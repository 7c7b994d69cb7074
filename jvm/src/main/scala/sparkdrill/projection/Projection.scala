package sparkdrill.projection

import java.util.Locale

import scala.collection.immutable.SortedSet

/** A parsed Drill projection list: what a query asks of the scan. */
sealed trait Projection extends Serializable

object Projection {

  /** `count(*)`: no column values at all. */
  case object Empty extends Projection

  /** Items in the order listed; `*` may stand among named columns (`*, filename`). */
  final case class Items(items: Seq[Item]) extends Projection {
    def hasWildcard: Boolean = items.contains(Wildcard)
    def columns: Seq[RequestedColumn] = items.collect { case c: RequestedColumn => c }
  }

  sealed trait Item extends Serializable

  /** `*`. */
  case object Wildcard extends Item
}

/** What is asked of one column: all of it, some struct members, or some array indexes.
  *
  * @param name as the list spells it (names compare case-insensitively)
  */
final case class RequestedColumn(name: String, shape: Shape) extends Projection.Item {
  def key: String = name.toLowerCase(Locale.ROOT)
}

/** How much of a column is asked for. */
sealed trait Shape extends Serializable

object Shape {

  /** The whole column (`a`). */
  case object Whole extends Shape

  /** Only these members of a struct (`m.b, m.c`). */
  final case class Members(members: Seq[RequestedColumn]) extends Shape

  /** Only these elements of an array (`columns[0], columns[2]`). */
  final case class Indexes(indexes: SortedSet[Int]) extends Shape

  /** Two requests for the same column, merged: `a` and `a.b` is all of `a`. */
  def merge(column: String, a: Shape, b: Shape): Shape = (a, b) match {
    case (Whole, _) | (_, Whole) => Whole
    case (Indexes(x), Indexes(y)) => Indexes(x ++ y)
    case (Members(x), Members(y)) => Members(RequestedColumns.mergeAll(column, x ++ y))
    case (Members(_), Indexes(_)) | (Indexes(_), Members(_)) =>
      throw new ProjectionException(
        s"column '$column' is asked for both as a struct (a.b) and an array (a[n])",
        -1
      )
  }
}

/** A projection list that cannot be read; `position` is the 0-based character where the problem is. */
final class ProjectionException(message: String, val position: Int)
    extends IllegalArgumentException(
      if (position >= 0) s"spark-drill: option 'project': $message (at character ${position + 1})"
      else s"spark-drill: option 'project': $message"
    )

object RequestedColumns {

  /** Merges requests for the same name (case-insensitive), keeping the first spelling and position. */
  def mergeAll(parent: String, columns: Seq[RequestedColumn]): Seq[RequestedColumn] =
    columns.foldLeft(Vector.empty[RequestedColumn]) { (acc, c) =>
      acc.indexWhere(_.key == c.key) match {
        case -1 => acc :+ c
        case i => acc.updated(i, acc(i).copy(shape = Shape.merge(s"$parent${c.name}", acc(i).shape, c.shape)))
      }
    }
}
