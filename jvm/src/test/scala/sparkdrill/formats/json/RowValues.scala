package sparkdrill.formats.json

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters
import org.apache.spark.sql.types._

/** A value of a row the JSON suites read, as Scala, through Spark's SpecializedGetters: structs and arrays as
  * Seqs, maps as Maps.
  */
object RowValues {
  def value(g: SpecializedGetters, i: Int, t: DataType): Any =
    if (g.isNullAt(i)) null
    else
      t match {
        case LongType => g.getLong(i)
        case DoubleType => g.getDouble(i)
        case BooleanType => g.getBoolean(i)
        case StringType => g.getUTF8String(i).toString
        case s: StructType =>
          val inner = g.getStruct(i, s.size)
          s.fields.indices.map(j => value(inner, j, s(j).dataType))
        case a: ArrayType =>
          val data = g.getArray(i)
          (0 until data.numElements()).map(j => value(data, j, a.elementType))
        case m: MapType =>
          val data = g.getMap(i)
          (0 until data.numElements()).map { j =>
            value(data.keyArray(), j, m.keyType) -> value(data.valueArray(), j, m.valueType)
          }.toMap
        case other => throw new IllegalArgumentException(s"type $other")
      }
}
