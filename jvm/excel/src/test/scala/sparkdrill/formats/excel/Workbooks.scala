package sparkdrill.formats.excel

import java.io.ByteArrayOutputStream
import java.time.{LocalDate, LocalDateTime}

import org.apache.poi.hssf.usermodel.HSSFWorkbook
import org.apache.poi.ss.usermodel.{CellStyle, FormulaError, Workbook => PoiWorkbook}
import org.apache.poi.ss.util.CellRangeAddress
import org.apache.poi.xssf.usermodel.XSSFWorkbook

/** Workbooks written with POI's usermodel for the tests: a sheet is rows of cells, each a Scala value. */
object Workbooks {

  /** A date or time cell shown in `format` (an Excel number format). */
  final case class Dated(value: LocalDateTime, format: String)
  object Dated {
    def day(d: LocalDate, format: String = "yyyy-mm-dd"): Dated = Dated(d.atStartOfDay(), format)
  }

  /** A formula; POI writes its cached value when the workbook is evaluated before it is written. */
  final case class Formula(expression: String)

  /** An error cell (`#DIV/0!`, `#N/A`, ...). */
  final case class Error(code: String)

  /** A range of cells merged into its first. */
  final case class Merge(sheet: String, range: String)

  final case class Sheet(name: String, rows: Seq[Seq[Any]])

  def sheet(name: String, rows: Seq[Any]*): Sheet = Sheet(name, rows)

  /** The `.xlsx` bytes; a null row is left out (a blank row), a null cell is not written. */
  def xlsx(sheets: Seq[Sheet], date1904: Boolean = false, merges: Seq[Merge] = Nil): Array[Byte] = {
    val wb = new XSSFWorkbook()
    wb.getCTWorkbook.getWorkbookPr.setDate1904(date1904)
    write(wb, sheets, merges)
  }

  /** The same sheets as an `.xls` (BIFF8) workbook. */
  def xls(sheets: Seq[Sheet], merges: Seq[Merge] = Nil): Array[Byte] =
    write(new HSSFWorkbook(), sheets, merges)

  private def write(wb: PoiWorkbook, sheets: Seq[Sheet], merges: Seq[Merge]): Array[Byte] = {
    val styles = scala.collection.mutable.HashMap.empty[String, CellStyle]
    def style(format: String): CellStyle = styles.getOrElseUpdate(
      format, {
        val s = wb.createCellStyle()
        s.setDataFormat(wb.createDataFormat().getFormat(format))
        s
      }
    )
    sheets.foreach { s =>
      val sheet = wb.createSheet(s.name)
      s.rows.zipWithIndex.foreach { case (cells, r) =>
        if (cells != null) {
          val row = sheet.createRow(r)
          cells.zipWithIndex.foreach { case (value, c) =>
            if (value != null) {
              val cell = row.createCell(c)
              value match {
                case v: String => cell.setCellValue(v)
                case v: Int => cell.setCellValue(v.toDouble)
                case v: Long => cell.setCellValue(v.toDouble)
                case v: Double => cell.setCellValue(v)
                case v: Boolean => cell.setCellValue(v)
                case Dated(v, format) => cell.setCellValue(v); cell.setCellStyle(style(format))
                case Formula(f) => cell.setCellFormula(f)
                case Error(code) => cell.setCellErrorValue(FormulaError.forString(code).getCode)
                case other => sys.error(s"no cell for $other")
              }
            }
          }
        }
      }
    }
    merges.foreach(m => wb.getSheet(m.sheet).addMergedRegion(CellRangeAddress.valueOf(m.range)))
    wb.getCreationHelper.createFormulaEvaluator().evaluateAll()
    bytes(wb)
  }

  def bytes(wb: PoiWorkbook): Array[Byte] = {
    val out = new ByteArrayOutputStream()
    try wb.write(out)
    finally wb.close()
    out.toByteArray
  }
}
