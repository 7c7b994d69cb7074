package sparkdrill.formats.json

import java.util.Locale

import scala.collection.mutable

import com.fasterxml.jackson.core.{JsonParser, JsonToken}
import org.apache.spark.sql.types._

import sparkdrill.reader.{CommonOptions, ReaderOptions, TypeLattice}
import sparkdrill.reader.TypeLattice.{Arr, Atomic, Kind, MapOf, NullOnly, Struct}
import sparkdrill.errors.DrillErrors

/** The schema of a file's first records (SPEC 5): each value's kind, joined over the records with the
  * widening lattice (integers then fractions give double; a scalar against an object or an array gives a
  * string of JSON text). Keys are trimmed and matched case-insensitively; the first spelling names the
  * column. Top-level values that are not objects join into the column `value`. Columns seen only as null
  * stay `NullType`, so that another file can type them.
  *
  * An object column whose objects hold more than `mapThreshold` distinct keys (negative: never) is a map
  * whose value is the join of every key's value (SPEC 5, objects whose keys are data): decided per object
  * path, as [[TypeLattice.join]] decides it for the union of files, and as soon as a single object passes
  * the threshold, so that a sample of objects keyed by ids holds one value kind, not a member per id.
  */
private[sparkdrill] final class JsonSampler(
    numbersAsDouble: Boolean = false,
    mapThreshold: Int = TypeLattice.NoMaps,
    allText: Boolean = false
) {
  private val columns = mutable.LinkedHashMap.empty[String, (String, Kind)]

  /** Joins the record whose START_OBJECT the parser is on; leaves the parser on its END_OBJECT. `read` runs
    * once the record is read, before it is joined: it may throw to leave the record out.
    */
  def add(parser: JsonParser, read: => Unit = ()): Unit = {
    val fields = objectKind(parser, 0, TypeLattice.NoMaps) match {
      case Struct(fields) => fields
      case other => throw DrillErrors.internal(s"a record's members made $other")
    }
    read
    fields.foreach { case (name, kind) => joinColumn(name, kind) }
  }

  /** Joins a top-level value that is not an object, whose first token the parser is on, into the `value`
    * column (shared with a key of that name); leaves the parser on the value's last token. `read` as for
    * [[add]].
    */
  def addValue(parser: JsonParser, read: => Unit = ()): Unit = {
    val kind = valueKind(parser, 1)
    read
    joinColumn(JsonFormat.ValueColumn, kind)
  }

  /** Joins one member whose value's first token the parser is on (a member a read meets past the sample);
    * leaves the parser on the value's last token.
    */
  def addMember(name: String, parser: JsonParser): Unit = joinColumn(name.trim, valueKind(parser, 1))

  def isEmpty: Boolean = columns.isEmpty

  private def joinColumn(name: String, kind: Kind): Unit = {
    val key = name.toLowerCase(Locale.ROOT)
    columns.get(key) match {
      case Some((first, k)) => columns(key) = first -> TypeLattice.join(k, kind, mapThreshold)
      case None => columns(key) = name -> kind
    }
  }

  /** The columns sampled; under `allText` (allTextMode: every scalar is the token's text) every scalar kind
    * is a string, and so is a column seen only as null.
    */
  def schema: StructType =
    StructType(columns.values.map { case (name, kind) =>
      StructField(
        name,
        if (allText) TypeLattice.toType(TypeLattice.allText(kind))
        else fileType(kind)
      )
    }.toSeq)

  /** The object whose START_OBJECT the parser is on: a struct of its members (one name in two spellings is
    * one member), or, past `threshold` distinct names, a map. Blank names are no member; a map keeps them as
    * keys, so their values join its value.
    */
  private def objectKind(parser: JsonParser, depth: Int, threshold: Int): Kind = {
    val members = new java.util.LinkedHashMap[String, (String, Kind)]()
    var blanks: Kind = NullOnly
    var mapValue: Kind = null // once the object is a map: the join of its values
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      val name = parser.currentName().trim
      parser.nextToken()
      val kind = valueKind(parser, depth + 1)
      if (mapValue != null) mapValue = TypeLattice.join(mapValue, kind, mapThreshold)
      else if (name.isEmpty) blanks = TypeLattice.join(blanks, kind, mapThreshold)
      else {
        val key = name.toLowerCase(Locale.ROOT)
        val known = members.get(key)
        members.put(
          key,
          if (known == null) name -> kind else known._1 -> TypeLattice.join(known._2, kind, mapThreshold)
        )
        if (TypeLattice.isMap(members.size, threshold)) {
          var value = blanks
          members.values.forEach(m => value = TypeLattice.join(value, m._2, mapThreshold))
          mapValue = value
          members.clear()
        }
      }
    }
    if (mapValue != null) MapOf(Atomic(StringType), mapValue)
    else {
      val fields = Vector.newBuilder[(String, Kind)]
      members.values.forEach(m => fields += m)
      Struct(fields.result())
    }
  }

  // `depth`: the value's nesting level, a top-level column's value being 1. Structure past MaxDepth is a
  // string of JSON text: Spark's own schema code recurses over the type and overflows on a few hundred levels.
  private def valueKind(parser: JsonParser, depth: Int): Kind = parser.currentToken() match {
    case JsonToken.START_OBJECT | JsonToken.START_ARRAY if depth > JsonSampler.MaxDepth =>
      parser.skipChildren()
      TypeLattice.Text
    case JsonToken.VALUE_NULL => NullOnly
    case JsonToken.VALUE_TRUE | JsonToken.VALUE_FALSE => Atomic(BooleanType)
    case JsonToken.VALUE_NUMBER_INT =>
      if (numbersAsDouble || parser.getNumberType == JsonParser.NumberType.BIG_INTEGER) Atomic(DoubleType)
      else Atomic(LongType)
    case JsonToken.VALUE_NUMBER_FLOAT => Atomic(DoubleType)
    case JsonToken.VALUE_STRING => Atomic(StringType)
    case JsonToken.START_OBJECT => objectKind(parser, depth, mapThreshold)
    case JsonToken.START_ARRAY =>
      var element: Kind = NullOnly
      while (parser.nextToken() != JsonToken.END_ARRAY)
        element = TypeLattice.join(element, valueKind(parser, depth + 1), mapThreshold)
      Arr(element)
    case other => throw DrillErrors.internal(s"unexpected JSON token $other")
  }

  private def fileType(kind: Kind): DataType = kind match {
    case NullOnly => NullType
    case Struct(fs) => StructType(fs.map { case (n, k) => StructField(n, fileType(k)) })
    case Arr(e) => ArrayType(fileType(e))
    case MapOf(k, v) => MapType(fileType(k), fileType(v))
    case other => TypeLattice.toType(other)
  }
}

private[sparkdrill] object JsonSampler {

  /** A sampler as the read options say: numbers as doubles, the map threshold, all text. */
  def forOptions(options: ReaderOptions): JsonSampler =
    new JsonSampler(
      options(JsonOptions.ReadNumbersAsDouble),
      CommonOptions.mapThreshold(options),
      options(JsonOptions.AllTextMode)
    )

  /** The deepest nesting of structs and arrays a column's type keeps; deeper values are JSON text. */
  val MaxDepth = 64
}
