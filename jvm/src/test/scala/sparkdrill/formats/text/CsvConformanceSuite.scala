package sparkdrill.formats.text

import sparkdrill.reader.FormatConformance

/** CSV with a header against every duty of the record-reader template. */
class CsvConformanceSuite extends FormatConformance {
  def formatOptions: Map[String, String] = Map("format" -> "csv", "header" -> "true")
  def suffix: String = "csv"
  override def preamble: String = "id,name,score\n"
  def record(id: String, name: String, score: String): String =
    Seq(id, name, score).map(v => if (v == null) "" else v).mkString(",")
  // CSV's only malformed record: a quote never closed, whose text runs to the end of the file.
  def malformed: String = "9,\"zed,9.5"
  override def malformedEndsFile: Boolean = true
}
