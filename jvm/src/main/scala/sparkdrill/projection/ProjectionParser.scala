package sparkdrill.projection

import scala.collection.immutable.SortedSet
import sparkdrill.errors.DrillErrors

/** Parses Drill projection lists (the `project` option):
  * {{{
  * list    := (item (',' item)*)?          an empty list is count(*)
  * item    := '*' | path
  * path    := segment ('.' segment)* ('[' digits ']')?
  * segment := identifier | '`' (any char, '``' for a backtick)* '`'
  * }}}
  * Identifiers are letters, digits, `_` and `$`; anything else must be quoted. Whitespace is allowed around
  * items and commas. Names compare case-insensitively: `A, a` is a duplicate.
  */
private[sparkdrill] object ProjectionParser {
  def isIdentChar(c: Char): Boolean = Character.isLetterOrDigit(c) || c == '_' || c == '$'

  def parse(list: String): Projection = new Parser(list).parseList()

  private final class Parser(s: String) {
    private var pos = 0

    private def fail(reason: String, at: Int = pos): Nothing =
      throw DrillErrors.projectionSyntax(reason, s, at)
    private def atEnd: Boolean = pos >= s.length
    private def peek: Char = s.charAt(pos)
    private def skipSpaces(): Unit = while (!atEnd && Character.isWhitespace(peek)) pos += 1

    def parseList(): Projection = {
      skipSpaces()
      if (atEnd) return Projection.empty
      val items = Vector.newBuilder[(ProjectionItem, Int)]
      var more = true
      while (more) {
        skipSpaces()
        val start = pos
        items += parseItem() -> start
        skipSpaces()
        if (atEnd) more = false
        else if (peek == ',') pos += 1
        else fail(s"expected ',' or the end of the list, found '$peek'")
      }
      build(items.result())
    }

    /** Merges same-named columns in list order; a second `*` or a repeated path is an error at its place. */
    private def build(items: Vector[(ProjectionItem, Int)]): Projection = {
      var out = Vector.empty[ProjectionItem]
      items.foreach {
        case (ProjectionItem.Wildcard, at) =>
          if (out.contains(ProjectionItem.Wildcard)) fail("'*' appears twice", at)
          out :+= ProjectionItem.Wildcard
        case (item: ProjectionItem.Column, at) =>
          out.indexWhere {
            case c: ProjectionItem.Column => c.column.matches(item.column.name)
            case ProjectionItem.Wildcard => false
          } match {
            case -1 => out :+= item
            case i =>
              val prev = out(i).asInstanceOf[ProjectionItem.Column]
              RequestedColumn.merge(prev.column, item.column) match {
                case Right(merged) => out = out.updated(i, prev.copy(column = merged))
                case Left(reason) => fail(reason, at)
              }
          }
      }
      Projection(out)
    }

    private def parseItem(): ProjectionItem = {
      if (atEnd) fail("expected a column name or '*'")
      if (peek == '*') {
        pos += 1
        ProjectionItem.Wildcard
      } else ProjectionItem.Column(parsePath())
    }

    private def parsePath(): RequestedColumn = {
      val names = Vector.newBuilder[String]
      names += parseSegment()
      while (!atEnd && peek == '.') {
        pos += 1
        if (!atEnd && peek == '*') fail("'*' is only allowed alone, not as a member ('m.*')")
        names += parseSegment()
      }
      val index = if (!atEnd && peek == '[') Some(parseIndex()) else None
      if (!atEnd && (peek == '[' || peek == '.'))
        fail(if (peek == '[') "only one index is supported ('c[1]')" else "a member cannot follow an index")
      val path = names.result()
      val leafShape = index.fold[Shape](Shape.Whole)(i => Shape.Indexes(SortedSet(i)))
      path.init.foldRight(RequestedColumn(path.last, leafShape)) { (parent, child) =>
        RequestedColumn(parent, Shape.Members(Seq(child)))
      }
    }

    private def parseSegment(): String = {
      if (atEnd) fail("expected a column name")
      if (peek == '`') parseQuoted()
      else {
        val start = pos
        while (!atEnd && isIdentChar(peek)) pos += 1
        if (pos == start)
          fail(s"expected a column name, found '$peek' (quote names with other characters in backticks)")
        s.substring(start, pos)
      }
    }

    private def parseQuoted(): String = {
      val open = pos
      pos += 1
      val sb = new StringBuilder
      var closed = false
      while (!closed) {
        if (atEnd) fail("unterminated backtick-quoted name", open)
        if (peek == '`') {
          if (pos + 1 < s.length && s.charAt(pos + 1) == '`') { sb += '`'; pos += 2 }
          else { pos += 1; closed = true }
        } else { sb += peek; pos += 1 }
      }
      if (sb.isEmpty) fail("empty column name", open)
      sb.result()
    }

    private def parseIndex(): Int = {
      pos += 1 // '['
      skipSpaces()
      val start = pos
      while (!atEnd && Character.isDigit(peek)) pos += 1
      if (pos == start) fail("expected a non-negative array index")
      val index =
        scala.util.Try(s.substring(start, pos).toInt).getOrElse(fail("array index too large", start))
      skipSpaces()
      if (atEnd || peek != ']') fail("expected ']'")
      pos += 1
      index
    }
  }
}
