package sparkdrill.projection

import java.util.Locale

import scala.collection.immutable.SortedSet

import sparkdrill.loader.ProjectionFilter
import sparkdrill.errors.DrillErrors

/** What part of a column a projection asks for. A column requested several ways is merged into one shape
  * (`a.b, a.c` -> `a(b, c)`, `c[2], c[0]` -> `c[0, 2]`, `a, a.b` -> all of `a`).
  */
sealed trait Shape extends Serializable

object Shape {

  /** The whole column, whatever its type. */
  case object Whole extends Shape

  /** Only these members of a struct column (or of the structs of an array's elements or of a map's values). */
  final case class Members(columns: Seq[RequestedColumn]) extends Shape {
    require(columns.nonEmpty, "a member projection names at least one member")
    def find(name: String): Option[RequestedColumn] = columns.find(_.matches(name))
  }

  /** Only these elements of an array column (`columns[2]`): a hint, the column is still the whole array. */
  final case class Indexes(indexes: SortedSet[Int]) extends Shape
}

/** One requested column (or struct member) and the part of it wanted. */
final case class RequestedColumn(name: String, shape: Shape) {
  def matches(other: String): Boolean = name.equalsIgnoreCase(other)
  def key: String = name.toLowerCase(Locale.ROOT)

  /** Drill notation of the request, for messages: `m(a, b)`, `c[0, 2]`. */
  def describe: String = shape match {
    case Shape.Whole => RequestedColumn.quote(name)
    case Shape.Members(ms) => s"${RequestedColumn.quote(name)}(${ms.map(_.describe).mkString(", ")})"
    case Shape.Indexes(ix) => s"${RequestedColumn.quote(name)}[${ix.mkString(", ")}]"
  }
}

object RequestedColumn {
  def whole(name: String): RequestedColumn = RequestedColumn(name, Shape.Whole)

  def quote(name: String): String =
    if (name.nonEmpty && name.forall(ProjectionParser.isIdentChar)) name
    else "`" + name.replace("`", "``") + "`"

  /** Merges two requests for the same column (names equal ignoring case; the first spelling wins). Left is a
    * message when the two cannot both hold: the same path twice, or one column used as struct and as array.
    */
  def merge(a: RequestedColumn, b: RequestedColumn): Either[String, RequestedColumn] = {
    val shape: Either[String, Shape] = (a.shape, b.shape) match {
      case (Shape.Whole, Shape.Whole) => Left(s"column '${a.name}' is projected twice")
      case (Shape.Whole, _) | (_, Shape.Whole) => Right(Shape.Whole)
      case (Shape.Members(left), Shape.Members(right)) => mergeAll(left, right).map(Shape.Members(_))
      case (Shape.Indexes(left), Shape.Indexes(right)) =>
        val twice = left.intersect(right)
        if (twice.nonEmpty) Left(s"column '${a.name}[${twice.head}]' is projected twice")
        else Right(Shape.Indexes(left ++ right))
      case (Shape.Members(_), Shape.Indexes(_)) | (Shape.Indexes(_), Shape.Members(_)) =>
        Left(s"column '${a.name}' is projected both as a struct (member) and as an array (index)")
    }
    shape.map(s => RequestedColumn(a.name, s))
  }

  /** Adds each of `more` to `columns`, merging same-named ones in place (first position wins). */
  def mergeAll(
      columns: Seq[RequestedColumn],
      more: Seq[RequestedColumn]
  ): Either[String, Seq[RequestedColumn]] =
    more.foldLeft[Either[String, Vector[RequestedColumn]]](Right(columns.toVector)) { (acc, col) =>
      acc.flatMap { cols =>
        cols.indexWhere(_.matches(col.name)) match {
          case -1 => Right(cols :+ col)
          case i => merge(cols(i), col).map(cols.updated(i, _))
        }
      }
    }
}

/** One entry of a projection list. */
sealed trait ProjectionItem extends Serializable

object ProjectionItem {

  /** `*`: the table columns (and partition columns) go here. */
  case object Wildcard extends ProjectionItem

  /** A named column. `alias` is the output name when it differs from `column.name` (Spark may rename a
    * metadata column `_filename`); `metadataColumn` is true when Spark asked for it as a hidden column.
    */
  final case class Column(
      column: RequestedColumn,
      alias: Option[String] = None,
      metadataColumn: Boolean = false
  ) extends ProjectionItem {
    def outputName: String = alias.getOrElse(column.name)
  }
}

/** Drill's three projection types (R20). */
sealed trait ProjectionKind extends Serializable

object ProjectionKind {

  /** `*`, possibly with named columns beside it (`*, filename`). */
  case object All extends ProjectionKind

  /** An explicit list of columns. */
  case object Some extends ProjectionKind

  /** No columns: count(*). Readers only count rows. */
  case object Empty extends ProjectionKind
}

/** A parsed projection list: items in list order, each top-level column once (merged). */
final case class Projection(items: Seq[ProjectionItem]) {
  def kind: ProjectionKind =
    if (items.isEmpty) ProjectionKind.Empty
    else if (items.contains(ProjectionItem.Wildcard)) ProjectionKind.All
    else ProjectionKind.Some

  def hasWildcard: Boolean = kind == ProjectionKind.All
  def columnItems: Seq[ProjectionItem.Column] = items.collect { case c: ProjectionItem.Column => c }
  def columns: Seq[RequestedColumn] = columnItems.map(_.column)
  def find(name: String): Option[RequestedColumn] = columns.find(_.matches(name))

  /** The loader's filter for this projection: everything under `*`, nothing for count(*), else the tree. */
  def toFilter: ProjectionFilter = kind match {
    case ProjectionKind.All => ProjectionFilter.All
    case ProjectionKind.Empty => ProjectionFilter.None
    case ProjectionKind.Some => RequestedFilter(columns)
  }

  /** Drill notation, e.g. `*, m(a, b), c[0, 2]`. */
  def describe: String = items
    .map {
      case ProjectionItem.Wildcard => "*"
      case c: ProjectionItem.Column => c.column.describe
    }
    .mkString(", ")
}

object Projection {
  val wildcard: Projection = Projection(Seq(ProjectionItem.Wildcard))
  val empty: Projection = Projection(Nil)

  /** Builds a projection from columns given in order; same-named ones merge (see [[RequestedColumn.merge]]).
    */
  def of(columns: RequestedColumn*): Projection = {
    val merged =
      RequestedColumn.mergeAll(Nil, columns).fold(msg => throw DrillErrors.internalArgument(msg), identity)
    Projection(merged.map(ProjectionItem.Column(_)))
  }
}

/** A [[ProjectionFilter]] over a requested-column tree: a column is projected when requested; the members of
  * a column requested by member are filtered the same way, all members otherwise.
  */
final case class RequestedFilter(columns: Seq[RequestedColumn]) extends ProjectionFilter {
  private val byKey: Map[String, Shape] = columns.map(c => c.key -> c.shape).toMap

  def isProjected(name: String): Boolean = byKey.contains(name.toLowerCase(Locale.ROOT))

  def member(name: String): ProjectionFilter = byKey.get(name.toLowerCase(Locale.ROOT)) match {
    case Some(Shape.Members(ms)) => RequestedFilter(ms)
    case Some(_) => ProjectionFilter.All
    case None => ProjectionFilter.None
  }

  override def toString: String = columns.map(_.describe).mkString("RequestedFilter(", ", ", ")")
}
