package sparkdrill.loader

import java.util.{ArrayList => JList}

import org.apache.spark.SparkThrowable
import org.apache.spark.sql.internal.SQLConf
import org.apache.spark.sql.types.{DataType, VariantType}
import org.apache.spark.types.variant.{VariantBuilder, VariantSizeLimitException}
import org.apache.spark.types.variant.VariantBuilder.FieldEntry

/** Spark 4: VARIANT is a type, and Spark's own builder makes its bytes. The Spark 3.5 shim has the same
  * members and says VARIANT is not there.
  */
private[sparkdrill] object VariantTypes {
  val available: Boolean = true

  def variant: DataType = VariantType

  def isVariant(t: DataType): Boolean = t.isInstanceOf[VariantType]

  /** Whether an object may hold a key twice (the last one kept), as `parse_json` decides: the session's
    * `spark.sql.variant.allowDuplicateKeys`, which a task sees too.
    */
  def allowDuplicateKeys: Boolean = SQLConf.get.getConf(SQLConf.VARIANT_ALLOW_DUPLICATE_KEYS)

  def builder(allowDuplicateKeys: Boolean): VariantValueBuilder = new SparkVariantValues(allowDuplicateKeys)
}

/** Over Spark's `VariantBuilder`: the keys and offsets of each open object or array are kept on a stack. */
private final class SparkVariantValues(allowDuplicateKeys: Boolean) extends VariantValueBuilder {
  private var b = new VariantBuilder(allowDuplicateKeys)
  private val starts = new Array[Int](VariantValueBuilder.MaxDepth)
  private val fields = new Array[JList[FieldEntry]](VariantValueBuilder.MaxDepth)
  private val offsets = new Array[JList[Integer]](VariantValueBuilder.MaxDepth)
  private var depth = 0

  def appendNull(): Unit = b.appendNull()
  def appendBoolean(v: Boolean): Unit = b.appendBoolean(v)
  def appendLong(v: Long): Unit = b.appendLong(v)
  def appendDouble(v: Double): Unit = b.appendDouble(v)
  def appendDecimal(v: java.math.BigDecimal): Unit = b.appendDecimal(v)
  def appendString(v: String): Unit = sized(b.appendString(v))
  def appendDate(days: Int): Unit = b.appendDate(days)
  def appendTimestamp(micros: Long, ntz: Boolean): Unit =
    if (ntz) b.appendTimestampNtz(micros) else b.appendTimestamp(micros)

  private def open(): Int = {
    if (depth == starts.length) throw new VariantValueError("a value nested too deep for a VARIANT", None)
    starts(depth) = b.getWritePos
    depth += 1
    depth - 1
  }

  def startObject(): Unit = {
    val d = open()
    if (fields(d) == null) fields(d) = new JList[FieldEntry]() else fields(d).clear()
  }

  def key(name: String): Unit = {
    val d = depth - 1
    fields(d).add(new FieldEntry(name, b.addKey(name), b.getWritePos - starts(d)))
  }

  def endObject(): Unit = {
    depth -= 1
    try sized(b.finishWritingObject(starts(depth), fields(depth)))
    catch {
      case e: RuntimeException with SparkThrowable if e.getCondition == "VARIANT_DUPLICATE_KEY" =>
        val key = e.getMessageParameters.get("key")
        throw new VariantValueError(s"the object has the key '$key' twice", Some(key))
    }
  }

  def startArray(): Unit = {
    val d = open()
    if (offsets(d) == null) offsets(d) = new JList[Integer]() else offsets(d).clear()
  }

  def element(): Unit = {
    val d = depth - 1
    offsets(d).add(b.getWritePos - starts(d))
  }

  def endArray(): Unit = {
    depth -= 1
    sized(b.finishWritingArray(starts(depth), offsets(depth)))
  }

  def writeTo(w: ColumnWriter): Unit = {
    val v = sized(b.result())
    w.setVariant(v.getValue, v.getMetadata)
    clear()
  }

  def clear(): Unit = {
    b = new VariantBuilder(allowDuplicateKeys)
    depth = 0
  }

  private def sized[T](f: => T): T =
    try f
    catch {
      case _: VariantSizeLimitException =>
        throw new VariantValueError("the value is larger than a VARIANT holds (16 MiB)", None)
    }
}
