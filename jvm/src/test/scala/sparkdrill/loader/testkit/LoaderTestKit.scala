package sparkdrill.loader.testkit

import scala.collection.mutable.ArrayBuffer

import org.apache.spark.sql.types._
import org.apache.spark.sql.vectorized.{ColumnVector, ColumnarBatch}

import sparkdrill.loader._

/** A struct value in test rows (a plain Seq is an array). */
final case class S(values: Any*)

/** A map value in test rows, entries in order. */
final case class M(entries: (Any, Any)*)

/** Writes Scala values through the loader's writers and reads batches back, checking each vector's
  * structure on the way (offsets in bounds and ordered, lengths consistent, null flags sane).
  */
object LoaderTestKit {

  def write(w: ColumnWriter, value: Any): Unit = (value, w.dataType) match {
    case (null, _) => w.setNull()
    case (v: Boolean, _) => w.setBoolean(v)
    case (v: Int, _: DecimalType) => w.setDecimal(Decimal(v))
    case (v: Int, _) => w.setInt(v)
    case (v: Long, _) => w.setLong(v)
    case (v: Double, _) => w.setDouble(v)
    case (v: BigDecimal, _) => w.setDecimal(Decimal(v))
    case (v: String, _) => w.setString(v)
    case (v: Array[Byte], BinaryType) => w.setBytes(v, 0, v.length)
    case (s: S, t: StructType) =>
      val tuple = w.struct
      s.values.zip(t.fields).foreach { case (v, f) => if (v != Skip) write(tuple.column(f.name), v) }
    case (m: M, _: MapType) =>
      val map = w.map
      m.entries.foreach { case (k, v) => write(map.key, k); write(map.value, v); map.save() }
    case (seq: Seq[_], _: ArrayType) =>
      val array = w.array
      seq.foreach { e => write(array.element, e); array.save() }
    case (v, t) => throw new IllegalArgumentException(s"cannot write $v as ${t.simpleString}")
  }

  /** A member left unwritten in a struct value (it must come back null or empty). */
  case object Skip

  def writeRow(loader: ResultSetLoader, values: Any*): Unit = {
    val w = loader.writer
    w.start()
    values.zipWithIndex.foreach { case (v, i) => if (v != Skip) write(w.column(i), v) }
    w.save()
  }

  /** Every row of a batch as Scala values, after validating its vectors. */
  def rows(batch: ColumnarBatch, schema: StructType): Seq[Seq[Any]] = {
    assert(batch.numCols == schema.size, s"${batch.numCols} columns, schema has ${schema.size}")
    (0 until batch.numCols).foreach(c =>
      validate(batch.column(c), schema(c).dataType, batch.numRows, schema(c).name)
    )
    (0 until batch.numRows).map(r =>
      (0 until batch.numCols).map(c => read(batch.column(c), schema(c).dataType, r))
    )
  }

  def read(v: ColumnVector, t: DataType, i: Int): Any =
    if (v.isNullAt(i)) null
    else
      t match {
        case BooleanType => v.getBoolean(i)
        case ByteType => v.getByte(i).toInt
        case ShortType => v.getShort(i).toInt
        case IntegerType | DateType => v.getInt(i)
        case LongType | TimestampType | TimestampNTZType => v.getLong(i)
        case FloatType => v.getFloat(i).toDouble
        case DoubleType => v.getDouble(i)
        case d: DecimalType => v.getDecimal(i, d.precision, d.scale).toBigDecimal
        case StringType => v.getUTF8String(i).toString
        case BinaryType => v.getBinary(i).toSeq
        case ArrayType(e, _) =>
          val child = v.getChild(0)
          (0 until length(v, i)).map(k => read(child, e, offset(v, i) + k))
        case s: StructType => S(s.fields.indices.map(k => read(v.getChild(k), s(k).dataType, i)): _*)
        case MapType(kt, vt, _) =>
          val start = offset(v, i)
          val n = length(v, i)
          M(
            (0 until n).map(k => read(v.getChild(0), kt, start + k) -> read(v.getChild(1), vt, start + k)): _*
          )
        case other => throw new IllegalArgumentException(other.simpleString)
      }

  private def offset(v: ColumnVector, i: Int): Int =
    v.asInstanceOf[org.apache.spark.sql.execution.vectorized.WritableColumnVector].getArrayOffset(i)
  private def length(v: ColumnVector, i: Int): Int =
    v.asInstanceOf[org.apache.spark.sql.execution.vectorized.WritableColumnVector].getArrayLength(i)

  /** Structural checks: array values lie inside the child, in order, without overlapping. */
  def validate(v: ColumnVector, t: DataType, rows: Int, name: String): Unit = t match {
    case ArrayType(e, _) =>
      var end = 0
      var maxEnd = 0
      (0 until rows).filterNot(v.isNullAt).foreach { r =>
        val o = offset(v, r)
        val n = length(v, r)
        assert(o >= 0 && n >= 0, s"$name row $r: offset $o length $n")
        assert(o >= end, s"$name row $r: offset $o goes back before $end")
        end = o + n
        maxEnd = math.max(maxEnd, end)
      }
      validate(v.getChild(0), e, maxEnd, s"$name.element")
    case MapType(_, vt, _) =>
      val ends = (0 until rows).filterNot(v.isNullAt).map(r => offset(v, r) + length(v, r))
      validate(v.getChild(1), vt, if (ends.isEmpty) 0 else ends.max, s"$name.value")
    case s: StructType =>
      s.fields.indices.foreach(k => validate(v.getChild(k), s(k).dataType, rows, s"$name.${s(k).name}"))
    case StringType | BinaryType =>
      (0 until rows)
        .filterNot(v.isNullAt)
        .foreach(r => assert(length(v, r) >= 0, s"$name row $r: negative length"))
    case _ => ()
  }

  /** Reads every batch a writing function produces, harvesting when the loader is full; `before` runs
    * before each row is written (and may start rows it does not save).
    */
  def collect(
      loader: ResultSetLoader,
      rowsToWrite: Seq[Seq[Any]],
      before: () => Unit = () => ()
  ): (Seq[Seq[Any]], Seq[Int]) =
    collectEach(loader, rowsToWrite) { r =>
      before()
      writeRow(loader, r: _*)
    }

  /** `writeOne` writes one whole row (start to save) for each item; harvests when the loader is full and at
    * the end. Returns every row read back, and each batch's size.
    */
  def collectEach[A](loader: ResultSetLoader, items: Seq[A])(
      writeOne: A => Unit
  ): (Seq[Seq[Any]], Seq[Int]) = {
    val out = ArrayBuffer.empty[Seq[Any]]
    val sizes = ArrayBuffer.empty[Int]
    def harvest(): Unit = {
      val b = loader.harvest()
      sizes += b.numRows
      out ++= rows(b, loader.projectedSchema)
    }
    items.foreach { item =>
      writeOne(item)
      if (loader.writer.isFull) harvest()
    }
    if (loader.rowCount > 0) harvest()
    (out.toSeq, sizes.toSeq)
  }
}
