package sparkdrill.projection

import scala.collection.immutable.SortedSet
import scala.collection.mutable.ArrayBuffer

/** Parses Drill projection lists: `*`, `a`, `` `odd name` ``, `m.b.c`, `c[2]`, and lists of them. Requests
  * for one column merge into a tree (`a.b, a.c` is `a(b, c)`; `c[2], c[0]` is `c[0, 2]`; `a, a.b` is all of
  * `a`); naming the same column twice (`a, a` or `A, a`) is an error, as is anything unreadable, with the
  * character where it is.
  */
object ProjectionParser {
  val MaxIndex = 65536

  def parse(list: String): Projection = {
    val items = new Parser(list).items()
    val seen = scala.collection.mutable.HashMap.empty[String, RequestedColumn]
    var wildcards = 0
    items.foreach {
      case (Projection.Wildcard, position) =>
        wildcards += 1
        if (wildcards > 1) throw new ProjectionException("'*' is listed twice", position)
      case (c: RequestedColumn, position) =>
        seen.get(c.key) match {
          case Some(prior) if prior.shape == Shape.Whole || c.shape == Shape.Whole =>
            if (prior.shape == c.shape)
              throw new ProjectionException(s"column '${c.name}' is listed twice", position)
          case Some(prior) if overlaps(prior.shape, c.shape) =>
            throw new ProjectionException(s"column '${c.name}' is listed twice", position)
          case _ => ()
        }
        seen(c.key) =
          seen.get(c.key).map(p => p.copy(shape = Shape.merge(c.name, p.shape, c.shape))).getOrElse(c)
    }
    if (items.isEmpty) Projection.Empty
    else {
      // One item per column, at its first position, holding every request for it.
      val ordered = ArrayBuffer.empty[Projection.Item]
      val placed = scala.collection.mutable.HashSet.empty[String]
      items.foreach {
        case (Projection.Wildcard, _) => ordered += Projection.Wildcard
        case (c: RequestedColumn, _) =>
          if (placed.add(c.key)) ordered += seen(c.key)
      }
      Projection.Items(ordered.toSeq)
    }
  }

  private def overlaps(a: Shape, b: Shape): Boolean = (a, b) match {
    case (Shape.Members(x), Shape.Members(y)) =>
      x.exists(m =>
        y.exists(n =>
          n.key == m.key && (m.shape == Shape.Whole || n.shape == Shape.Whole || overlaps(m.shape, n.shape))
        )
      )
    case (Shape.Indexes(x), Shape.Indexes(y)) => x.intersect(y).nonEmpty
    case _ => false
  }

  private final class Parser(text: String) {
    private var pos = 0

    def items(): Seq[(Projection.Item, Int)] = {
      val out = ArrayBuffer.empty[(Projection.Item, Int)]
      skipSpace()
      if (pos == text.length) return Nil
      out += item()
      skipSpace()
      while (pos < text.length) {
        expect(',')
        skipSpace()
        out += item()
        skipSpace()
      }
      out.toSeq
    }

    private def item(): (Projection.Item, Int) = {
      val start = pos
      if (peek == '*') { pos += 1; (Projection.Wildcard, start) }
      else (path(), start)
    }

    private def path(): RequestedColumn = {
      val name = segment()
      skipSpace()
      if (pos < text.length && peek == '.') {
        pos += 1
        skipSpace()
        RequestedColumn(name, Shape.Members(Seq(path())))
      } else if (pos < text.length && peek == '[') {
        val indexes = ArrayBuffer.empty[Int]
        while (pos < text.length && peek == '[') {
          pos += 1
          skipSpace()
          indexes += index()
          skipSpace()
          expect(']')
          skipSpace()
          if (pos < text.length && (peek == '[' || peek == '.'))
            throw new ProjectionException(
              s"column '$name': only one index or member is supported after an index",
              pos
            )
        }
        RequestedColumn(name, Shape.Indexes(SortedSet(indexes.toSeq: _*)))
      } else RequestedColumn(name, Shape.Whole)
    }

    private def index(): Int = {
      val start = pos
      while (pos < text.length && peek.isDigit) pos += 1
      if (start == pos) throw new ProjectionException("an array index must be a number", start)
      val n = BigInt(text.substring(start, pos))
      if (n > MaxIndex) throw new ProjectionException(s"array index $n is larger than $MaxIndex", start)
      n.toInt
    }

    private def segment(): String = {
      val start = pos
      if (pos < text.length && peek == '`') {
        pos += 1
        val sb = new StringBuilder
        while (
          pos < text.length && !(peek == '`' && !(pos + 1 < text.length && text.charAt(pos + 1) == '`'))
        ) {
          if (peek == '`') pos += 1 // a doubled backtick is one backtick
          sb.append(peek)
          pos += 1
        }
        if (pos >= text.length) throw new ProjectionException("a quoted name is never closed", start)
        pos += 1
        if (sb.isEmpty) throw new ProjectionException("a column name is empty", start)
        sb.toString
      } else {
        while (pos < text.length && isNameChar(peek)) pos += 1
        if (start == pos)
          throw new ProjectionException(
            if (pos < text.length) s"expected a column name, found '$peek'"
            else "expected a column name at the end",
            start
          )
        text.substring(start, pos)
      }
    }

    private def isNameChar(c: Char): Boolean =
      !c.isWhitespace && c != ',' && c != '.' && c != '[' && c != ']' && c != '`' && c != '*'

    private def peek: Char = text.charAt(pos)

    private def expect(c: Char): Unit = {
      if (pos >= text.length) throw new ProjectionException(s"expected '$c' at the end", pos)
      if (peek != c) throw new ProjectionException(s"expected '$c', found '$peek'", pos)
      pos += 1
    }

    private def skipSpace(): Unit = while (pos < text.length && text.charAt(pos).isWhitespace) pos += 1
  }
}
