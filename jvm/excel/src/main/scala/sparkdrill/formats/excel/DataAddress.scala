package sparkdrill.formats.excel

import sparkdrill.errors.DrillErrors

/** A `dataAddress` (SPEC 13): an optional sheet and a range of it, `'Q3 sales'!B3:H200`, `B3:H` (to the last
  * row), `B3` (to the last row and column). Rows and columns are 0-based here; an open end is `Int.MaxValue`.
  */
private[excel] final case class DataAddress(
    sheet: Option[String],
    firstRow: Int,
    firstColumn: Int,
    lastRow: Int,
    lastColumn: Int
) {
  def holdsRow(row: Int): Boolean = row >= firstRow && row <= lastRow
  def holdsColumn(column: Int): Boolean = column >= firstColumn && column <= lastColumn
}

private[excel] object DataAddress {
  val Whole: DataAddress = DataAddress(None, 0, 0, Int.MaxValue, Int.MaxValue)

  private val Cell = """([A-Za-z]{1,3})(\d+)""".r
  private val Column = """([A-Za-z]{1,3})""".r
  private val Takes = "'Sheet name'!B3, B3:H200 or B3:H"

  def parse(text: String): DataAddress = {
    val bang = text.lastIndexOf('!')
    val (sheet, range) =
      if (bang < 0) (None, text.trim)
      else (Some(unquote(text.substring(0, bang).trim)), text.substring(bang + 1).trim)
    def bad = DrillErrors.badOptionValue(ExcelOptions.DataAddress.name, text, Takes)
    val (firstRow, firstColumn) = range.split(':').head match {
      case Cell(c, r) if r.toInt > 0 => (r.toInt - 1, columnIndex(c))
      case _ => throw bad
    }
    val (lastRow, lastColumn) = range.split(':').toSeq match {
      case Seq(_) => (Int.MaxValue, Int.MaxValue)
      case Seq(_, Cell(c, r)) if r.toInt > 0 => (r.toInt - 1, columnIndex(c))
      case Seq(_, Column(c)) => (Int.MaxValue, columnIndex(c))
      case _ => throw bad
    }
    if (lastRow < firstRow || lastColumn < firstColumn || sheet.exists(_.isEmpty)) throw bad
    DataAddress(sheet, firstRow, firstColumn, lastRow, lastColumn)
  }

  /** `'It''s'` -> `It's`: Excel quotes a sheet name with spaces or punctuation, doubling its quotes. */
  private def unquote(s: String): String =
    if (s.length >= 2 && s.head == '\'' && s.last == '\'') s.substring(1, s.length - 1).replace("''", "'")
    else s

  /** `A` -> 0, `Z` -> 25, `AA` -> 26. */
  def columnIndex(letters: String): Int =
    letters.foldLeft(0)((n, c) => n * 26 + (Character.toUpperCase(c) - 'A' + 1)) - 1

  /** The 0-based column of a cell reference (`BC12` -> 54), or -1 when it has no letters. */
  def columnOf(reference: String): Int = {
    var n = 0
    var i = 0
    while (i < reference.length && Character.isLetter(reference.charAt(i))) {
      n = n * 26 + (Character.toUpperCase(reference.charAt(i)) - 'A' + 1)
      i += 1
    }
    n - 1
  }
}
