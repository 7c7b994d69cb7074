package sparkdrill.formats.excel

import java.util.Locale

import scala.collection.mutable

import org.apache.spark.sql.types.{DataType, NullType, StringType, StructField, StructType}

import sparkdrill.reader.{ColumnPlaces, DiscoveryContext, TextTypeInference, TextValueOptions, TypeLattice}

/** A workbook's reader schema (SPEC 13): its columns (every selected sheet's, by name, first seen first),
  * typed from up to `sampleRows` rows of each sheet by their cells ([[CellValues]]), conflicts widened as
  * across files (section 5). Text cells are strings, or typed by `inferTypes` as text's are. A column seen
  * only empty or as errors is `NullType`, for another file to type.
  */
private[excel] object ExcelDiscovery {

  def schema(context: DiscoveryContext): StructType = {
    val options = context.options
    val workbook =
      try Workbook.open(context.file, options(ExcelOptions.MaxWorkbookBytes), context.errorContext)
      catch {
        case e: Workbook.Unreadable =>
          return BadWorkbook[StructType](e, context.errorContext, options, discovering = true).getOrElse(
            new StructType()
          )
      }
    try {
      val sheets = SheetLayout.of(workbook, options, context.errorContext.path)
      val columns = new Columns(options(TextValueOptions.InferTypes))
      sheets.foreach(s => s.header.foreach(_.foreach(columns.add(_, s.name))))
      val values = new CellValues(workbook.styles, workbook.date1904, options(ExcelOptions.AllTextMode))
      val rows = new WorkbookRows(workbook, sheets)
      try {
        var taken = 0
        var sheet = -1
        while (rows.next()) {
          if (rows.sheet.index != sheet) { sheet = rows.sheet.index; taken = 0 }
          if (taken >= context.sampleRows) rows.nextSheet()
          else {
            taken += 1
            val cells = rows.cells
            var i = 0
            while (i < cells.count) {
              rows.sheet.columnName(cells.column(i) - rows.sheet.address.firstColumn).foreach { name =>
                val kind = cells.kind(i)
                // A number cell that holds no number types nothing: the reader finds it malformed, per mode.
                val t =
                  try values.dataType(kind, cells.value(i), cells.style(i))
                  catch { case _: NumberFormatException => NullType }
                val in = rows.sheet.name
                if (t == StringType && kind == Cell.Text) columns.text(name, in, cells.value(i))
                else columns.typed(name, in, t)
              }
              i += 1
            }
          }
        }
      } catch {
        case e: Workbook.Unreadable => BadWorkbook[Unit](e, context.errorContext, options, discovering = true)
      } finally rows.close()
      columns.schema
    } catch {
      case e: Workbook.Unreadable =>
        BadWorkbook[StructType](e, context.errorContext, options, discovering = true).getOrElse(
          new StructType()
        )
    } finally workbook.close()
  }

  /** Each column's evidence: the type its typed cells widen to, and its text cells (typed at the end). */
  private final class Columns(inferTypes: Boolean) {
    private val order = mutable.LinkedHashMap.empty[String, String]
    private val types = mutable.HashMap.empty[String, DataType]
    private val texts = mutable.HashMap.empty[String, mutable.ArrayBuffer[String]]
    // The sheets each column was found in, in workbook order (for sd.describe).
    private val sheets = mutable.HashMap.empty[String, mutable.LinkedHashSet[String]]

    def add(name: String, sheet: String): String = {
      val k = name.toLowerCase(Locale.ROOT)
      sheets.getOrElseUpdate(k, mutable.LinkedHashSet.empty) += sheet
      order.getOrElseUpdate(k, name)
    }

    // Positional columns arrive as cells are met: `_c3` before `_c1` must not reorder them, so every
    // position below is added first.
    private def key(name: String, sheet: String): String = {
      val Positional = "_c(\\d+)".r
      name match {
        case Positional(k) if !order.contains(name) =>
          (0 to k.toInt).foreach(i => add(SheetLayout.positional(i), sheet))
        case _ => add(name, sheet)
      }
      name.toLowerCase(Locale.ROOT)
    }

    def typed(name: String, sheet: String, t: DataType): Unit = {
      val k = key(name, sheet)
      types(k) = widen(types.getOrElse(k, NullType), t)
    }

    def text(name: String, sheet: String, value: String): Unit =
      texts.getOrElseUpdate(key(name, sheet), mutable.ArrayBuffer.empty) += value

    def schema: StructType = StructType(order.toSeq.map { case (k, name) =>
      val fromText =
        texts.get(k).map(t => if (inferTypes) TextTypeInference.infer(t.iterator) else StringType)
      val field =
        StructField(name, widen(types.getOrElse(k, NullType), fromText.getOrElse(NullType)), nullable = true)
      val in = sheets(k).toSeq
      ColumnPlaces.tag(
        field,
        (if (in.size == 1) "sheet " else "sheets ") + in.map(n => s"'$n'").mkString(", ")
      )
    })

    private def widen(a: DataType, b: DataType): DataType =
      if (a == NullType) b else if (b == NullType) a else TypeLattice.widenAtomic(a, b)
  }
}
