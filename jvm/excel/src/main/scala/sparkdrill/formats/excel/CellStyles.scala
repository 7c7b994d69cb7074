package sparkdrill.formats.excel

import org.apache.poi.ss.usermodel.DateUtil

/** The number format of each cell style, and whether it shows a date or time: a numeric cell is a date in
  * Excel only by its format (SPEC 13, "dates from number formats").
  */
private[excel] final class CellStyles(formatIds: IndexedSeq[Int], formatCodes: IndexedSeq[String]) {
  private val dates: IndexedSeq[Boolean] =
    formatIds.indices.map(i => DateUtil.isADateFormat(formatIds(i), formatCodes(i)))

  /** Style `s` (a cell's `s` attribute; -1 when it has none) shows a date. */
  def isDate(s: Int): Boolean = s >= 0 && s < dates.length && dates(s)
  def formatId(s: Int): Int = if (s >= 0 && s < formatIds.length) formatIds(s) else 0
  def formatCode(s: Int): String = if (s >= 0 && s < formatCodes.length) formatCodes(s) else "General"
}

private[excel] object CellStyles {
  val Plain: CellStyles = new CellStyles(Vector.empty, Vector.empty)
}
