package example.fixedwidth

import sparkdrill.reader.FormatConformance

/** The example format against every duty of the record-reader template, as a third party's suite would be. */
class FixedWidthConformanceSuite extends FormatConformance {
  def formatOptions: Map[String, String] = Map("format" -> "fixedwidth", "widths" -> "id:4,name:6,score:6")
  def suffix: String = "fwf"
  def record(id: String, name: String, score: String): String = {
    def pad(v: String, width: Int): String = (if (v == null) "" else v).padTo(width, ' ')
    pad(id, 4) + pad(name, 6) + pad(score, 6)
  }
  def malformed: String = "short"
}
