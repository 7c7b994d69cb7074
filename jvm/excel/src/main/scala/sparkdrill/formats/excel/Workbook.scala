package sparkdrill.formats.excel

import java.io.File
import java.nio.file.{Files, StandardCopyOption}

import org.apache.poi.poifs.filesystem.FileMagic

import sparkdrill.errors.ErrorContext
import sparkdrill.reader.FileInput

/** An open workbook: its sheets by name in workbook order, the number formats of its cell styles, its date
  * system, and each sheet's rows ([[SheetCells]]). `.xlsx`/`.xlsm` are [[XlsxWorkbook]] (a sheet streamed);
  * `.xls` is [[XlsWorkbook]] (read whole, within `maxWorkbookBytes`).
  */
private[excel] trait Workbook extends AutoCloseable {
  def sheetNames: IndexedSeq[String]
  def styles: CellStyles
  def date1904: Boolean

  /** The rows of sheet `i` (of [[sheetNames]]) within `address`, from the first; the caller closes them. */
  def rows(i: Int, address: DataAddress): SheetCells
}

private[excel] object Workbook {

  /** Why a file is not a workbook this format reads: the text of its malformed-file error. */
  final class Unreadable(val reason: String, cause: Throwable)
      extends java.io.IOException(reason, cause) // an IOException: `ignoreCorruptFiles` skips it

  /** A failure of POI while it reads a workbook's parts, as the reason of a malformed file: a zip bomb (a
    * part that would expand past POI's ratio of compressed to expanded size) named as one.
    */
  def damaged(e: Throwable, where: String): Unreadable = {
    val chain = Iterator.iterate(e)(_.getCause).takeWhile(_ != null).toSeq
    if (chain.exists(c => String.valueOf(c.getMessage).contains("Zip bomb detected")))
      new Unreadable(s"a zip bomb$where: a part expands more than 100 times its compressed size", e)
    else new Unreadable(s"a damaged workbook$where (${e.getClass.getSimpleName}: ${e.getMessage})", e)
  }

  /** Opens `file` by what its bytes are (not its name), or throws [[Unreadable]] naming why it is not a
    * readable workbook. The file is copied to the local temporary directory first (from S3 or HDFS as from a
    * local disk), so that POI reads parts of it on demand. An `.xls` workbook larger than `maxWorkbookBytes`
    * is an error in every mode, naming the option: it would be read whole.
    */
  def open(file: FileInput, maxWorkbookBytes: Long, errors: ErrorContext): Workbook = {
    val copy = File.createTempFile("spark-drill-excel-", ".bin")
    try {
      val in = file.open()
      try Files.copy(in, copy.toPath, StandardCopyOption.REPLACE_EXISTING)
      finally in.close()
      FileMagic.valueOf(copy) match {
        case FileMagic.OOXML => XlsxWorkbook.open(copy)
        case FileMagic.OLE2 =>
          if (copy.length > maxWorkbookBytes)
            throw errors.error(
              s"an .xls workbook of ${copy.length} bytes is larger than maxWorkbookBytes ($maxWorkbookBytes " +
                "bytes): the format is read whole, so its size is bounded",
              option = s"${ExcelOptions.MaxWorkbookBytes.name}=<a larger size, in bytes>"
            )
          try XlsWorkbook.open(copy)
          finally copy.delete()
        case other => throw new Unreadable(s"not a workbook (its bytes read as ${other.name})", null)
      }
    } catch {
      case e: Throwable => copy.delete(); throw e
    }
  }
}

/** The rows of one sheet within a range, one at a time: each row's cells that hold a value, as a kind
  * ([[Cell]]), the value's text as the file stores it, and the cell's style (-1: none). Rows with no value in
  * the range are skipped.
  */
private[excel] trait SheetCells extends AutoCloseable {

  /** Moves to the next row of the range holding a value; false at the end of the sheet or range. */
  def next(): Boolean

  /** The current row, 0-based (`_line` is one more). */
  def row: Int
  def count: Int
  def column(i: Int): Int
  def kind(i: Int): Byte
  def value(i: Int): String
  def style(i: Int): Int
}
