package sparkdrill.formats.json

import scala.collection.mutable.ArrayBuffer

import com.fasterxml.jackson.core.{JsonParser, JsonProcessingException, JsonToken}
import com.fasterxml.jackson.databind.ObjectMapper

import sparkdrill.reader.{
  BatchReader,
  BoundRowFilter,
  CommonOptions,
  ParseMode,
  RowFilter,
  RowSink,
  SchemaNegotiator
}
import sparkdrill.loader.{ColumnWriter, RowWriter, TupleWriter}

/** Reads one JSON file into the loader: each top-level object is a row; keys are trimmed and matched to
  * columns case-insensitively. Any other top-level value is a row of the column `value` (SPEC 2).
  *
  * Records, root arrays among them, are found by [[JsonRecords]]: a file `[1, 2]` gives two rows, a file
  * `[1, 2]\n[3]` two rows of `value`, arrays.
  *
  * Bad input follows `mode` (SPEC 6): a value that cannot become its column's type is null in that column
  * (PERMISSIVE), drops the record, or fails the query; broken JSON makes the record malformed, and reading
  * goes on at the next line. Keys no column has are counted as dropped, or kept in the rescued-data column.
  * Discovery is [[JsonDiscovery]]'s: a reader always has the scan's schema.
  *
  * With a pushed row filter, a record that fails it is not saved, and neither a bad value in its other
  * columns nor its keys no column has are reported. Members come in any order (and a key may repeat), so
  * a record is read for the filter's columns alone first, and read whole only when it may pass
  * ([[JsonPrefilter]]).
  *
  * An object record is read straight from its bytes ([[ByteRecordWriter]]) when `readsBytes`; whatever
  * that reader is not sure of (bad input above all) it leaves to Jackson, which reads the record again and
  * decides, as it decides everything in a file read without bytes.
  */
private[sparkdrill] final class JsonBatchReader(negotiator: SchemaNegotiator, readsBytes: Boolean = true)
    extends BatchReader {
  private val file = negotiator.file
  private val errors = negotiator.errorContext
  private val options = negotiator.options
  private def mode = bad.mode
  require(negotiator.definedSchema.isDefined, s"${file.path}: a JSON read has the scan's schema")
  // Hadoop's streams hand out a few KiB per read; Jackson asks for more at a time.
  private val records = new JsonRecords(
    new java.io.BufferedInputStream(file.open(), 1 << 16),
    options(JsonOptions.MaxRecordBytes),
    errors,
    readsBytes
  )
  private def parser = records.parser
  private var done = false
  // The current record is being read again from its bytes (JsonPrefilter): its parser's locations count
  // from the record's start.
  private var rereading = false

  // A stream whose schema evolves stops at a record with members the table lacks (SPEC 11): they are typed
  // as the sample would have typed them, and the read ends after that record, before any row of it is kept.
  private val stopsOnLate = negotiator.stopsOnLateColumns
  private var late: JsonSampler = _
  private def lateMember(key: String, p: JsonParser): Unit = {
    if (late == null) late = JsonSampler.forOptions(options)
    late.addMember(key, p)
  }

  // The record the parser read is whole: a top-level string finished (Jackson reads one lazily) and its text
  // well-formed (JsonRecords.checkText), else a parse error makes it malformed, before anything of it counts.
  private def readWhole(): Unit = {
    if (parser.currentToken() == JsonToken.VALUE_STRING) parser.finishToken()
    records.checkText()
  }

  private val loader = negotiator.build(negotiator.definedSchema.get)
  private val writer: RowWriter = loader.writer
  // Every record becomes a row through the sink, as every format's does: hidden columns, fills, the
  // filter's verdict, late columns, rescued and dropped values, modes.
  private val sink = new RowSink(negotiator, writer, records)
  private val bad = sink.bad
  private val rescued = sink.rescued
  // Late materialization (issue 15): the filter's columns are written through capturing writers (`row` hands
  // them out); null when off (see RowFilter.forRead).
  private val rowFilter: BoundRowFilter = RowFilter.forRead(negotiator, writer).orNull
  private val row: TupleWriter = if (rowFilter == null) writer else rowFilter.view(writer)
  // Bad values in columns other than the filter's, kept until the record is known to pass the filter.
  private val deferred = ArrayBuffer.empty[JsonConversionError]
  // Keys of the current record no column has: counted once the filter keeps the record.
  private var dropped = 0
  private val prefilter: JsonPrefilter =
    if (rowFilter == null) null
    else new JsonPrefilter(rowFilter, CommonOptions.zone(options))
  private val values =
    new JsonValueWriter(
      CommonOptions.zone(options),
      JsonParsers.factory,
      CommonOptions.validateAll(options)
    )
  private val valueWriter: ColumnWriter = row.find(JsonFormat.ValueColumn).orNull
  // singleVariantColumn (SPEC 14): each record, whatever its shape, is that column's VARIANT (its writer
  // skips the record when the query does not read it).
  private val single: Option[ColumnWriter] = options.get(CommonOptions.SingleVariantColumn).flatMap(row.find)
  // NOT NULL columns: a record that lacks the key gets the column's DEFAULT (else its type's zero).
  private val fills: Array[(ColumnWriter, ColumnWriter => Unit)] = sink.fills(row)
  private var badValue = false

  // A key of the table (every file's columns) is just not read; one outside it has nowhere to go.
  private def inTable(key: String): Boolean = negotiator.isTableColumn(key)

  // The byte reader: a cursor over the record's bytes, the row's writer, and the filter columns' own (every
  // other member only skipped, as JsonPrefilter reads them).
  private val cursor = new JsonCursor
  private val bytes =
    new ByteRecordWriter(
      cursor,
      CommonOptions.zone(options),
      CommonOptions.validateAll(options),
      key =>
        if (inTable(key)) ByteMembers.Skip
        else if (stopsOnLate || rescued.enabled) ByteMembers.Rescue // Jackson's path reads it
        else ByteMembers.Drop
    )
  private val filterBytes =
    if (rowFilter == null) null
    else new ByteRecordWriter(cursor, CommonOptions.zone(options), validateAll = false, _ => ByteMembers.Skip)
  values.skipsUnknown = inTable
  values.unknown = (key, p) =>
    if (inTable(key)) p.skipChildren()
    else if (stopsOnLate) lateMember(key, p)
    else if (rescued.enabled)
      rescued.put(key, JsonBatchReader.mapper.readTree[com.fasterxml.jackson.databind.JsonNode](p))
    else {
      dropped += 1
      p.skipChildren()
    }
  // The record is parsed to its end either way; whether it is kept is decided then (readRecord). With a row
  // filter, a bad value outside the filter's columns waits until the record is known to pass.
  values.onError = (w, e) => {
    if (rowFilter != null && !rowFilter.captures(w)) deferred += e
    else judge(e)
    w.setNull()
    // Kept in the rescued-data column, not lost (a row that is not saved drops it).
    if (rescued.enabled) rescue(e)
  }

  /** A value that did not convert, into the rescued-data object under its column's path: a string as a
    * string, any other value as its JSON (as text when it is not strict JSON, such as `NaN`).
    */
  private def rescue(e: JsonConversionError): Unit =
    if (e.string) rescued.put(e.path, e.value)
    else
      try rescued.put(e.path, JsonBatchReader.mapper.readTree(e.value))
      catch { case _: JsonProcessingException => rescued.put(e.path, e.value) }

  /** Applies the mode to a value of the current record that cannot be converted. */
  private def judge(e: JsonConversionError): Unit = {
    bad.badValue(
      errors.error(
        s"cannot convert the JSON value to ${e.dataType.simpleString}",
        line = records.line,
        offset = records.offset,
        column = e.path,
        value = e.value,
        option = ParseMode.advice(mode)
      )
    )
    badValue = true
  }

  def next(): Boolean = {
    if (done) return false
    while (!writer.isFull) {
      val more =
        try readRecord()
        catch { case e: JsonProcessingException => recover(e) }
      if (!more) { done = true; return false }
    }
    true
  }

  private def readRecord(): Boolean = {
    if (!records.next()) return false
    if (records.fromBytes && readBytes()) return true
    sink.start()
    badValue = false
    dropped = 0
    late = null // a malformed record's members are not new columns
    rereading = false
    val isObject = parser.currentToken() == JsonToken.START_OBJECT
    var source = parser
    if (rowFilter != null) {
      if (isObject && prefilter.active) {
        val mayPass = prefilter.mayPass(parser)
        records.checkText() // read to its end: malformed text is the record's error, whether it passes or not
        if (!mayPass) {
          prefilter.errors.foreach(judge) // what the filter read is reported, as in one read
          return rejected()
        }
        source = reread()
      }
      rowFilter.reset()
      deferred.clear()
    }
    sink.fill(fills) // the record may overwrite them
    if (single.isDefined) values.writeColumn(single.get, source)
    else if (isObject)
      try values.writeRecord(row, source)
      catch { case e: JsonProcessingException if rereading => return brokenOnRereading(e) }
    else if (valueWriter != null) values.writeColumn(valueWriter, parser)
    else values.unknown(JsonFormat.ValueColumn, parser) // a `value` the schema lacks: dropped or rescued
    // Jackson reads a string lazily: finished here, a broken one is this record's error even when no column
    // reads it. Left unread, it failed at the next token, between records, as a second record. Then its text
    // is checked (read again from its bytes, it was checked before).
    if (!rereading) readWhole()
    if (late != null && !late.isEmpty) sink.late(late.schema)
    if (rowFilter != null) {
      if (!rowFilter.passes()) return rejected()
      if (prefilter != null) prefilter.judged(passed = true)
      deferred.foreach(judge)
    }
    if (badValue) {
      if (mode == ParseMode.DropMalformed) return true // not saved: the next start() overwrites it
      bad.keepRaw(records.text(records.end))
    }
    sink.save(dropped)
    true
  }

  /** The current record, an object, read from its bytes; false when the byte reader left it to Jackson (the
    * parser is then on its START_OBJECT). Nothing of the record is kept until it is read to its end.
    */
  private def readBytes(): Boolean = {
    while (true)
      try return writeBytes()
      catch {
        case NeedMore =>
          if (!records.moreBytes()) {
            records.toJackson() // cut short by the end of the file: Jackson reports it
            return false
          }
        case GiveUp =>
          records.toJackson()
          return false
      }
    false
  }

  private def writeBytes(): Boolean = {
    if (rowFilter != null && prefilter.active) { // the filter's columns first, kept before any row starts
      rowFilter.reset()
      rowFilter.forwarding = false
      try {
        records.startBytes(cursor)
        filterBytes.writeRecord(rowFilter.only)
      } finally rowFilter.forwarding = true
      if (!rowFilter.passes()) {
        records.endBytes(cursor)
        return rejected()
      }
    }
    sink.start()
    if (rowFilter != null) rowFilter.reset()
    sink.fill(fills) // the record may overwrite them
    records.startBytes(cursor)
    if (single.isDefined) bytes.writeValue(single.get) else bytes.writeRecord(row)
    records.endBytes(cursor)
    if (rowFilter != null) {
      if (!rowFilter.passes()) return rejected()
      prefilter.judged(passed = true)
    }
    sink.save(bytes.dropped)
    true
  }

  // Rejected by the filter: not saved, as DROPMALFORMED leaves a row (the next start() discards it); its
  // other columns' bad values and its unknown keys are not reported.
  private def rejected(): Boolean = {
    sink.rejected()
    if (prefilter != null) prefilter.judged(passed = false)
    true
  }

  /** A parser of the current record's bytes, which the reader has read to its end, on its START_OBJECT. */
  private def reread(): JsonParser = {
    val again = JsonParsers.forFile().createParser(records.bytes)
    again.nextToken()
    rereading = true
    again
  }

  /** Jackson skips some values without checking them all (a string's UTF-8): read again in full, a record
    * that the filter's read passed may still be broken. It ends where the first read ended, so reading
    * goes on there, past it: per mode, an error, a row of nulls with its text, or dropped.
    */
  private def brokenOnRereading(e: JsonProcessingException): Boolean = {
    if (records.inRootArray) throw syntaxError(e)
    sink.broken(syntaxError(e), records.text(records.end))
    true
  }

  /** Broken JSON: per mode, the record is an error, dropped, or a row of nulls with its text; then reading
    * starts again at the next line. Inside a root array there is no next record to find, so it fails.
    */
  private def recover(e: JsonProcessingException): Boolean = {
    if (mode == ParseMode.FailFast || records.inRootArray) throw syntaxError(e)
    records.toBroken()
    val restart = records.nextRecordStart
    sink.broken(syntaxError(e), records.text(restart))
    records.restartAt(restart)
  }

  // Names the record that is broken (its first line and offset) and Jackson's reason.
  private def syntaxError(e: JsonProcessingException) =
    JsonMalformed.error(records, errors, e, mode, located = !rereading)

  def close(): Unit = records.close()
}

private[sparkdrill] object JsonBatchReader {
  private val mapper = new ObjectMapper(JsonParsers.factory)
}
