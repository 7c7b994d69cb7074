package sparkdrill.formats.excel

import java.io.File

import scala.collection.JavaConverters._

import org.apache.poi.hssf.usermodel.HSSFWorkbook
import org.apache.poi.poifs.filesystem.POIFSFileSystem
import org.apache.poi.ss.usermodel.{CellType, FormulaError, Row, Sheet}

/** An `.xls` workbook (BIFF8, an OLE2 container), read whole by POI's HSSF: the format has no streaming
  * reader worth the name, so the workbook's size is bounded by `maxWorkbookBytes` before it is opened
  * ([[Workbook.open]]). Its cells reach the reader as an `.xlsx` sheet's do: a kind, the value's text, a style.
  */
private[excel] final class XlsWorkbook private (book: HSSFWorkbook) extends Workbook {
  val sheetNames: IndexedSeq[String] = (0 until book.getNumberOfSheets).map(book.getSheetName)
  val date1904: Boolean = book.getInternalWorkbook.isUsing1904DateWindowing
  val styles: CellStyles = {
    val all = (0 until book.getNumCellStyles).map(i => book.getCellStyleAt(i))
    new CellStyles(all.map(_.getDataFormat.toInt), all.map(s => Option(s.getDataFormatString).getOrElse("")))
  }

  def rows(i: Int, address: DataAddress): SheetCells = new XlsSheetRows(book.getSheetAt(i), address)

  def close(): Unit = book.close()
}

private[excel] object XlsWorkbook {

  def open(copy: File): Workbook =
    try {
      val fs = new POIFSFileSystem(copy, true)
      // An encrypted .xlsx is an OLE2 container too, holding the encrypted package.
      if (fs.getRoot.hasEntry("EncryptionInfo")) {
        fs.close()
        throw new Workbook.Unreadable("an encrypted workbook (a password protects it)", null)
      }
      try new XlsWorkbook(new HSSFWorkbook(fs.getRoot, false))
      finally fs.close() // HSSF has read every record it needs
    } catch {
      case e: Workbook.Unreadable => throw e
      case e: org.apache.poi.EncryptedDocumentException =>
        throw new Workbook.Unreadable(s"an encrypted workbook (${e.getMessage})", e)
      case e: Exception =>
        throw new Workbook.Unreadable(
          s"not a readable .xls workbook (${e.getClass.getSimpleName}: ${e.getMessage})",
          e
        )
    }
}

/** An `.xls` sheet's rows in the range, from POI's cells. */
private final class XlsSheetRows(sheet: Sheet, address: DataAddress) extends SheetCells {
  private val rowsLeft: Iterator[Row] = sheet.rowIterator().asScala
  private var current = -1
  private val columns = scala.collection.mutable.ArrayBuffer.empty[Int]
  private val kinds = scala.collection.mutable.ArrayBuffer.empty[Byte]
  private val values = scala.collection.mutable.ArrayBuffer.empty[String]
  private val styles = scala.collection.mutable.ArrayBuffer.empty[Int]

  def row: Int = current
  def count: Int = columns.length
  def column(i: Int): Int = columns(i)
  def kind(i: Int): Byte = kinds(i)
  def value(i: Int): String = values(i)
  def style(i: Int): Int = styles(i)

  def next(): Boolean = {
    while (rowsLeft.hasNext) {
      val r = rowsLeft.next()
      if (r.getRowNum > address.lastRow) return false
      if (address.holdsRow(r.getRowNum)) {
        read(r)
        if (columns.nonEmpty) { current = r.getRowNum; return true }
      }
    }
    false
  }

  private def read(r: Row): Unit = {
    columns.clear(); kinds.clear(); values.clear(); styles.clear()
    r.cellIterator().asScala.foreach { c =>
      if (address.holdsColumn(c.getColumnIndex)) {
        val kindOf = if (c.getCellType == CellType.FORMULA) c.getCachedFormulaResultType else c.getCellType
        val cell: Option[(Byte, String)] = kindOf match {
          case CellType.NUMERIC => Some(Cell.Number -> java.lang.Double.toString(c.getNumericCellValue))
          case CellType.STRING =>
            Option(c.getStringCellValue).filter(_.nonEmpty).map(Cell.Text -> _)
          case CellType.BOOLEAN => Some(Cell.Bool -> (if (c.getBooleanCellValue) "1" else "0"))
          case CellType.ERROR => Some(Cell.Error -> FormulaError.forInt(c.getErrorCellValue).getString)
          case _ => None // BLANK: a formatted empty cell
        }
        cell.foreach { case (k, v) =>
          columns += c.getColumnIndex
          kinds += k
          values += v
          styles += c.getCellStyle.getIndex.toInt
        }
      }
    }
  }

  def close(): Unit = ()
}
