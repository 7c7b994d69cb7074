package sparkdrill.formats.json

import sparkdrill.reader.FormatConformance

/** JSON lines against every duty of the record-reader template. The table's values are written as JSON
  * strings, so that a read without a schema gives string columns as for text; JSON types values by their
  * syntax (numbers are bigint or double, docs/options.md, "JSON"), so the typed records are JSON numbers,
  * typed with no option. A JSON file is read whole by one task (not splittable).
  */
class JsonConformanceSuite extends FormatConformance {
  def formatOptions: Map[String, String] = Map("format" -> "json")
  def suffix: String = "json"
  def record(id: String, name: String, score: String): String =
    Seq("id" -> id, "name" -> name, "score" -> score)
      .collect { case (k, v) if v != null => "\"" + k + "\":\"" + v + "\"" }
      .mkString("{", ",", "}")
  // Broken JSON (a trailing comma): reading goes on at the next line that starts a record.
  def malformed: String = "{\"id\":\"9\",\"name\":\"zed\",}"
  override def splittable: Boolean = false
  override def inferOptions: Map[String, String] = Map.empty
  override def inferredTypes: (String, String) = ("bigint", "double")
  override def typedRecord(id: Int, name: String, score: Double): String =
    "{\"id\":" + id + ",\"name\":\"" + name + "\",\"score\":" + score + "}"
}
