package sparkdrill.spark.stream

import sparkdrill.errors.DrillErrors

import java.util

import scala.jdk.CollectionConverters._

import org.apache.spark.broadcast.Broadcast
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.connector.read.{InputPartition, PartitionReaderFactory}
import org.apache.spark.sql.connector.read.streaming._
import org.apache.spark.sql.types.StructType
import org.apache.spark.util.SerializableConfiguration

import sparkdrill.spark.{DrillReaderFactory, StreamInputPartition}
import sparkdrill.stream.{StreamDefinition, StreamEngine}

/** Spark's view of one started query's stream (SPEC 11): offsets are the numbers of the stream engine's
  * micro-batches, whose files it logs before an offset is handed out. Only translation lives here.
  *
  * @param required the columns to read: the stream's, or fewer should Spark push a projection into a stream
  * @param checkpoint the directory Spark gives this source, `<checkpoint>/sources/<n>`
  */
private[sparkdrill] final class DrillMicroBatchStream(
    definition: StreamDefinition,
    required: StructType,
    checkpoint: String
) extends MicroBatchStream
    with SupportsAdmissionControl
    with SupportsTriggerAvailableNow
    with ReportsSourceMetrics {

  private val session = SparkSession.active
  private val engine = new StreamEngine(definition, checkpoint, StreamTable.streamSession(session))
  private var lastOffset: Long = -1L

  private lazy val conf: Broadcast[SerializableConfiguration] =
    session.sparkContext.broadcast(new SerializableConfiguration(definition.conf))

  override def initialOffset(): Offset = StreamOffset(engine.initialBatch())

  override def deserializeOffset(json: String): Offset = StreamOffset.parse(json)

  override def getDefaultReadLimit: ReadLimit = FilesAndBytes(
    definition.settings.maxFilesPerTrigger,
    definition.settings.maxBytesPerTrigger
  )

  override def latestOffset(): Offset =
    throw DrillErrors.notSupported("latestOffset(start, limit) is the entry point of this source")

  override def latestOffset(startOffset: Offset, limit: ReadLimit): Offset = {
    val (files, bytes) = limits(limit)
    lastOffset = engine.latestBatch(StreamOffset.of(startOffset).batch, files, bytes)
    StreamOffset(lastOffset)
  }

  override def reportLatestOffset(): Offset = StreamOffset(lastOffset, Some(engine.outstandingFiles))

  override def prepareForTriggerAvailableNow(): Unit = engine.prepareAvailableNow()

  override def planInputPartitions(start: Offset, end: Offset): Array[InputPartition] =
    engine.plan(StreamOffset.of(start).batch, StreamOffset.of(end).batch, required) match {
      case None => Array.empty
      case Some(plan) =>
        plan.tasks.zipWithIndex.map { case (tasks, i) =>
          StreamInputPartition(i, tasks, plan.spec): InputPartition
        }
    }

  // Made once: a micro-batch's partitions carry what their readers are handed, so Spark's order of calls
  // does not matter.
  private lazy val readerFactory = new DrillReaderFactory(None, conf)

  override def createReaderFactory(): PartitionReaderFactory = readerFactory

  override def commit(end: Offset): Unit = engine.commit(StreamOffset.of(end).batch)

  override def stop(): Unit = engine.stop()

  override def metrics(latestConsumedOffset: util.Optional[Offset]): util.Map[String, String] = {
    val consumed =
      if (latestConsumedOffset.isPresent) StreamOffset.of(latestConsumedOffset.get).batch else -1L
    engine.metrics(consumed).asJava
  }

  override def toString: String = s"DrillStream[${definition.path}]"

  private def limits(limit: ReadLimit): (Int, Long) = limit match {
    case _: ReadAllAvailable => (Int.MaxValue, Long.MaxValue)
    case l: FilesAndBytes => (l.maxFiles, l.maxBytes)
    case l: ReadMaxFiles => (l.maxFiles, Long.MaxValue)
    case l: CompositeReadLimit =>
      l.getReadLimits.map(limits).foldLeft((Int.MaxValue, Long.MaxValue)) { case ((f, b), (f2, b2)) =>
        (math.min(f, f2), math.min(b, b2))
      }
    case _ => getDefaultReadLimit match { case l: FilesAndBytes => (l.maxFiles, l.maxBytes) }
  }
}
