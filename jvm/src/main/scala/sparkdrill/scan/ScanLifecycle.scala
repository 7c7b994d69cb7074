package sparkdrill.scan

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.vectorized.ColumnarBatch

import sparkdrill.reader.{BatchReader, ScanException}
import sparkdrill.loader.{ResultSetLoader, ResultSetLoaders}
import sparkdrill.errors.{DrillErrors, EndsTheQuery}

/** Reads the files of one task in turn: opens each file's reader with a negotiator, drives the loader, and
  * hands out batches assembled in the output order. A batch never spans two files, so per-file constants
  * stay constant. Owns every resource it opens; `close()` frees them all, once.
  */
private[sparkdrill] final class ScanLifecycle(spec: ScanSpec, tasks: Array[FileTask], conf: Configuration)
    extends AutoCloseable {
  private var loader: ResultSetLoader = _
  private var assembler: OutputAssembler = _
  private var nextTask = 0
  private var input: HadoopFileInput = _
  private var reader: BatchReader = _
  private var negotiator: FileNegotiator = _
  private var current: ColumnarBatch = _
  private var closed = false
  // The reader has ended, but a row it wrote overflowed into the loader's next batch.
  private var draining = false

  // Metrics.
  var filesRead: Long = 0L
  var rowsRead: Long = 0L
  var batchesRead: Long = 0L
  var droppedValues: Long = 0L
  // Records the readers' row filter rejected before converting them (Spark's filter would drop them too).
  var rowsFiltered: Long = 0L
  var bytesRead: Long = 0L
  // Files gone between planning and reading, skipped under ignoreMissingFiles.
  var filesSkipped: Long = 0L
  // Files that turned out corrupt while read, their rest skipped under ignoreCorruptFiles.
  var filesCorrupt: Long = 0L

  try {
    loader = ResultSetLoaders.create(spec.loaderOptions, spec.readerSchema, spec.projection)
    assembler = new OutputAssembler(spec)
  } catch { case e: Throwable => close(); throw e }

  /** Moves to the next non-empty batch; false when every file is read. */
  def next(): Boolean = {
    // A pushed LIMIT: Spark applies it again, so stopping after the batch that reaches it is enough.
    if (rowsRead >= spec.rowLimit) return false
    while (true) {
      // The reader ended while its last row overflowed into the next batch: that row is this batch.
      if (draining) {
        draining = false
        if (loader.rowCount > 0) return harvest(more = false)
        closeFile()
      }
      if (reader == null && !openNextFile()) return false
      val more =
        try reader.next()
        catch {
          case e: RuntimeException with EndsTheQuery => throw e
          // ignoreCorruptFiles: the rows read so far stay, the rest of the file is skipped (Spark's rule).
          case e: Exception if ScanLifecycle.isCorrupt(e) && spec.options(ScanOptions.IgnoreCorruptFiles) =>
            filesCorrupt += 1
            false
          case e: Exception => throw withFile(e)
        }
      if (loader.rowCount > 0) return harvest(more)
      if (!more) closeFile()
    }
    false
  }

  private def harvest(more: Boolean): Boolean = {
    current = assembler.assemble(loader.harvest())
    rowsRead += current.numRows
    batchesRead += 1
    if (!more) {
      if (loader.rowCount > 0) draining = true else closeFile()
    }
    true
  }

  def batch: ColumnarBatch = current

  def overflowRows: Long = if (loader == null) 0L else loader.overflowRows

  private def openNextFile(): Boolean = {
    while (nextTask < tasks.length) {
      val task = tasks(nextTask)
      nextTask += 1
      if (open(task)) return true
    }
    false
  }

  /** Opens the task's file; false when it is gone and `ignoreMissingFiles` says to skip it. */
  private def open(task: FileTask): Boolean = {
    val file = task.file
    input = new HadoopFileInput(file.path, task.start, task.end, conf)
    negotiator = new FileNegotiator(
      input,
      file.displayPath,
      spec.options,
      definedSchema = Some(spec.readerSchema),
      fileSchema = task.fileSchema.orElse(spec.positionalSchema),
      projection = spec.projection,
      makeLoader = _ => loader,
      tableColumns = spec.tableColumns,
      byPosition = spec.positionalSchema.isDefined,
      elements = spec.requestedElements,
      fills = spec.fills,
      rowFilter = spec.rowFilter,
      late = spec.lateColumns.map(l => (columns, line) => l.stop(file.displayPath, columns, line, conf))
    )
    try reader = FormatRegistry.named(file.format).newReader(negotiator)
    catch {
      case e: Exception =>
        input.close()
        input = null
        if (ScanLifecycle.isCorrupt(e) && spec.options(ScanOptions.IgnoreCorruptFiles)) {
          filesCorrupt += 1
          negotiator = null
          return false
        }
        if (ScanLifecycle.isMissing(e) && spec.options(ScanOptions.IgnoreMissingFiles)) {
          filesSkipped += 1
          negotiator = null
          return false
        }
        throw withFile(e)
    }
    assembler.startFile(task, negotiator.readerSchema)
    filesRead += 1
    true
  }

  private def withFile(e: Exception): Exception = e match {
    case s: ScanException => s
    case other if ScanLifecycle.isMissing(other) =>
      DrillErrors.missingFile(negotiator.errorContext.path, other)
    case other =>
      DrillErrors.unreadableFile(negotiator.errorContext.path, other)
  }

  private def closeFile(): Unit = {
    if (negotiator != null) {
      droppedValues += negotiator.dropped
      rowsFiltered += negotiator.filtered
    }
    if (input != null) bytesRead += input.bytesRead
    try if (reader != null) reader.close()
    finally {
      reader = null
      negotiator = null
      if (input != null) input.close()
      input = null
    }
  }

  def close(): Unit = if (!closed) {
    closed = true
    try closeFile()
    finally
      try if (assembler != null) assembler.close()
      finally if (loader != null) loader.close()
  }
}

private[sparkdrill] object ScanLifecycle {

  /** Whether `e` is a file that cannot be read as it claims to be (corrupt or truncated compression, an I/O
    * error): what `ignoreCorruptFiles` skips, as in Spark. A missing file is not corrupt.
    */
  def isCorrupt(e: Throwable): Boolean =
    !isMissing(e) && Iterator
      .iterate(e)(_.getCause)
      .takeWhile(_ != null)
      .take(10)
      .exists(_.isInstanceOf[java.io.IOException])

  /** Whether `e` (or a cause) says the file does not exist. */
  def isMissing(e: Throwable): Boolean =
    Iterator
      .iterate(e)(_.getCause)
      .takeWhile(_ != null)
      .take(10)
      .exists(_.isInstanceOf[java.io.FileNotFoundException])
}
