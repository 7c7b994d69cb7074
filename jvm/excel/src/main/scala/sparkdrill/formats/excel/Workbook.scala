package sparkdrill.formats.excel

import java.io.{File, InputStream}
import java.nio.file.{Files, StandardCopyOption}

import scala.collection.mutable.ArrayBuffer

import org.apache.poi.openxml4j.opc.{OPCPackage, PackageAccess, PackagePart}
import org.apache.poi.poifs.filesystem.FileMagic
import org.apache.poi.xssf.eventusermodel.XSSFReader

import sparkdrill.reader.FileInput

/** An open `.xlsx`/`.xlsm` workbook, read through POI's streaming XSSF API: the package (a zip, opened from a
  * local copy so that POI reads each part from disk on demand, never the whole archive into memory),
  * its sheets by name in workbook order, its shared strings, cell styles and date system. A sheet is read
  * as a stream ([[SheetRows]]); only the shared strings are held whole, as every reader of the format does.
  */
private[excel] final class Workbook private (
    copy: File,
    pkg: OPCPackage,
    val sheetNames: IndexedSeq[String],
    sheetParts: IndexedSeq[PackagePart],
    val strings: IndexedSeq[String],
    val styles: CellStyles,
    val date1904: Boolean
) extends AutoCloseable {

  /** The XML of the sheet `i` (of [[sheetNames]]), from its start; the caller closes it. */
  def openSheet(i: Int): InputStream = sheetParts(i).getInputStream

  def close(): Unit =
    try pkg.revert() // read-only: closes the zip without writing anything back
    finally { copy.delete(); () }
}

private[excel] object Workbook {

  /** Why a file is not a workbook this format reads: the text of its malformed-file error. */
  final class Unreadable(val reason: String, cause: Throwable)
      extends java.io.IOException(reason, cause) // an IOException: `ignoreCorruptFiles` skips it

  /** Opens `file`, or throws [[Unreadable]] naming why it is not a readable workbook. */
  def open(file: FileInput): Workbook = {
    val copy = File.createTempFile("spark-drill-excel-", ".xlsx")
    try {
      val in = file.open()
      try Files.copy(in, copy.toPath, StandardCopyOption.REPLACE_EXISTING)
      finally in.close()
      FileMagic.valueOf(copy) match {
        case FileMagic.OOXML => ()
        case FileMagic.OLE2 =>
          throw new Unreadable("an encrypted workbook, or an .xls workbook (OLE2) under an .xlsx name", null)
        case other => throw new Unreadable(s"not a workbook (its bytes read as ${other.name})", null)
      }
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
          throw new Unreadable(s"a damaged workbook (${e.getClass.getSimpleName}: ${e.getMessage})", e)
      }
    } catch {
      case e: Throwable => copy.delete(); throw e
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
    new Workbook(copy, pkg, names.toIndexedSeq, parts.toIndexedSeq, strings, styles, date1904)
  }

  private def optional(part: => InputStream): Option[InputStream] =
    try Option(part)
    catch { case _: org.apache.poi.openxml4j.exceptions.InvalidFormatException => None }
}
