package sparkdrill.formats.log

import sparkdrill.reader.FormatConformance

/** `format=log` against every duty of the record-reader template. */
class LogConformanceSuite extends FormatConformance {
  def formatOptions: Map[String, String] =
    Map("format" -> "log", "regex" -> """^(?<id>\d+)? (?<name>[a-z0-9]+)? (?<score>\S+)?$""")
  def suffix: String = "log"
  def record(id: String, name: String, score: String): String =
    Seq(id, name, score).map(v => if (v == null) "" else v).mkString(" ")
  def malformed: String = "this line does not match"
}
