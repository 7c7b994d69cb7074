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
    // Members by lower-case name; the element, key and value of an array or map. (Keyed apart, so that
    // finding a member's node builds no string: a file's type has a node per member, 2,000 files of JSON
    // Schema-like documents some 1.6 million.)
    private var members: java.util.HashMap[String, Node] = _
    private var elementNode: Node = _
    private var keyNode: Node = _
    private var valueNode: Node = _

    /** The kinds of value seen here: (signature, first file, its type here). */
    val seen: ArrayBuffer[(AnyRef, String, DataType)] = ArrayBuffer.empty

    def path: String = if (parent == null) segment else parent.path + segment

    def member(name: String): Node = {
      if (members == null) members = new java.util.HashMap[String, Node]()
      val key = name.toLowerCase(Locale.ROOT)
      var node = members.get(key)
      if (node == null) {
        node = new Node(this, "." + name)
        members.put(key, node)
      }
      node
    }

    def element: Node = {
      if (elementNode == null) elementNode = new Node(this, "[]")
      elementNode
    }

    def key: Node = {
      if (keyNode == null) keyNode = new Node(this, "{key}")
      keyNode
    }

    def value: Node = {
      if (valueNode == null) valueNode = new Node(this, "{value}")
      valueNode
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
      // One pass over what the path has seen: the first other kind (a conflict, unless one was found), and
      // whether this kind is known.
      val seen = node.seen
      var known = false
      var i = 0
      while (i < seen.size) {
        val earlier = seen(i)
        if (earlier._1.equals(signature)) known = true
        else if (found.isEmpty)
          found = Some(TypeConflict(column, node.path, earlier._3, earlier._2, dt, file))
        i += 1
      }
      // Recorded once the whole file is walked: a map's members are not checked against each other.
      if (!known) added += ((node, signature, dt))
      dt match {
        case s: StructType if asMap =>
          val value = node.value
          val valueKind = valueOf(tableKind)
          s.fields.foreach(f => walk(value, f.dataType, valueKind))
        case s: StructType =>
          s.fields.foreach(f => walk(node.member(f.name), f.dataType, memberOf(tableKind, f.name)))
        case a: ArrayType => walk(node.element, a.elementType, elementOf(tableKind))
        case m: MapType =>
          walk(node.key, m.keyType, keyOf(tableKind))
          walk(node.value, m.valueType, valueOf(tableKind))
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
