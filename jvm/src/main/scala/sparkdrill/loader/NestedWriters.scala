package sparkdrill.loader

import java.util.Locale

import org.apache.spark.sql.execution.vectorized.WritableColumnVector
import org.apache.spark.sql.types._
import sparkdrill.errors.DrillErrors

/** The element being written in an array: its position in the child vector, and an epoch bumped whenever
  * the next element begins.
  */
private[loader] final class ElementSource(owner: ArrayVectorWriter) extends ValueSource {
  var epoch: Long = 0L
  def position: Int = owner.start + owner.count
}

/** Arrays (and, through [[MapVectorWriter]], maps): elements go to the child vector(s) at positions this
  * writer counts itself. A value's elements are `start until start + count`; `putArray` records them when
  * the value ends.
  */
private[loader] class ArrayVectorWriter(field: StructField, source: ValueSource, batch: BatchState)
    extends VectorWriter(field, source, batch)
    with ArrayWriter {

  /** The next free position in the child vector, the current value's first, and its saved elements. */
  var next: Int = 0
  var start: Int = 0
  var count: Int = 0

  /** Where the next copied value goes while an overflow moves a row to new vectors. */
  var copyNext: Int = 0
  private var startedEpoch = -1L
  val elementSource = new ElementSource(this)

  protected def elementFields: Seq[StructField] = field.dataType match {
    case ArrayType(t, containsNull) => Seq(StructField("element", t, containsNull))
    case other => throw DrillErrors.internal(s"not an array: ${other.simpleString}")
  }

  val elements: Array[VectorWriter] = elementFields.map(Writers.forField(_, elementSource, batch)).toArray

  protected def childVectors(v: WritableColumnVector): Array[WritableColumnVector] = Array(v.arrayData())

  /** Starts this value if the position it belongs to has moved on since the last one. */
  @inline final def begin(): Unit = if (startedEpoch != source.epoch) {
    startedEpoch = source.epoch
    start = next
    count = 0
    nullValue = false
    elementSource.epoch += 1
    written()
  }

  /** The current value was set to null (rather than to an array). */
  private var nullValue = false

  override def setNull(): Unit = {
    begin()
    nullValue = true
  }

  def element: ColumnWriter = { begin(); reserveElement(); elements(0) }
  override def array: ArrayWriter = { begin(); this }
  def size: Int = { begin(); count }

  private def reserveElement(): Unit = {
    val p = start + count
    childVectors(vector).foreach(c => c.reserve(p + 1))
  }

  def save(): Unit = {
    begin()
    reserveElement()
    elements.foreach(_.endValue())
    count += 1
    next = start + count
    elementSource.epoch += 1
  }

  override def bind(v: WritableColumnVector): Unit = {
    super.bind(v)
    val children = childVectors(v)
    elements.indices.foreach(i => elements(i).bind(children(i)))
  }

  override def endValue(): Unit = {
    val p = source.position
    vector.reserve(p + 1)
    if (!isWritten) fillEmpty(p)
    else if (nullValue) vector.putNull(p)
    else {
      vector.putNotNull(p)
      vector.putArray(p, start, count)
    }
  }

  protected def putZero(p: Int): Unit = {
    vector.putNotNull(p)
    vector.putArray(p, next, 0) // an empty array
  }

  def bytesUsed: Long = elements.map(_.bytesUsed).max

  override def resetPositions(): Unit = {
    next = 0
    start = 0
    count = 0
    copyNext = 0
    startedEpoch = -1L
    elements.foreach(_.resetPositions())
  }

  override def prepareCopy(): Unit = {
    copyNext = 0
    elements.foreach(_.prepareCopy())
  }

  override def finishCopy(): Unit = {
    next = copyNext
    elements.foreach(_.finishCopy())
  }

  override def copyValue(
      from: WritableColumnVector,
      fromPos: Int,
      to: WritableColumnVector,
      toPos: Int,
      partial: Boolean
  ): Unit = {
    val fromChildren = childVectors(from)
    val toChildren = childVectors(to)
    def copyElements(fromStart: Int, n: Int, elementPartial: Boolean): Int = {
      val dst = copyNext
      toChildren.foreach(_.reserve(dst + n + 1))
      var k = 0
      while (k < n) {
        elements.indices.foreach(i =>
          elements(i).copyValue(fromChildren(i), fromStart + k, toChildren(i), dst + k, elementPartial)
        )
        k += 1
      }
      copyNext = dst + n
      dst
    }
    if (partial) {
      if (isWritten && nullValue) start = copyNext
      else if (isWritten) {
        // The row in progress: its saved elements whole, then the element being written as far as it got.
        val n = count
        val dst = copyElements(start, n, elementPartial = false)
        elements.indices.foreach(i =>
          elements(i).copyValue(fromChildren(i), start + n, toChildren(i), dst + n, partial = true)
        )
        start = dst
      }
    } else if (from.isNullAt(fromPos)) { to.reserve(toPos + 1); to.putNull(toPos) }
    else {
      to.reserve(toPos + 1)
      val n = from.getArrayLength(fromPos)
      val dst = copyElements(from.getArrayOffset(fromPos), n, elementPartial = false)
      to.putNotNull(toPos)
      to.putArray(toPos, dst, n)
    }
  }
}

/** Maps: keys and values in the map vector's two children, entries like array elements. */
private[loader] final class MapVectorWriter(field: StructField, source: ValueSource, batch: BatchState)
    extends ArrayVectorWriter(field, source, batch)
    with MapWriter {
  override protected def elementFields: Seq[StructField] = field.dataType match {
    case MapType(k, v, valueContainsNull) =>
      Seq(StructField("key", k, nullable = false), StructField("value", v, valueContainsNull))
    case other => throw DrillErrors.internal(s"not a map: ${other.simpleString}")
  }
  override protected def childVectors(v: WritableColumnVector): Array[WritableColumnVector] =
    Array(v.getChild(0), v.getChild(1))

  def key: ColumnWriter = { begin(); elements(0) }
  def value: ColumnWriter = { begin(); elements(1) }
  override def array: ArrayWriter = throw DrillErrors.internal(
    s"column '${field.name}' is a map: use map"
  )
  override def map: MapWriter = { begin(); this }
}

/** Structs (Drill's maps): members share the struct's position. A struct is not null once any member (or
  * the struct itself) is written in the value.
  */
private[loader] final class StructVectorWriter(
    full: StructField,
    source: ValueSource,
    batch: BatchState,
    projection: ProjectionFilter
) extends VectorWriter(full.copy(dataType = Writers.pruned(full.dataType, projection)), source, batch)
    with TupleWriter {
  private val structType = full.dataType.asInstanceOf[StructType]
  // Child vector of each member, by name through a map (a struct may have thousands of members).
  private val prunedIndex: Map[String, Int] =
    field.dataType
      .asInstanceOf[StructType]
      .fieldNames
      .map(_.toLowerCase(Locale.ROOT))
      .zipWithIndex
      .reverse
      .toMap
  // Unprojected members have no child vector at all: the struct's vector is allocated with the pruned type.
  private val members: Array[ColumnWriter] = structType.fields.map { f =>
    if (projection.isProjected(f.name)) Writers.forField(f, source, batch, projection.member(f.name))
    else DummyWriter(f)
  }
  private val childIndex: Array[Int] =
    structType.fieldNames.map(n => prunedIndex.getOrElse(n.toLowerCase(Locale.ROOT), -1))
  private val byName: Map[String, Int] =
    structType.fieldNames.zipWithIndex.map { case (n, i) => n.toLowerCase(Locale.ROOT) -> i }.reverse.toMap

  // The members with vectors, made once: as a method it was a new array per struct value (3 % of a JSON read).
  private val live: Array[VectorWriter] = members.collect { case w: VectorWriter => w }

  override def struct: TupleWriter = { markStruct(); this }
  private def markStruct(): Unit = if (!isWritten) {
    val p = source.position
    vector.reserve(p + 1)
    vector.putNotNull(p)
    written()
  }

  def schema: StructType = structType
  def size: Int = members.length
  def column(index: Int): ColumnWriter = { markStruct(); members(index) }
  def column(name: String): ColumnWriter =
    find(name).getOrElse(
      throw DrillErrors.internalArgument(
        s"struct '${full.name}' has no member '$name'; it has ${structType.fieldNames.mkString(", ")}"
      )
    )
  def find(name: String): Option[ColumnWriter] = byName.get(name.toLowerCase(Locale.ROOT)).map(column)
  def isProjected(name: String): Boolean = find(name).exists(_.isProjected)
  def addColumn(f: StructField): ColumnWriter = find(f.name) match {
    case Some(w) if w.field.dataType == f.dataType => w
    case Some(w) =>
      throw DrillErrors.internalArgument(
        s"struct '${field.name}' already has '${w.field.name}' as ${w.field.dataType.simpleString}, not ${f.dataType.simpleString}"
      )
    case None =>
      throw DrillErrors.notSupported(
        s"members cannot be added to struct '${field.name}' while writing; declare '${f.name}' up front"
      )
  }

  override def bind(v: WritableColumnVector): Unit = {
    super.bind(v)
    members.indices.foreach { i =>
      members(i) match {
        case w: VectorWriter => w.bind(v.getChild(childIndex(i)))
        case _ => ()
      }
    }
  }

  override def endValue(): Unit = {
    val p = source.position
    if (isWritten) {
      var i = 0
      while (i < live.length) { live(i).endValue(); i += 1 }
    } else fillEmpty(p)
  }

  // Members of a null struct are filled too, so every child vector covers every row.
  override def fillEmpty(p: Int): Unit =
    if (field.nullable) {
      vector.reserve(p + 1)
      vector.putNull(p)
      live.foreach(_.fillEmpty(p))
    } else putZero(p)

  // A NOT NULL struct never written: a struct of its members' empties.
  protected def putZero(p: Int): Unit = {
    vector.reserve(p + 1)
    vector.putNotNull(p)
    live.foreach(_.fillEmpty(p))
  }

  def bytesUsed: Long = if (live.isEmpty) 0L else live.map(_.bytesUsed).max

  override def resetPositions(): Unit = live.foreach(_.resetPositions())
  override def prepareCopy(): Unit = live.foreach(_.prepareCopy())
  override def finishCopy(): Unit = live.foreach(_.finishCopy())

  override def copyValue(
      from: WritableColumnVector,
      fromPos: Int,
      to: WritableColumnVector,
      toPos: Int,
      partial: Boolean
  ): Unit = {
    if (partial && !isWritten) return
    to.reserve(toPos + 1)
    // A struct set to null in the moved row is null there too (it counts as written).
    if (from.isNullAt(fromPos)) Writers.putNullTree(to, field.dataType, toPos)
    else {
      to.putNotNull(toPos)
      members.indices.foreach { i =>
        members(i) match {
          case w: VectorWriter =>
            w.copyValue(from.getChild(childIndex(i)), fromPos, to.getChild(childIndex(i)), toPos, partial)
          case _ => ()
        }
      }
    }
  }
}

/** The writer of an unprojected column or member: takes every value, keeps none, allocates nothing. */
private[loader] final case class DummyWriter(field: StructField)
    extends ColumnWriter
    with ArrayWriter
    with MapWriter {
  def isProjected: Boolean = false
  def setNull(): Unit = ()
  def setBoolean(v: Boolean): Unit = ()
  def setInt(v: Int): Unit = ()
  def setLong(v: Long): Unit = ()
  def setDouble(v: Double): Unit = ()
  def setDecimal(v: Decimal): Unit = ()
  def setBytes(bytes: Array[Byte], offset: Int, length: Int): Unit = ()
  def setString(v: String): Unit = ()
  def setDate(days: Int): Unit = ()
  def setTimestamp(micros: Long): Unit = ()
  def setVariant(value: Array[Byte], metadata: Array[Byte]): Unit = ()
  def array: ArrayWriter = this
  def map: MapWriter = this
  lazy val struct: TupleWriter = new DummyTuple(field.dataType match {
    case s: StructType => s
    case _ => new StructType()
  })
  lazy val element: ColumnWriter = DummyWriter(StructField("element", elementType))
  lazy val key: ColumnWriter = DummyWriter(StructField("key", StringType))
  lazy val value: ColumnWriter = DummyWriter(StructField("value", elementType))
  private def elementType: DataType = field.dataType match {
    case ArrayType(t, _) => t
    case MapType(_, v, _) => v
    case _ => StringType
  }
  def save(): Unit = ()
  def size: Int = 0
}

private[loader] final class DummyTuple(val schema: StructType) extends TupleWriter {
  private val members = schema.fields.map(DummyWriter(_))
  def size: Int = members.length
  def column(index: Int): ColumnWriter = members(index)
  def column(name: String): ColumnWriter = find(name).getOrElse(DummyWriter(StructField(name, StringType)))
  def find(name: String): Option[ColumnWriter] = members.find(_.field.name.equalsIgnoreCase(name))
  def isProjected(name: String): Boolean = false
  def addColumn(f: StructField): ColumnWriter = find(f.name).getOrElse(DummyWriter(f))
}

private[loader] object Writers {

  /** A struct type without its unprojected members (recursively); other types as they are. */
  def pruned(t: DataType, projection: ProjectionFilter): DataType = t match {
    case s: StructType =>
      StructType(s.fields.filter(f => projection.isProjected(f.name)).map { f =>
        f.copy(dataType = pruned(f.dataType, projection.member(f.name)))
      })
    case other => other
  }

  /** Null at `p`, down through struct members, so every child vector covers the position. */
  def putNullTree(v: WritableColumnVector, t: DataType, p: Int): Unit = {
    v.reserve(p + 1)
    v.putNull(p)
    t match {
      case s: StructType => s.fields.indices.foreach(i => putNullTree(v.getChild(i), s(i).dataType, p))
      case _ => ()
    }
  }

  /** The writer of a projected field (its struct members filtered by `projection`). */
  def forField(
      field: StructField,
      source: ValueSource,
      batch: BatchState,
      projection: ProjectionFilter = ProjectionFilter.All
  ): VectorWriter = field.dataType match {
    case BooleanType | ByteType => new FixedWriter(field, source, batch, 1)
    case ShortType => new FixedWriter(field, source, batch, 2)
    case IntegerType | DateType | FloatType => new FixedWriter(field, source, batch, 4)
    case LongType | DoubleType | TimestampType | TimestampNTZType => new FixedWriter(field, source, batch, 8)
    case d: DecimalType => new FixedWriter(field, source, batch, if (d.precision <= 18) 8 else 16)
    case StringType | BinaryType => new BytesWriter(field, source, batch)
    case _: ArrayType => new ArrayVectorWriter(field, source, batch)
    case _: MapType => new MapVectorWriter(field, source, batch)
    case _: StructType => new StructVectorWriter(field, source, batch, projection)
    case t if VariantTypes.isVariant(t) => new VariantVectorWriter(field, source, batch)
    case other =>
      throw DrillErrors.internalArgument(
        s"column '${field.name}': the loader cannot write ${other.simpleString}"
      )
  }
}
