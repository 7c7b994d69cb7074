package sparkdrill.reader

import org.apache.spark.sql.types._

/** The widening lattice of SPEC 5, as a join over a small summary of types.
  *
  * Widening straight on `DataType`s is not associative: struct+int gives string (JSON text), and string+array
  * gives array<string>, so the answer would depend on file order. The summary keeps "text because of a
  * structural conflict" ([[TypeLattice.Text]]) apart from an ordinary string, which makes [[TypeLattice.join]]
  * commutative and associative, so the union of any set of files is the same in any order.
  */
object TypeLattice {

  sealed trait Kind extends Serializable

  /** Only nulls (or `[]`) seen: no type evidence yet. Ends as string. */
  case object NullOnly extends Kind

  /** A scalar type. */
  final case class Atomic(dataType: DataType) extends Kind

  /** Members by first spelling, in first-seen order. */
  final case class Struct(fields: Vector[(String, Kind)]) extends Kind

  final case class Arr(element: Kind) extends Kind

  /** A Spark map (Drill's DICT). */
  final case class MapOf(key: Kind, value: Kind) extends Kind

  /** Structure where another value was a scalar or another structure: a string of JSON text. The top. */
  case object Text extends Kind

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

  def widen(a: DataType, b: DataType): DataType = toType(join(of(a), of(b)))

  def join(a: Kind, b: Kind): Kind = (a, b) match {
    case (NullOnly, x) => x
    case (x, NullOnly) => x
    case (Text, _) | (_, Text) => Text
    case (Atomic(x), Atomic(y)) => Atomic(widenAtomic(x, y))
    case (Struct(x), Struct(y)) => Struct(joinFields(x, y))
    case (Arr(x), Arr(y)) => Arr(join(x, y))
    case (Arr(x), s: Atomic) => Arr(join(x, s)) // a scalar where the column is an array: [x]
    case (s: Atomic, Arr(x)) => Arr(join(s, x))
    case (MapOf(k1, v1), MapOf(k2, v2)) => MapOf(join(k1, k2), join(v1, v2))
    case _ => Text // struct/map vs scalar, array vs struct, ...
  }

  private def joinFields(x: Vector[(String, Kind)], y: Vector[(String, Kind)]): Vector[(String, Kind)] =
    y.foldLeft(x) { case (acc, (name, kind)) =>
      acc.indexWhere(_._1.equalsIgnoreCase(name)) match {
        case -1 => acc :+ (name -> kind)
        case i => acc.updated(i, acc(i)._1 -> join(acc(i)._2, kind))
      }
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

  /** A type conflict between two sightings of one column: the first path (`m.b`, `a[]`) where the two differ.
    * Null-only sightings and members only one side has are not conflicts (that is evolution, not a clash).
    * Symmetric, so "no conflict passes silently" holds whichever file comes first.
    */
  def conflict(path: String, a: Kind, b: Kind): Option[String] = (a, b) match {
    case (NullOnly, _) | (_, NullOnly) => None
    case (Atomic(x), Atomic(y)) => if (x == y) None else Some(path)
    case (Text, Text) => None
    case (Struct(x), Struct(y)) =>
      x.iterator
        .map { case (n, k) =>
          y.find(_._1.equalsIgnoreCase(n)).flatMap { case (_, k2) => conflict(s"$path.$n", k, k2) }
        }
        .collectFirst { case Some(c) => c }
    case (Arr(x), Arr(y)) => conflict(s"$path[]", x, y)
    case (MapOf(k1, v1), MapOf(k2, v2)) =>
      conflict(s"$path{key}", k1, k2).orElse(conflict(s"$path{value}", v1, v2))
    case _ => Some(path)
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
