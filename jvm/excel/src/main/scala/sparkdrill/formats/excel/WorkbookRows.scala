package sparkdrill.formats.excel

/** The rows of a workbook's selected sheets, sheet after sheet, header rows left out. An error of the XML
  * while a sheet is read (a damaged part, a zip bomb POI refuses) is a [[Workbook.Unreadable]].
  */
private[excel] final class WorkbookRows(workbook: Workbook, sheets: IndexedSeq[SheetLayout])
    extends AutoCloseable {
  private var at = -1
  private var rows: SheetCells = _

  def sheet: SheetLayout = sheets(at)

  /** The current row's cells. */
  def cells: SheetCells = rows

  def next(): Boolean =
    try {
      var found = false
      while (!found && (rows != null || at + 1 < sheets.length)) {
        if (rows == null) {
          at += 1
          rows = workbook.rows(sheet.index, sheet.address)
        }
        if (!rows.next()) nextSheet()
        else found = rows.row != sheet.headerRow
      }
      found
    } catch {
      case e: Workbook.Unreadable => throw e
      case e: Exception =>
        val where = if (at >= 0 && at < sheets.length) s" in sheet '${sheet.name}'" else ""
        throw Workbook.damaged(e, where)
    }

  /** Leaves the rest of the current sheet unread. */
  def nextSheet(): Unit = if (rows != null) {
    try rows.close()
    finally rows = null
  }

  def close(): Unit = nextSheet()
}
