package sparkdrill.reader

import java.util.Locale

import scala.collection.immutable.HashMap

import org.apache.spark.sql.types._

/** The widening lattice of SPEC 5, as a join over a small summary of types.
  *
  * Widening straight on `DataType`s is not associative: struct+int gives string (JSON text), and string+array
  * gives array<string>, so the answer would depend on file order. The summary keeps "text because of a
  * structural conflict" ([[TypeLattice.Text]]) apart from an ordinary string, which makes [[TypeLattice.join]]
  * commutative and associative, so the union of any set of files is the same in any order.
  */
object TypeLattice {

  /** A `mapInferenceThreshold` under which no object is a map. */
  val NoMaps: Int = -1

  sealed trait Kind extends Serializable

  /** Only nulls (or `[]`) seen: no type evidence yet. Ends as string. */
  case object NullOnly extends Kind

  /** A scalar type. */
  final case class Atomic(dataType: DataType) extends Kind

  /** Members by first spelling, in first-seen order. */
  final case class Struct(fields: Vector[(String, Kind)]) extends Kind {
    // Members by lower-case name, made on the first lookup and handed on to the struct a join makes from
    // this one: joining member by member with a scan per member was quadratic, and objects whose keys are
    // data (with map inference off, or below its threshold) have thousands of members.
    @transient private[TypeLattice] var byName: HashMap[String, Int] = _

    private[TypeLattice] def index: HashMap[String, Int] = {
      if (byName == null)
        byName = fields.iterator.zipWithIndex.foldLeft(HashMap.empty[String, Int]) { case (m, ((n, _), i)) =>
          m.updated(lower(n), i)
        }
      byName
    }

    /** The member named `name` in any case. */
    def member(name: String): Option[Kind] = index.get(lower(name)).map(i => fields(i)._2)
  }

  final case class Arr(element: Kind) extends Kind

  /** A Spark map (Drill's DICT): given by a schema, or inferred for objects whose keys are data. */
  final case class MapOf(key: Kind, value: Kind) extends Kind

  /** Structure where another value was a scalar or another structure: a string of JSON text. The top. */
  case object Text extends Kind

  private val MapKey: Kind = Atomic(StringType)

  private def lower(name: String): String = name.toLowerCase(Locale.ROOT)

  def of(dataType: DataType): Kind = dataType match {
    case NullType => NullOnly
    case s: StructType => Struct(s.fields.toVector.map(f => f.name -> of(f.dataType)))
    case a: ArrayType => Arr(of(a.elementType))
    case m: MapType => MapOf(of(m.keyType), of(m.valueType))
    case other => Atomic(other)
  }

  /** Every discovered column and member is nullable (SPEC 9.1: null means absent). */
  def toType(kind: Kind): DataType = kind match {
    case NullOnly | Text => StringType
    case Atomic(t) => t
    case Struct(fs) => StructType(fs.map { case (n, k) => StructField(n, toType(k), nullable = true) })
    case Arr(e) => ArrayType(toType(e), containsNull = true)
    case MapOf(k, v) => MapType(toType(k), toType(v), valueContainsNull = true)
  }

  def widen(a: DataType, b: DataType, mapThreshold: Int = NoMaps): DataType =
    toType(join(of(a), of(b), mapThreshold))

  def join(a: Kind, b: Kind): Kind = join(a, b, NoMaps)

  /** The least kind above both (SPEC 5), where an object of more than `mapThreshold` distinct keys (case
    * aside; negative: never) is a map whose value is the join of every member's value (SPEC 5, objects whose
    * keys are data). The key count only grows under a join, so a struct made a map early is the map the
    * whole union would make: with both sides in [[withMaps]] form the result is, whatever the order of the
    * joins, the union's own form.
    */
  def join(a: Kind, b: Kind, mapThreshold: Int): Kind = (a, b) match {
    case (NullOnly, x) => x
    case (x, NullOnly) => x
    case (Text, _) | (_, Text) => Text
    case (Atomic(x), Atomic(y)) => Atomic(widenAtomic(x, y))
    case (x: Struct, y: Struct) => mapPast(joinFields(x, y, mapThreshold), mapThreshold)
    case (Arr(x), Arr(y)) => Arr(join(x, y, mapThreshold))
    case (Arr(x), s: Atomic) => Arr(join(x, s, mapThreshold)) // a scalar where the column is an array: [x]
    case (s: Atomic, Arr(x)) => Arr(join(s, x, mapThreshold))
    case (MapOf(k1, v1), MapOf(k2, v2)) => MapOf(join(k1, k2, mapThreshold), join(v1, v2, mapThreshold))
    // An object where another had so many keys that it is a map: its members are entries of the map.
    case (MapOf(k, v), s: Struct) => MapOf(join(k, MapKey, mapThreshold), joinValues(v, s, mapThreshold))
    case (s: Struct, MapOf(k, v)) => MapOf(join(MapKey, k, mapThreshold), joinValues(v, s, mapThreshold))
    case _ => Text // struct/map vs scalar, array vs struct, ...
  }

  /** `kind` with every struct of more than `mapThreshold` members, at any depth, made a map (as [[join]] makes
    * them): the form a kind must have before it is joined.
    */
  def withMaps(kind: Kind, mapThreshold: Int): Kind =
    if (mapThreshold < 0) kind
    else
      kind match {
        case Struct(fs) =>
          mapPast(Struct(fs.map { case (n, k) => n -> withMaps(k, mapThreshold) }), mapThreshold)
        case Arr(e) => Arr(withMaps(e, mapThreshold))
        case MapOf(k, v) => MapOf(withMaps(k, mapThreshold), withMaps(v, mapThreshold))
        case other => other
      }

  /** Whether a struct of `members` members is a map under `mapThreshold`. */
  def isMap(members: Int, mapThreshold: Int): Boolean = mapThreshold >= 0 && members > mapThreshold

  private def mapPast(s: Struct, mapThreshold: Int): Kind =
    if (!isMap(s.fields.size, mapThreshold)) s
    else MapOf(MapKey, joinValues(NullOnly, s, mapThreshold))

  private def joinValues(value: Kind, s: Struct, mapThreshold: Int): Kind =
    s.fields.foldLeft(value) { case (v, (_, k)) => join(v, k, mapThreshold) }

  private def joinFields(x: Struct, y: Struct, mapThreshold: Int): Struct =
    if (y.fields.isEmpty) x
    else if (x.fields.isEmpty) y
    else {
      var fields = x.fields
      var index = x.index
      y.fields.foreach { case (name, kind) =>
        val key = lower(name)
        index.get(key) match {
          case Some(i) => fields = fields.updated(i, fields(i)._1 -> join(fields(i)._2, kind, mapThreshold))
          case None =>
            index = index.updated(key, fields.size)
            fields = fields :+ (name -> kind)
        }
      }
      val joined = Struct(fields)
      joined.byName = index
      joined
    }

  /** Numbers: integral types widen to the wider one, any other mix of numbers to double. Dates and
    * timestamps: the later in date < timestamp_ntz < timestamp. Anything else mixed: string.
    */
  def widenAtomic(a: DataType, b: DataType): DataType =
    if (a == b) a
    else
      (integralRank(a), integralRank(b)) match {
        case (Some(x), Some(y)) => if (x >= y) a else b
        case _ if isNumeric(a) && isNumeric(b) => DoubleType
        case _ =>
          (datetimeRank(a), datetimeRank(b)) match {
            case (Some(x), Some(y)) => if (x >= y) a else b
            case _ => StringType
          }
      }

  private def integralRank(t: DataType): Option[Int] = t match {
    case ByteType => Some(0)
    case ShortType => Some(1)
    case IntegerType => Some(2)
    case LongType => Some(3)
    case _ => None
  }

  private def isNumeric(t: DataType): Boolean = t.isInstanceOf[NumericType]

  private def datetimeRank(t: DataType): Option[Int] = t match {
    case DateType => Some(0)
    case TimestampNTZType => Some(1)
    case TimestampType => Some(2)
    case _ => None
  }

  /** Every atomic type becomes a string, structure stays (`allTextMode`). */
  def allText(kind: Kind): Kind = kind match {
    case Atomic(_) => Atomic(StringType)
    case Struct(fs) => Struct(fs.map { case (n, k) => n -> allText(k) })
    case Arr(e) => Arr(allText(e))
    case MapOf(k, v) => MapOf(allText(k), allText(v))
    case other => other
  }
}
