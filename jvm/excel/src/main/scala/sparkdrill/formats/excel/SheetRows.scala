package sparkdrill.formats.excel

import java.io.InputStream
import javax.xml.stream.XMLStreamConstants.{END_ELEMENT, START_ELEMENT}

/** The rows of one sheet's XML (`<row><c r= t= s=><v>...`), pulled one at a time with StAX, so that memory
  * holds one row whatever the sheet's length. Only the cells of `address` count; a row with no value among
  * them is skipped (a merged area's other cells, formatted empty cells and blank strings are no values).
  *
  * A cell's kind is its `t` attribute, resolved: [[Cell.Text]] (shared, inline and formula strings), [[Cell.Number]],
  * [[Cell.Bool]], [[Cell.Error]], [[Cell.IsoDate]] (`t="d"`). A formula cell is its cached value's kind.
  */
private[excel] final class SheetRows(in: InputStream, strings: IndexedSeq[String], address: DataAddress)
    extends SheetCells {
  private val xml = WorkbookParts.reader(in)
  private var rowIndex = -1
  private var cells = 0
  private var columns = new Array[Int](16)
  private var kinds = new Array[Byte](16)
  private var values = new Array[String](16)
  private var styles = new Array[Int](16)
  private var ended = false

  /** The current row, 0-based (`_line` is one more). */
  def row: Int = rowIndex
  def count: Int = cells
  def column(i: Int): Int = columns(i)
  def kind(i: Int): Byte = kinds(i)
  def value(i: Int): String = values(i)
  def style(i: Int): Int = styles(i)

  /** Moves to the next row of the range holding a value; false at the end of the sheet or range. */
  def next(): Boolean = {
    while (!ended)
      if (!toRow()) ended = true
      else if (rowIndex > address.lastRow) ended = true
      else {
        readCells()
        if (cells > 0 && address.holdsRow(rowIndex)) return true
      }
    false
  }

  private def toRow(): Boolean = {
    while (xml.hasNext) xml.next() match {
      case START_ELEMENT if xml.getLocalName == "row" =>
        val r = WorkbookParts.attribute(xml, "r")
        rowIndex = if (r == null) rowIndex + 1 else r.toInt - 1
        return true
      case _ =>
    }
    false
  }

  // Reads the current row's cells up to its end tag, keeping those of the range that hold a value.
  private def readCells(): Unit = {
    cells = 0
    var column = -1
    var depth = 1
    while (depth > 0 && xml.hasNext) xml.next() match {
      case START_ELEMENT if xml.getLocalName == "c" =>
        val r = WorkbookParts.attribute(xml, "r")
        column = if (r == null) column + 1 else DataAddress.columnOf(r)
        val t = WorkbookParts.attribute(xml, "t")
        val s = WorkbookParts.attribute(xml, "s")
        val text = cellValue()
        if (text != null && text.nonEmpty && address.holdsColumn(column))
          keep(column, kindOf(t), if (t == "s") sharedString(text) else text, if (s == null) -1 else s.toInt)
      case START_ELEMENT => depth += 1
      case END_ELEMENT => depth -= 1
      case _ =>
    }
  }

  // The text of the cell's <v>, or of its inline string's <t>s; null when it has neither. Leaves the parser
  // at the cell's end tag.
  private def cellValue(): String = {
    var text: String = null
    var depth = 1
    var phonetic = false
    while (depth > 0) xml.next() match {
      case START_ELEMENT =>
        xml.getLocalName match {
          case "v" => text = xml.getElementText
          case "t" if !phonetic => text = (if (text == null) "" else text) + xml.getElementText
          case name =>
            if (name == "rPh") phonetic = true
            depth += 1
        }
      case END_ELEMENT =>
        if (xml.getLocalName == "rPh") phonetic = false
        depth -= 1
      case _ =>
    }
    text
  }

  private def sharedString(index: String): String = {
    val i = index.trim.toInt
    if (i < 0 || i >= strings.length) throw new java.io.IOException(s"shared string $i of ${strings.length}")
    strings(i)
  }

  private def kindOf(t: String): Byte = t match {
    case null | "n" => Cell.Number
    case "s" | "str" | "inlineStr" => Cell.Text
    case "b" => Cell.Bool
    case "e" => Cell.Error
    case "d" => Cell.IsoDate
    case other => throw new java.io.IOException(s"unknown cell type '$other'")
  }

  private def keep(column: Int, kind: Byte, text: String, style: Int): Unit = {
    if (cells == columns.length) {
      val n = cells * 2
      columns = java.util.Arrays.copyOf(columns, n)
      kinds = java.util.Arrays.copyOf(kinds, n)
      values = java.util.Arrays.copyOf(values, n)
      styles = java.util.Arrays.copyOf(styles, n)
    }
    columns(cells) = column
    kinds(cells) = kind
    values(cells) = text
    styles(cells) = style
    cells += 1
  }

  def close(): Unit =
    try xml.close()
    finally in.close()
}

/** The kinds of a cell's value. */
private[excel] object Cell {
  val Text: Byte = 0
  val Number: Byte = 1
  val Bool: Byte = 2
  val Error: Byte = 3
  val IsoDate: Byte = 4
}
