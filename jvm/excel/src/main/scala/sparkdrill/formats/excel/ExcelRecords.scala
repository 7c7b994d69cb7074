package sparkdrill.formats.excel

import java.nio.charset.StandardCharsets
import java.util.Locale

import scala.collection.mutable

import org.apache.spark.sql.types.{DataType, StringType}

import sparkdrill.errors.ErrorContext
import sparkdrill.reader.{CommonOptions, FieldRecords, ReaderOptions, SchemaNegotiator}

/** The records of one workbook for the record-reader template: each non-blank row of the selected sheets,
  * its cells as the text of [[CellValues]] under the workbook's column names (every selected sheet's, by
  * name). A cell the query does not need is never converted (SPEC 4): its field is absent.
  *
  * `_line` is the row's number in its sheet as Excel shows it; there is no byte offset. A sheet that turns
  * out damaged while read ends the workbook per mode: FAILFAST fails, the others keep the rows read before.
  */
private[excel] final class ExcelRecords private (
    workbook: Workbook,
    sheets: IndexedSeq[SheetLayout],
    val names: IndexedSeq[String],
    converts: Int => Boolean,
    options: ReaderOptions,
    errors: ErrorContext
) extends FieldRecords {
  private val rows = new WorkbookRows(workbook, sheets)
  private val values = new CellValues(workbook.styles, workbook.date1904, options(ExcelOptions.AllTextMode))
  private val byName: Map[String, Int] = names.zipWithIndex.map { case (n, i) => lower(n) -> i }.toMap
  private val convert: Array[Boolean] = names.indices.map(converts).toArray
  // The current sheet's columns -> field (-1: a column past the workbook's names, an extra).
  private var fieldOf: Array[Int] = Array.emptyIntArray
  private var mappedSheet = -1
  private var buffer = new Array[Byte](256)
  private var used = 0
  private var starts = new Array[Int](names.length + 1)
  private var lengths = new Array[Int](names.length + 1)
  // Each field's cell in the current row (for typeOf).
  private var cellOf = new Array[Int](names.length + 1)
  private var fields = names.length
  // The current row's error cells (`#N/A`): null in their column, their text kept for the rescued-data column.
  private val errorCells = mutable.ArrayBuffer.empty[(String, String)]

  def next(): Boolean =
    try rows.next()
    catch {
      case e: Workbook.Unreadable =>
        BadWorkbook[Unit](e, errors, options)
        false
    }

  def line: Long = rows.cells.row + 1L
  def offset: Long = -1L
  override def sheet: Option[String] = rows.sheet.named
  def count: Int = fields
  def bytes: Array[Byte] = buffer
  def start(i: Int): Int = starts(i)
  def length(i: Int): Int = lengths(i)

  def split(): Option[String] = {
    val cells = rows.cells
    if (mappedSheet != rows.sheet.index) mapSheet()
    java.util.Arrays.fill(starts, 0, starts.length, -1)
    used = 0
    fields = names.length
    errorCells.clear()
    val first = rows.sheet.address.firstColumn
    var i = 0
    while (i < cells.count) {
      val k = cells.column(i) - first
      val f = if (k < fieldOf.length) fieldOf(k) else -1
      val field = if (f >= 0) f else { fields += 1; fields - 1 }
      if (f < 0 || convert(f)) {
        val text =
          try values.text(cells.kind(i), cells.value(i), cells.style(i))
          catch {
            case _: NumberFormatException =>
              return Some(s"cell ${reference(i)} is a number cell holding '${cells.value(i)}'")
          }
        put(field, text)
        cellOf(field) = i
      }
      if (cells.kind(i) == Cell.Error)
        errorCells += rows.sheet.columnName(k).getOrElse(s"column_${field + 1}") -> cells.value(i)
      i += 1
    }
    None
  }

  // A number, boolean or date cell is that type of itself (singleVariantColumn keeps it so); text is text.
  override def typeOf(i: Int): DataType =
    if (starts(i) < 0) StringType
    else {
      val c = cellOf(i)
      val cells = rows.cells
      try values.dataType(cells.kind(c), cells.value(c), cells.style(c))
      catch { case _: NumberFormatException => StringType }
    }

  override def keptAside(put: (String, String) => Unit): Unit = errorCells.foreach { case (n, v) =>
    put(n, v)
  }

  // Where each column of the current sheet's range goes: its name's field.
  private def mapSheet(): Unit = {
    val sheet = rows.sheet
    val width = sheet.header.map(_.length).getOrElse(names.length)
    fieldOf = Array.tabulate(width)(k => sheet.columnName(k).flatMap(n => byName.get(lower(n))).getOrElse(-1))
    mappedSheet = sheet.index
  }

  private def put(field: Int, text: String): Unit = {
    if (field >= starts.length) {
      starts = java.util.Arrays.copyOf(starts, field * 2)
      lengths = java.util.Arrays.copyOf(lengths, field * 2)
      cellOf = java.util.Arrays.copyOf(cellOf, field * 2)
      java.util.Arrays.fill(starts, field, starts.length, -1)
    }
    if (text != null) {
      val b = text.getBytes(StandardCharsets.UTF_8)
      if (used + b.length > buffer.length) buffer = java.util.Arrays.copyOf(buffer, (used + b.length) * 2)
      System.arraycopy(b, 0, buffer, used, b.length)
      starts(field) = used
      lengths(field) = b.length
      used += b.length
    }
  }

  /** The row as the corrupt-record column and errors show it: `sheet!A1=value` for each cell with one. */
  def text: String =
    (0 until rows.cells.count).map(i => s"${reference(i)}=${rows.cells.value(i)}").mkString(", ")

  // `Sheet!B7`: the current row's cell `i` as Excel names it.
  private def reference(i: Int): String =
    s"${rows.sheet.name}!${column(rows.cells.column(i))}${rows.cells.row + 1}"

  private def column(k: Int): String =
    if (k < 26) ('A' + k).toChar.toString else column(k / 26 - 1) + ('A' + k % 26).toChar

  private def lower(s: String): String = s.toLowerCase(Locale.ROOT)

  def close(): Unit =
    try rows.close()
    finally workbook.close()
}

private[excel] object ExcelRecords {

  /** The records of the negotiator's workbook, or None when it is malformed and the mode skips it. */
  def open(negotiator: SchemaNegotiator): Option[ExcelRecords] = {
    val errors = negotiator.errorContext
    val options = negotiator.options
    val workbook =
      try Workbook.open(negotiator.file, options(ExcelOptions.MaxWorkbookBytes), errors)
      catch { case e: Workbook.Unreadable => return BadWorkbook(e, errors, options) }
    try {
      val sheets = SheetLayout.of(workbook, options, errors.path)
      val names = columns(sheets, negotiator)
      // Not converting a cell the query does not need, unless validate=all judges every column, or the
      // column is outside the table and the rescued-data column keeps it.
      val projection = negotiator.projection
      val rescues = options.get(CommonOptions.RescuedDataColumn).isDefined
      // singleVariantColumn (SPEC 14) writes every cell into the record's VARIANT.
      val all = CommonOptions.validateAll(options) || negotiator.definedSchema.isEmpty ||
        options.get(CommonOptions.SingleVariantColumn).isDefined
      val converts: Int => Boolean = i =>
        all || projection.isProjected(names(i)) || (rescues && !negotiator.isTableColumn(names(i)))
      Some(new ExcelRecords(workbook, sheets, names, converts, options, errors))
    } catch {
      case e: Throwable =>
        workbook.close()
        e match {
          case u: Workbook.Unreadable => BadWorkbook(u, errors, options)
          case other => throw other
        }
    }
  }

  // The workbook's columns: every header's names (first seen first, any case); headerless, `_c0` to the
  // widest the table has.
  private def columns(sheets: IndexedSeq[SheetLayout], negotiator: SchemaNegotiator): IndexedSeq[String] =
    if (sheets.forall(_.header.isDefined)) {
      val seen = mutable.LinkedHashMap.empty[String, String]
      sheets.flatMap(_.header.get).foreach(n => seen.getOrElseUpdate(n.toLowerCase(Locale.ROOT), n))
      seen.values.toIndexedSeq
    } else {
      val Positional = "_c(\\d+)".r
      val widest =
        negotiator.definedSchema.toSeq.flatMap(_.fieldNames).collect { case Positional(k) => k.toInt }
      (0 to (if (widest.isEmpty) -1 else widest.max)).map(SheetLayout.positional)
    }
}
