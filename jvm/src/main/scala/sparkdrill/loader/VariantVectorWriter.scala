package sparkdrill.loader

import org.apache.spark.sql.execution.vectorized.WritableColumnVector
import org.apache.spark.sql.types.StructField

/** A VARIANT column (Spark 4): Spark's vector for it holds two binary children, the value (0) and the
  * metadata (1), so a value is two byte copies and the byte limit watches both children.
  */
private[loader] final class VariantVectorWriter(field: StructField, source: ValueSource, batch: BatchState)
    extends VectorWriter(field, source, batch) {

  private val batchBytes = batch.options.batchBytes
  private var pending = 0L // the bytes of the value `place` makes room for

  override def setVariant(value: Array[Byte], metadata: Array[Byte]): Unit = {
    pending = value.length.toLong + metadata.length
    val p = place()
    put(vector, p, value, metadata)
    done()
  }

  override protected def place(): Int = {
    if (bytesUsed + pending > batchBytes) batch.overflow(this)
    settle(source.position)
  }

  // The children are not reserved with their parent: each gets room for the position it takes.
  private def put(v: WritableColumnVector, p: Int, value: Array[Byte], metadata: Array[Byte]): Unit = {
    val room = math.max(p + 1, batch.options.batchRows)
    v.getChild(0).reserve(room)
    v.getChild(0).putByteArray(p, value, 0, value.length)
    v.getChild(1).reserve(room)
    v.getChild(1).putByteArray(p, metadata, 0, metadata.length)
  }

  // A NOT NULL variant column that got no value holds the variant null (what parse_json('null') gives).
  protected def putZero(p: Int): Unit = {
    vector.reserve(p + 1)
    vector.putNotNull(p)
    put(vector, p, VariantVectorWriter.NullValue, VariantVectorWriter.EmptyMetadata)
  }

  def bytesUsed: Long =
    if (vector == null) 0L
    else
      vector.getChild(0).arrayData().getElementsAppended.toLong +
        vector.getChild(1).arrayData().getElementsAppended

  override protected def copyScalar(
      from: WritableColumnVector,
      fromPos: Int,
      to: WritableColumnVector,
      toPos: Int
  ): Unit = put(to, toPos, from.getChild(0).getBinary(fromPos), from.getChild(1).getBinary(fromPos))
}

private[loader] object VariantVectorWriter {
  // Spark's variant encoding: a primitive null is one header byte 0; metadata version 1 with no keys.
  val NullValue: Array[Byte] = Array[Byte](0)
  val EmptyMetadata: Array[Byte] = Array[Byte](1, 0, 0)
}
