package sparkdrill.spark.stream

import sparkdrill.errors.DrillErrors

import sparkdrill.stream.state._

import java.io.FileNotFoundException
import java.util

import scala.util.Try

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FileSystem, Path}
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.connector.catalog.{SupportsRead, Table, TableCapability, TableProvider}
import org.apache.spark.sql.connector.expressions.Transform
import org.apache.spark.sql.connector.read.{LocalScan, Scan, ScanBuilder}
import org.apache.spark.sql.sources.DataSourceRegister
import org.apache.spark.sql.types._
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.apache.spark.unsafe.types.UTF8String

import sparkdrill.spark.{DrillTable, SessionContext, SparkLineCheck}

/** `spark.read.format("drill-state").load(checkpointLocation)`: the files a spark-drill stream read, one row
  * per file and batch, committed or not, read on the driver from the state files without the lease (so it
  * works while the stream runs). The path may be the query's checkpoint (every spark-drill source under
  * `sources/<n>/`), one source's directory, or the state directory itself.
  */
final class StateSource extends TableProvider with DataSourceRegister {
  override def shortName(): String = "drill-state"

  // The line check first, as in DescribeSource: the other line's Scala library may fail any class we load.
  override def inferSchema(options: CaseInsensitiveStringMap): StructType = {
    SparkLineCheck.verified
    StateTable.schema
  }

  override def getTable(
      schema: StructType,
      partitioning: Array[Transform],
      properties: util.Map[String, String]
  ): Table = {
    SparkLineCheck.verified
    StateTable.open(properties)
  }
}

private[stream] final class StateTable(paths: Seq[String], conf: Configuration)
    extends Table
    with SupportsRead {
  override def name(): String = s"drill-state `${paths.mkString(",")}`"
  override def schema(): StructType = StateTable.schema
  override def capabilities(): util.Set[TableCapability] = util.EnumSet.of(TableCapability.BATCH_READ)

  // The listing is small and read on the driver: a local scan, no tasks.
  override def newScanBuilder(options: CaseInsensitiveStringMap): ScanBuilder = () =>
    new LocalScan {
      override def readSchema(): StructType = StateTable.schema
      override def rows(): Array[InternalRow] = StateTable.rows(paths, conf)
    }: Scan
}

private[stream] object StateTable {

  // Here, not in StateSource: Java's ServiceLoader links every registered source, and a source's own code
  // must not name Scala collection classes of one line (on the other line's Scala library it would fail to
  // load, and take every `format(...)` lookup down with it).
  def open(properties: util.Map[String, String]): StateTable = {
    val options = new CaseInsensitiveStringMap(properties)
    val paths = DrillTable.paths(options)
    if (paths.isEmpty)
      throw DrillErrors.streamStateNeedsPath()
    new StateTable(paths, SessionContext.hadoopConf(SessionContext.active, options))
  }

  val schema: StructType = StructType(
    Seq(
      StructField("path", StringType, nullable = false),
      StructField("length", LongType, nullable = false),
      StructField("modificationTime", TimestampType, nullable = false),
      StructField("batchId", LongType, nullable = false),
      StructField("readAt", TimestampType, nullable = false),
      StructField("committed", BooleanType, nullable = false),
      // SPEC 11.1: null where the state does not know (written by an older spark-drill, not committed yet,
      // not cleaned).
      StructField("discovery_time", TimestampType, nullable = true),
      StructField("commit_time", TimestampType, nullable = true),
      StructField("archive_time", TimestampType, nullable = true),
      StructField("archive_mode", StringType, nullable = true),
      StructField("archive_path", StringType, nullable = true)
    )
  )

  def rows(paths: Seq[String], conf: Configuration): Array[InternalRow] =
    paths.flatMap { p =>
      val asked = new Path(p)
      val fs = asked.getFileSystem(conf)
      val dirs = stateDirs(fs, fs.makeQualified(asked))
      if (dirs.isEmpty)
        throw DrillErrors.streamNoState(p, StreamState.dirFor(new Path("x")).getName)
      dirs.flatMap(d => StateReader.snapshot(fs, d)).flatMap(rowsOf)
    }.toArray

  /** The state directories for a path: the state directory itself, a source's directory, or each source of
    * a checkpoint (by source number).
    */
  def stateDirs(fs: FileSystem, asked: Path): Seq[Path] = {
    def isState(d: Path) = fs.exists(new StateLayout(d).metadata)
    Seq(asked, StreamState.dirFor(asked)).find(isState) match {
      case Some(d) => Seq(d)
      case None =>
        val sources =
          try fs.listStatus(new Path(asked, "sources")).toSeq.filter(_.isDirectory).map(_.getPath)
          catch { case _: FileNotFoundException => Nil }
        sources
          .sortBy(s => (Try(s.getName.toLong).getOrElse(Long.MaxValue), s.getName))
          .map(StreamState.dirFor)
          .filter(isState)
    }
  }

  private def rowsOf(s: StateSnapshot): Seq[InternalRow] = {
    val cleaned = s.cleaned.map(r => (r.path, r.batchId) -> r).toMap
    def micros(t: Option[Long]): Any = t.map(_ * 1000L).orNull
    def text(t: Option[String]): UTF8String = t.map(UTF8String.fromString).orNull
    s.batches.flatMap { b =>
      b.files.map { f =>
        val clean = cleaned.get((f.path, f.batchId))
        InternalRow(
          UTF8String.fromString(StreamPaths.resolve(s.metadata.inputRoot, f.path)),
          f.length,
          f.modificationTime * 1000L,
          f.batchId,
          f.readAtMillis * 1000L,
          f.batchId <= s.lastCommittedBatchId,
          micros(f.discoveredAtMillis),
          micros(b.committedAt),
          micros(clean.flatMap(_.at)),
          text(clean.map(_.mode)),
          text(clean.flatMap(_.archivePath))
        )
      }
    }
  }
}
