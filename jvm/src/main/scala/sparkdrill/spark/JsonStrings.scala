package sparkdrill.spark

import com.fasterxml.jackson.databind.ObjectMapper

/** Spark passes several `load()` paths as one option holding a JSON array of strings. */
private[spark] object JsonStrings {
  private val mapper = new ObjectMapper()

  def parseArray(json: String): Seq[String] = mapper.readValue(json, classOf[Array[String]]).toSeq
}
