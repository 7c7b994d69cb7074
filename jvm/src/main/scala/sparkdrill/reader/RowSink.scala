package sparkdrill.reader

import org.apache.spark.sql.types.StructType

import sparkdrill.errors.DrillErrors
import sparkdrill.loader.{ColumnWriter, RowWriter, TupleWriter}

/** The one place a record becomes a row (DESIGN, "The record-reader template"): every format's record loop,
  * the template's ([[RecordReader]]) and JSON's, calls it for each record, so a per-row duty is written once
  * and every format has it:
  *  - [[start]] begins the row and writes the hidden columns (`_line`, `_offset`, `sheet`) the query reads;
  *  - [[fill]] writes each NOT NULL column's DEFAULT (or zero) before the record's own values;
  *  - [[broken]] is a record that cannot be parsed, per `mode` ([[BadRecords]]);
  *  - [[rejected]] is a record the pushed row filter turned down (counted; its row left unsaved);
  *  - [[late]] stops a stream whose schema evolves at a record with columns the table lacks (SPEC 11);
  *  - [[save]] keeps the row, after the record's rescued values and its count of dropped ones.
  * A row that is neither saved nor broken is dropped: the next [[start]] discards it.
  */
private[sparkdrill] final class RowSink(
    negotiator: SchemaNegotiator,
    val writer: RowWriter,
    at: RecordPosition
) {
  private val errors = negotiator.errorContext
  val bad = new BadRecords(negotiator.options, writer)
  val rescued = new RescuedData(negotiator.options, writer, errors.path)
  def mode: ParseMode = bad.mode

  private def projected(name: String): ColumnWriter = writer.find(name).filter(_.isProjected).orNull
  private val lineWriter = projected(RecordColumns.Line)
  private val offsetWriter = projected(RecordColumns.Offset)
  private val sheetWriter = projected(RecordColumns.Sheet)

  /** The record's position as errors name it: without line and offset where the format cannot tell them. */
  def errorsHere: ErrorContext = if (at.line < 0) errors.withoutPositions else errors

  /** Begins the current record's row with its hidden columns, nothing rescued yet. */
  def start(): Unit = {
    writer.start()
    writeHidden()
    if (rescued.enabled) rescued.reset()
  }

  private def writeHidden(): Unit = {
    if (lineWriter != null) lineWriter.setLong(known(at.line, "_line"))
    if (offsetWriter != null) offsetWriter.setLong(known(at.offset, "_offset"))
    if (sheetWriter != null) at.sheet.foreach(sheetWriter.setString)
  }

  // A range of a bzip2 file knows neither its lines nor its offsets; a workbook knows lines only.
  private def known(value: Long, column: String): Long =
    if (value >= 0) value
    else
      throw DrillErrors.internal(
        if (at.line < 0) s"${errors.path}: _line and _offset cannot be read from a range of a bzip2 file"
        else s"${errors.path}: $column cannot be read: this format's records have no byte offset"
      )

  /** NOT NULL columns of `row` the record may lack, each with its DEFAULT (else its type's zero). */
  def fills(row: TupleWriter): Array[(ColumnWriter, ColumnWriter => Unit)] =
    writer.schema.fields.flatMap { f =>
      if (f.nullable) None
      else
        for {
          w <- row.find(f.name).filter(_.isProjected); v <- negotiator.fill(f.name)
        } yield w -> Fills.writer(f, v)
    }

  /** Writes `fills` (see [[fills]]) into the row begun: the record's own values overwrite them. */
  def fill(fills: Array[(ColumnWriter, ColumnWriter => Unit)]): Unit = {
    var i = 0
    while (i < fills.length) { fills(i)._2(fills(i)._1); i += 1 }
  }

  /** A record that cannot be parsed (`why`, its `text` as read): an error, dropped, or a row of nulls with
    * its text in the corrupt-record column, per `mode`.
    */
  def broken(error: => ScanException, text: => String): Unit = bad.brokenRecord(error, text)(writeHidden())

  /** The row filter turned the current record down: counted, its row not saved. */
  def rejected(): Unit = negotiator.countFiltered(1)

  /** The current record has columns the table lacks and the stream stops on them (see
    * [[SchemaNegotiator.stopsOnLateColumns]]): the read ends before the record's row is kept.
    */
  def late(columns: StructType): Nothing = negotiator.lateColumns(columns, at.line)

  /** Keeps the row: `dropped` values had nowhere to go (counted), rescued ones are written. */
  def save(dropped: Int): Unit = {
    if (dropped > 0) negotiator.countDropped(dropped.toLong)
    if (rescued.enabled) rescued.write(at.line)
    writer.save()
  }
}
