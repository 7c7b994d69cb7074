package sparkdrill.scan.schema

import org.apache.spark.sql.types.{ArrayType, DataType, MapType, StructField, StructType}
import sparkdrill.errors.DrillErrors

/** The bound on a discovered schema's width (SPEC 5, `maxSchemaFields`): its leaf fields, counted before the
  * schema reaches Spark, whose planning copies and walks a type many times over (a schema of 108,795 fields,
  * every property name of 1,900 JSON Schema documents, took seconds to plan and failed to cross Py4J).
  */
private[schema] object SchemaWidth {

  /** Leaf fields of a type: a scalar is one; a struct, array or map has those of its members, its element,
    * or its key and value.
    */
  def leaves(t: DataType): Long = t match {
    case s: StructType => s.fields.iterator.map(f => leaves(f.dataType)).sum
    case a: ArrayType => leaves(a.elementType)
    case m: MapType => leaves(m.keyType) + leaves(m.valueType)
    case _ => 1L
  }

  /** The member with the most members of its own: `path` None for the top level (the columns). */
  final case class Widest(path: Option[String], members: Int, leaves: Long)

  def widest(columns: Seq[StructField]): Widest = {
    var best = Widest(None, columns.size, columns.iterator.map(f => leaves(f.dataType)).sum)
    def visit(path: String, t: DataType): Unit = t match {
      case s: StructType =>
        if (s.size > best.members) best = Widest(Some(path), s.size, leaves(s))
        s.fields.foreach(f => visit(s"$path.${f.name}", f.dataType))
      case a: ArrayType => visit(s"$path[]", a.elementType)
      case m: MapType =>
        visit(s"$path{key}", m.keyType)
        visit(s"$path{value}", m.valueType)
      case _ => ()
    }
    columns.foreach(f => visit(f.name, f.dataType))
    best
  }

  /** Fails when the discovered `columns` have more than `config.maxSchemaFields` leaf fields, naming the widest
    * member and the two options that decide it.
    */
  def check(config: ScanConfig, columns: Seq[StructField]): Unit = {
    val total = columns.iterator.map(f => leaves(f.dataType)).sum
    if (total > config.maxSchemaFields) {
      val w = widest(columns)
      val threshold =
        if (config.mapInferenceThreshold < 0) "-1: never" else config.mapInferenceThreshold.toString
      val fix = w.path match {
        case Some(_) =>
          s"set mapInferenceThreshold below ${w.members} to read it as a map<string, ...>, or raise maxSchemaFields"
        case None =>
          "a record's own keys are columns, never a map: raise maxSchemaFields, or read only the columns " +
            "providedSchema names with strictSchema=true"
      }
      val where =
        w.path.fold(s"the top level, with ${w.members} columns")(p => s"'$p', with ${w.members} members")
      throw DrillErrors.schemaTooWide(total, config.maxSchemaFields, where, w.leaves, threshold, fix)
    }
  }
}
