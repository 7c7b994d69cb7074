package sparkdrill.formats.excel

import java.util.Locale

import scala.collection.mutable

import org.slf4j.LoggerFactory

import sparkdrill.reader.ReaderOptions

/** One selected sheet of a workbook: where it is, the range read, and its column names (SPEC 13) when the
  * first row of the range names them (`header`), with the row that does; headerless sheets name columns by
  * position in the range, `_c0, _c1, ...`.
  */
private[excel] final case class SheetLayout(
    index: Int,
    name: String,
    address: DataAddress,
    header: Option[IndexedSeq[String]],
    headerRow: Int
) {

  /** The hidden `sheet` column's value for this sheet's rows (one instance, not one per row). */
  val named: Option[String] = Some(name)

  /** The column of the range's `k`th column (0-based from its first), or None past a header's last name. */
  def columnName(k: Int): Option[String] = header match {
    case Some(names) => if (k < names.length) Some(names(k)) else None
    case None => Some(SheetLayout.positional(k))
  }
}

private[excel] object SheetLayout {
  private val log = LoggerFactory.getLogger(getClass)

  def positional(k: Int): String = s"_c$k"

  /** The selected sheets of `workbook` under `options`, each with its header read. A sheet `sheet` names
    * (not a glob) that the workbook lacks gives no rows and a warning naming it.
    */
  def of(workbook: Workbook, options: ReaderOptions, path: String): IndexedSeq[SheetLayout] = {
    val address = options.get(ExcelOptions.DataAddress).map(DataAddress.parse).getOrElse(DataAddress.Whole)
    val selection = SheetSelection.of(options.get(ExcelOptions.Sheet), address)
    val selected = selection.select(workbook.sheetNames)
    if (selected.isEmpty && selection.pattern.isDefined)
      log.warn(
        s"$path: no sheet named ${selection.pattern.get} (it has ${workbook.sheetNames.mkString(", ")})"
      )
    val header = ExcelOptions.header(options)
    selected.map { name =>
      val index = workbook.sheetNames.indexOf(name)
      val range = if (address.sheet.forall(SheetSelection.sameName(_, name))) address else DataAddress.Whole
      if (!header) SheetLayout(index, name, range, None, -1)
      else {
        val (names, row) =
          try readHeader(workbook, index, range)
          catch {
            case e: Workbook.Unreadable => throw e
            case e: Exception => throw Workbook.damaged(e, s" in sheet '$name'")
          }
        SheetLayout(index, name, range, Some(names), row)
      }
    }.toIndexedSeq
  }

  // The first row of the range holding a value names the columns, as Excel shows them: blank -> _c<N> (N
  // its 0-based position in the range), repeats (ignoring case) suffixed _2, _3, ...
  private def readHeader(workbook: Workbook, index: Int, range: DataAddress): (IndexedSeq[String], Int) = {
    val rows = workbook.rows(index, range)
    try
      if (!rows.next()) (Vector.empty, -1)
      else {
        val shown = new CellValues(workbook.styles, workbook.date1904, allText = true)
        val raw = mutable.ArrayBuffer.empty[String]
        var i = 0
        while (i < rows.count) {
          val k = rows.column(i) - range.firstColumn
          while (raw.length <= k) raw += ""
          raw(k) = Option(shown.text(rows.kind(i), rows.value(i), rows.style(i))).getOrElse("")
          i += 1
        }
        (clean(raw.toIndexedSeq), rows.row)
      }
    finally rows.close()
  }

  def clean(raw: IndexedSeq[String]): IndexedSeq[String] = {
    val taken = mutable.HashSet.empty[String]
    raw.zipWithIndex.map { case (text, k) =>
      val base = if (text.trim.isEmpty) positional(k) else text.trim
      var name = base
      var n = 2
      while (taken.contains(name.toLowerCase(Locale.ROOT))) { name = s"${base}_$n"; n += 1 }
      taken += name.toLowerCase(Locale.ROOT)
      name
    }
  }
}
