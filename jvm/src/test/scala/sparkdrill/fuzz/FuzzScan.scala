package sparkdrill.fuzz

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path}
import java.util.concurrent.atomic.AtomicInteger

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters
import org.apache.spark.sql.types._
import org.scalatest.Assertions._

import sparkdrill.reader.ScanException
import sparkdrill.scan.{FileTask, ScanLifecycle, ScanTestKit, SplitPlanner, TableScan}

/** The real scan as the fuzz properties drive it: a file on the local file system, planned and discovered by
  * `TableScan.open` (ScanTestKit), read through `ScanLifecycle` whole or in byte ranges, every value rendered
  * as text; and the checks every error must pass.
  */
object FuzzScan {
  val Corrupt = "_corrupt_record"
  val Modes: Seq[String] = Seq("PERMISSIVE", "DROPMALFORMED", "FAILFAST")

  /** `_line` and `_offset`, requested the way Spark requests hidden columns. */
  val Positions: Seq[StructField] =
    Seq(ScanTestKit.metadataField("_line", LongType), ScanTestKit.metadataField("_offset", LongType))

  /** Rows, each value rendered as text (null for null). */
  type Rows = Vector[Vector[String]]

  /** The rows a read returns, or the error it fails with. */
  type Outcome = Either[ScanException, Rows]

  /** The documented errors (docs/errors.md, docs/options.md), by the start of their reason. */
  object Reason {
    val UnclosedQuote = "malformed record: a quoted field is never closed"
    val HeaderQuote = "unterminated quote in the header line"
    val SplitLineEnd = "a quoted field holds a line end where the file was split"
    val MalformedJson = "malformed JSON"
    val JsonConversion = "cannot convert the JSON value to"
  }

  private val examples = new AtomicInteger()

  /** Writes `data` as a file `name`, in a directory of its own under `root`. */
  def write(root: Path, name: String, data: Array[Byte]): Path = {
    val dir = Files.createDirectories(root.resolve(s"example-${examples.incrementAndGet()}"))
    Files.write(dir.resolve(name), data)
  }

  def delete(file: Path): Unit = {
    Files.deleteIfExists(file)
    Files.deleteIfExists(file.getParent)
  }

  /** Plans the table of one file: lists it and runs discovery (a header, a JSON sample). */
  def open(file: Path, options: Seq[(String, String)]): Either[ScanException, TableScan] =
    try Right(ScanTestKit.open(Seq(file.toString), options))
    catch { case e: ScanException => Left(e) }

  /** `*` and the record positions. */
  def withPositions(scan: TableScan): StructType = StructType(scan.schema.fields.toSeq ++ Positions)

  /** Reads `required` whole (one task), or cut into byte ranges of at most `splitBytes` by the planner, read
    * in file order, each by a lifecycle of its own (as Spark's tasks read them) or all by one (one task that
    * holds several ranges).
    */
  def read(
      scan: TableScan,
      required: StructType,
      splitBytes: Option[Long] = None,
      oneLifecycle: Boolean = false
  ): Outcome =
    try {
      val settings = splitBytes.fold(ScanTestKit.OneTask)(b => SplitPlanner.Settings(b, 0L, 1))
      val plan = scan.plan(required, Nil, Long.MaxValue, settings)
      val ranges = plan.tasks.flatten.sortBy(t => (t.file.path, t.start)).toVector
      val groups: Vector[Array[FileTask]] =
        if (oneLifecycle) Vector(ranges.toArray) else ranges.map(t => Array(t))
      Right(groups.flatMap(g => rows(new ScanLifecycle(plan.spec, g, ScanTestKit.conf), required)))
    } catch { case e: ScanException => Left(e) }

  private def rows(lifecycle: ScanLifecycle, required: StructType): Rows = {
    val out = Vector.newBuilder[Vector[String]]
    try
      while (lifecycle.next()) {
        val batch = lifecycle.batch
        (0 until batch.numRows).foreach { r =>
          val row = batch.getRow(r)
          out += required.fields.indices.map(i => render(row, i, required.fields(i).dataType)).toVector
        }
      }
    finally lifecycle.close()
    out.result()
  }

  private def text(s: String): String = if (s == null) "null" else s

  /** A value as text: scalars as Scala prints them, structs as `{a,b}`, arrays as `[a,b]`. */
  def render(g: SpecializedGetters, i: Int, t: DataType): String =
    if (g.isNullAt(i)) null
    else
      t match {
        case _: StringType => g.getUTF8String(i).toString
        case LongType => g.getLong(i).toString
        case IntegerType => g.getInt(i).toString
        case DoubleType => g.getDouble(i).toString
        case BooleanType => g.getBoolean(i).toString
        case s: StructType =>
          val inner = g.getStruct(i, s.size)
          s.fields.indices.map(j => text(render(inner, j, s.fields(j).dataType))).mkString("{", ",", "}")
        case a: ArrayType =>
          val data = g.getArray(i)
          (0 until data.numElements()).map(j => text(render(data, j, a.elementType))).mkString("[", ",", "]")
        case other => s"<${other.simpleString}>" // no fuzz file makes other types
      }

  /** An outcome for a failure message: the error, or the number of rows. */
  def describe(o: Outcome): String = o match {
    case Left(e) => s"error: ${e.getMessage}"
    case Right(rows) => s"${rows.size} rows"
  }

  /** Two outcomes that must be the same: the same rows, or the same error at the same place. */
  /** count(*) reads no values, and counts the same records as `got` (or fails the same way). */
  def assertSameCount(scan: TableScan, got: Outcome, mode: String): Unit = {
    val counted = read(scan, new StructType())
    val sameCount = (got, counted) match {
      case (Right(a), Right(b)) => a.size == b.size
      case (Left(_), Left(_)) => same(got, counted)
      case _ => false
    }
    assert(sameCount, s"$mode: count(*) gives ${describe(counted)}; * gives ${describe(got)}")
  }

  def same(a: Outcome, b: Outcome): Boolean = (a, b) match {
    case (Right(x), Right(y)) => x == y
    case (Left(x), Left(y)) => x.reason == y.reason && x.line == y.line && x.offset == y.offset
    case _ => false
  }

  /** Properties (a) and (d): `e` is one of the documented errors `allowed`, not an internal exception that
    * the scan wrapped; it names the file, a byte offset and (for a record's error) a line.
    */
  def checkError(e: ScanException, file: Path, allowed: Seq[String], what: String): Unit = {
    val clue = s"$what: ${e.getMessage}"
    if (e.getCause != null) fail(s"an internal ${e.getCause.getClass.getName} became a scan error ($clue)", e)
    assert(
      allowed.exists(e.reason.startsWith(_)),
      s"an error this input must not cause (documented here: ${allowed.mkString("; ")}): $clue"
    )
    assert(e.path.endsWith("/" + file.getFileName.toString), s"the error does not name the file: $clue")
    assert(e.offset >= 0, s"the error names no byte offset: $clue")
    if (!e.reason.startsWith(Reason.SplitLineEnd)) assert(e.line > 0, s"the error names no line: $clue")
  }

  /** Whether the corrupt-record text `got` is `full`, or (longer than `max` bytes) a prefix of it of at most
    * `max` bytes, cut at a character boundary and followed by the documented marker.
    */
  def capped(got: String, full: String, max: Int): Boolean =
    if (got == null || full == null) got == full
    else {
      val fullBytes = full.getBytes(UTF_8).length
      if (fullBytes <= max) got == full
      else
        Marker.findAllMatchIn(got).toSeq.lastOption.exists { m =>
          val kept = got.substring(0, m.start)
          val keptBytes = kept.getBytes(UTF_8).length
          m.end == got.length && full.startsWith(kept) && keptBytes <= max &&
          m.group(1).toLong == (fullBytes - keptBytes).toLong
        }
    }

  private val Marker = """\.\.\. \((\d+) more bytes; maxRecordTextBytes\)""".r
}
