package sparkdrill.formats.excel

import java.io.{File, InputStream}

import scala.collection.mutable.ArrayBuffer

import org.apache.poi.openxml4j.opc.{OPCPackage, PackageAccess, PackagePart}
import org.apache.poi.xssf.eventusermodel.XSSFReader

/** An open `.xlsx`/`.xlsm` workbook, read through POI's streaming XSSF API: the package (a zip, opened from a
  * local copy so that POI reads each part from disk on demand, never the whole archive into memory),
  * its sheets by name in workbook order, its shared strings, cell styles and date system. A sheet is read
  * as a stream ([[SheetRows]]); only the shared strings are held whole, as every reader of the format does.
  */
private[excel] final class XlsxWorkbook private (
    copy: File,
    pkg: OPCPackage,
    val sheetNames: IndexedSeq[String],
    sheetParts: IndexedSeq[PackagePart],
    strings: IndexedSeq[String],
    val styles: CellStyles,
    val date1904: Boolean
) extends Workbook {

  def rows(i: Int, address: DataAddress): SheetCells =
    new SheetRows(sheetParts(i).getInputStream, strings, address)

  def close(): Unit =
    try pkg.revert() // read-only: closes the zip without writing anything back
    finally { copy.delete(); () }
}

private[excel] object XlsxWorkbook {
  import Workbook.Unreadable

  /** Opens the local `copy` of an OOXML package (the caller deletes it if this throws). */
  def open(copy: File): Workbook = {
    val pkg =
      try OPCPackage.open(copy, PackageAccess.READ)
      catch {
        case e: Exception => throw new Unreadable(s"a damaged workbook archive (${e.getMessage})", e)
      }
    try fromPackage(copy, pkg)
    catch {
      case e: Unreadable => pkg.revert(); throw e
      case e: Exception =>
        pkg.revert()
        throw Workbook.damaged(e, "")
    }
  }

  private def fromPackage(copy: File, pkg: OPCPackage): Workbook = {
    val reader = new XSSFReader(pkg)
    val names = ArrayBuffer.empty[String]
    val parts = ArrayBuffer.empty[PackagePart]
    val sheets = reader.getSheetsData.asInstanceOf[XSSFReader.SheetIterator]
    while (sheets.hasNext) {
      sheets.next().close() // opened by the iterator; read later, from its part
      names += sheets.getSheetName
      parts += sheets.getSheetPart
    }
    // Parts a workbook may lack: no shared strings when every text is inline, no styles from some writers.
    val strings =
      optional(reader.getSharedStringsData).map(WorkbookParts.sharedStrings).getOrElse(Vector.empty)
    val styles = optional(reader.getStylesData).map(WorkbookParts.styles).getOrElse(CellStyles.Plain)
    val date1904 = WorkbookParts.date1904(reader.getWorkbookData)
    new XlsxWorkbook(copy, pkg, names.toIndexedSeq, parts.toIndexedSeq, strings, styles, date1904)
  }

  private def optional(part: => InputStream): Option[InputStream] =
    try Option(part)
    catch { case _: org.apache.poi.openxml4j.exceptions.InvalidFormatException => None }
}
