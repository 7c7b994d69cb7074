package sparkdrill.reader

import org.apache.spark.sql.types.{LongType, StructField}

/** Per-record implicit values a reader writes when the scan asks for them (their loader columns exist only
  * then): the 1-based line where the record starts and its byte offset in the uncompressed file.
  */
object RecordColumns {
  val Line = "__drill_line"
  val Offset = "__drill_offset"
  val LineField: StructField = StructField(Line, LongType, nullable = false)
  val OffsetField: StructField = StructField(Offset, LongType, nullable = false)
}
