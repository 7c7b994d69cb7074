package sparkdrill.spark.stream

import sparkdrill.errors.DrillErrors

import org.apache.spark.sql.connector.read.streaming.{Offset, ReadLimit}

/** A stream's position: the number of the last micro-batch in its file log (-1 before the first). The files
  * themselves are in the log, so the offset Spark writes every batch stays a few bytes.
  *
  * @param outstandingFiles set only on the offset reported as the latest available (Spark's progress shows
  *   it): the files listed but not yet taken
  */
private[sparkdrill] final case class StreamOffset(batch: Long, outstandingFiles: Option[Long] = None)
    extends Offset {
  override def json(): String = outstandingFiles match {
    case None => s"""{"batch":$batch}"""
    case Some(n) => s"""{"batch":$batch,"outstandingFiles":$n}"""
  }
}

private[sparkdrill] object StreamOffset {
  private val Batch = """\{\s*"batch"\s*:\s*(-?\d+).*""".r

  def parse(json: String): StreamOffset = json.trim match {
    case Batch(n) => StreamOffset(n.toLong)
    case other =>
      throw DrillErrors.notADrillOffset(other)
  }

  def of(offset: Offset): StreamOffset = offset match {
    case o: StreamOffset => o
    case other => parse(other.json())
  }
}

/** The stream's own limit (`maxFilesPerTrigger` and `maxBytesPerTrigger` together): Spark's `ReadMaxBytes`
  * exists from Spark 4.0 only, and a source may define its own `ReadLimit`.
  */
private[sparkdrill] final case class FilesAndBytes(maxFiles: Int, maxBytes: Long) extends ReadLimit
