package sparkdrill.formats.excel

import sparkdrill.reader.FormatConformance

/** Workbooks against every duty of the record-reader template. The suite's files are lines; each becomes a
  * row of the workbook's first sheet (its line number the row's), a tab between cells: text cells, or
  * number cells where a value is written `n:<number>` (the typed records), so that a read without a schema
  * gives string columns as for text and the typed ones bigint and double, typed by the cells with no option.
  * A row cannot be malformed (a bad workbook is a malformed file, ExcelFormatSuite), no row has a byte
  * offset, and a workbook is read whole by one task.
  */
class ExcelConformanceSuite extends FormatConformance {
  def formatOptions: Map[String, String] = Map("format" -> "excel")
  def suffix: String = "xlsx"
  def record(id: String, name: String, score: String): String =
    Seq(id, name, score).map(v => if (v == null) "" else v).mkString("\t")
  def malformed: String = ""
  override def preamble: String = "id\tname\tscore\n"
  override def malformedRecords: Boolean = false
  override def offsets: Boolean = false
  override def splittable: Boolean = false
  override def inferOptions: Map[String, String] = Map.empty
  override def inferredTypes: (String, String) = ("bigint", "double")
  override def typedRecord(id: Int, name: String, score: Double): String = s"n:$id\t$name\tn:$score"

  override def encode(text: String): Array[Byte] = {
    val rows = text.split("\n").toSeq.map { line =>
      line.split("\t", -1).toSeq.map {
        case "" => null
        case n if n.startsWith("n:") => n.drop(2).toDouble
        case s => s
      }
    }
    Workbooks.xlsx(Seq(Workbooks.Sheet("records", rows)))
  }
}
