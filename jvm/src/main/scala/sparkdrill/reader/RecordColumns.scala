package sparkdrill.reader

import org.apache.spark.sql.types.{LongType, StringType, StructField}

/** Per-record implicit values a reader writes when the scan asks for them (their loader columns exist only
  * then): the 1-based line where the record starts, its byte offset in the uncompressed file, and the sheet of
  * a workbook's row (left unwritten, so null, by formats without sheets).
  */
object RecordColumns {
  val Line = "__drill_line"
  val Offset = "__drill_offset"
  val LineField: StructField = StructField(Line, LongType, nullable = false)
  val OffsetField: StructField = StructField(Offset, LongType, nullable = false)
  val Sheet = "__drill_sheet"
  val SheetField: StructField = StructField(Sheet, StringType, nullable = true)
}
