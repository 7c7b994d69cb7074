package sparkdrill.formats.excel

import java.time.{LocalDateTime, LocalTime}
import java.util.Locale

import org.apache.poi.ss.usermodel.{DataFormatter, DateUtil}
import org.apache.spark.sql.types.{
  BooleanType,
  DataType,
  DateType,
  DoubleType,
  LongType,
  NullType,
  StringType,
  TimestampType
}

/** What a cell of [[SheetRows]] is worth: its type (for discovery) and its canonical text (for the
  * record-reader template, which converts it to its column's type), per SPEC 13: a number is bigint when
  * integral, else double; a number whose style shows a date is a date (no time of day) or a timestamp,
  * counted from 1900 or 1904 as the workbook says; an error cell is null. Under `allTextMode` every cell is
  * the text Excel shows, its number format applied (POI's DataFormatter).
  */
private[excel] final class CellValues(styles: CellStyles, date1904: Boolean, allText: Boolean) {
  // The largest integral double a bigint holds exactly: past it, a number stays a double.
  private val MaxExact = 9.007199254740992e15
  private lazy val formatter = new DataFormatter(Locale.ROOT)

  def dataType(kind: Byte, value: String, style: Int): DataType =
    if (allText) { if (kind == Cell.Error) NullType else StringType }
    else
      kind match {
        case Cell.Number if styles.isDate(style) => dateType(dateTime(value))
        case Cell.Number => if (integral(value.toDouble)) LongType else DoubleType
        case Cell.Bool => BooleanType
        case Cell.Error => NullType
        case Cell.IsoDate => if (value.length <= 10) DateType else TimestampType
        case _ => StringType
      }

  /** The cell's text, or null for an error cell (and for a number that is not one: a damaged cell). */
  def text(kind: Byte, value: String, style: Int): String = kind match {
    case Cell.Number if allText =>
      formatter.formatRawCellContents(
        value.toDouble,
        styles.formatId(style),
        styles.formatCode(style),
        date1904
      )
    case Cell.Number if styles.isDate(style) =>
      val at = dateTime(value)
      if (at.toLocalTime == LocalTime.MIDNIGHT) at.toLocalDate.toString else at.toString
    case Cell.Number =>
      val d = value.toDouble
      if (integral(d)) d.toLong.toString else value.trim
    case Cell.Bool =>
      val on = value.trim == "1" || value.trim.equalsIgnoreCase("true")
      if (allText) (if (on) "TRUE" else "FALSE") else on.toString
    case Cell.Error => null
    case _ => value
  }

  private def integral(d: Double): Boolean = d == Math.rint(d) && Math.abs(d) <= MaxExact

  private def dateTime(value: String): LocalDateTime = DateUtil.getLocalDateTime(value.toDouble, date1904)

  private def dateType(at: LocalDateTime): DataType =
    if (at.toLocalTime == LocalTime.MIDNIGHT) DateType else TimestampType
}
