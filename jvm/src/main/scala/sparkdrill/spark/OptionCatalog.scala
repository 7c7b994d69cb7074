package sparkdrill.spark

import com.fasterxml.jackson.databind.ObjectMapper

import sparkdrill.reader.OptionKind
import scala.jdk.CollectionConverters._

import sparkdrill.stream.StreamOptions

/** The option table for other languages: `spark._jvm.sparkdrill.spark.OptionCatalog.json()` from Python,
  * whose typed reader is checked against it; and `problem(options)`, which judges options as planning would
  * (the formats and options the calling thread sees, a plugin's included) for the command line, whose
  * Python does not know a plugin's options.
  */
private[sparkdrill] object OptionCatalog {

  /** Why a read with these options would fail at planning (an unknown option, naming the nearest; a value
    * that does not parse; an unknown format), or null when they are good.
    */
  def problem(options: java.util.Map[String, String]): String =
    try { DrillTable.parse(options.asScala.toMap); null }
    catch { case e: IllegalArgumentException => e.getMessage }

  /** A JSON array: per option its name, type, default (text or null), values (enumerations), aliases, doc, scope (both, batch or stream). */
  def json(): String = {
    val mapper = new ObjectMapper()
    val array = mapper.createArrayNode()
    val table = DrillTable.optionTable
    table.options.foreach { spec =>
      val node = array.addObject()
      node.put("name", spec.name)
      node.put("type", spec.kind.name)
      spec.default match {
        case Some(v) => node.put("default", spec.kind.asInstanceOf[OptionKind[Any]].show(v))
        case None => node.putNull("default")
      }
      if (spec.kind.values.isEmpty) node.putNull("values")
      else spec.kind.values.foldLeft(node.putArray("values"))(_.add(_))
      spec.aliases.foldLeft(node.putArray("aliases"))(_.add(_))
      node.put("doc", spec.doc)
      node.put("scope", StreamOptions.scope(spec))
    }
    table.prefixes.foreach { p =>
      val node = array.addObject()
      node.put("name", p.prefix + "<column>")
      node.put("type", "prefix")
      node.putNull("default")
      node.putNull("values")
      node.putArray("aliases")
      node.put("doc", p.doc)
      node.put("scope", "both")
    }
    mapper.writeValueAsString(array)
  }
}
