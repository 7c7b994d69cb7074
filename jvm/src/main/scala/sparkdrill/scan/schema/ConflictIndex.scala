package sparkdrill.scan.schema

import java.util.Locale

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.types.{ArrayType, DataType, MapType, NullType, StructType}

import sparkdrill.reader.TypeLattice.{Arr, Kind, MapOf, NullOnly, Struct}

/** The type conflicts of one discovered column between files (SPEC 5: none passes silently), each file
  * checked against every earlier one in a single walk of its own type.
  *
  * Two files conflict where their types differ at one path (`m.b`, `a[]`, `m{value}`): a scalar of one type
  * against another, or one kind of value (struct, array, map, scalar) against another. A member or element
  * only one file has, or a null, is no conflict. Each path keeps the first file (in path order) that showed
  * each kind of value there, so a conflict names that file and the two types as they are at the path.
  * (Comparing a file with each earlier distinct type instead was quadratic in the files: 1,900 documents
  * whose objects differ took seconds.)
  *
  * Where the table's type is a map (SPEC 5, objects whose keys are data), the struct a file has there is that
  * map: its members are entries, each checked as the map's value. Members of one file are not checked
  * against each other: a map's values of several types are what made its value type.
  *
  * @param table the column's type in the table (the join of every file's)
  */
private[schema] final class ConflictIndex(column: String, table: Kind) {
  import ConflictIndex._

  private final class Node(parent: Node, segment: String) {
    private val children = new java.util.HashMap[String, Node]()

    /** The kinds of value seen here: (signature, first file, its type here). */
    val seen: ArrayBuffer[(AnyRef, String, DataType)] = ArrayBuffer.empty

    def path: String = if (parent == null) segment else parent.path + segment

    def child(segment: String): Node = {
      val key = segment.toLowerCase(Locale.ROOT)
      var node = children.get(key)
      if (node == null) {
        node = new Node(this, segment)
        children.put(key, node)
      }
      node
    }
  }

  private val root = new Node(null, column)

  /** Records the column's type in `file` (files come in path order) and returns its first conflict with an
    * earlier file, if any.
    */
  def observe(dataType: DataType, file: String): Option[TypeConflict] = {
    var found: Option[TypeConflict] = None
    val added = ArrayBuffer.empty[(Node, AnyRef, DataType)]
    def walk(node: Node, dt: DataType, tableKind: Kind): Unit = if (dt != NullType) {
      val asMap = tableKind.isInstanceOf[MapOf] && dt.isInstanceOf[StructType]
      val signature = signatureOf(dt, asMap)
      if (found.isEmpty)
        node.seen.find(_._1 != signature).foreach { case (_, earlierFile, earlierType) =>
          found = Some(TypeConflict(column, node.path, earlierType, earlierFile, dt, file))
        }
      // Recorded once the whole file is walked: a map's members are not checked against each other.
      if (!node.seen.exists(_._1 == signature)) added += ((node, signature, dt))
      dt match {
        case s: StructType if asMap =>
          val value = node.child("{value}")
          s.fields.foreach(f => walk(value, f.dataType, valueOf(tableKind)))
        case s: StructType =>
          s.fields.foreach(f => walk(node.child("." + f.name), f.dataType, memberOf(tableKind, f.name)))
        case a: ArrayType => walk(node.child("[]"), a.elementType, elementOf(tableKind))
        case m: MapType =>
          walk(node.child("{key}"), m.keyType, keyOf(tableKind))
          walk(node.child("{value}"), m.valueType, valueOf(tableKind))
        case _ => ()
      }
    }
    walk(root, dataType, table)
    added.foreach { case (node, signature, dt) =>
      if (!node.seen.exists(_._1 == signature)) node.seen += ((signature, file, dt))
    }
    found
  }
}

private object ConflictIndex {
  private val StructValue = "struct"
  private val ArrayValue = "array"
  private val MapValue = "map"

  /** What a value is at a path, for comparing files: a scalar's type, or its kind of structure. */
  private def signatureOf(dt: DataType, asMap: Boolean): AnyRef = dt match {
    case _: StructType => if (asMap) MapValue else StructValue
    case _: ArrayType => ArrayValue
    case _: MapType => MapValue
    case scalar => scalar
  }

  private def memberOf(k: Kind, name: String): Kind = k match {
    case s: Struct => s.member(name).getOrElse(NullOnly)
    case _ => NullOnly
  }

  private def elementOf(k: Kind): Kind = k match {
    case Arr(e) => e
    case _ => NullOnly
  }

  private def keyOf(k: Kind): Kind = k match {
    case MapOf(key, _) => key
    case _ => NullOnly
  }

  private def valueOf(k: Kind): Kind = k match {
    case MapOf(_, v) => v
    case _ => NullOnly
  }
}
