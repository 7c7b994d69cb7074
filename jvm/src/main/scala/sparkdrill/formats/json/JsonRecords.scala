package sparkdrill.formats.json

import java.io.InputStream
import java.nio.charset.StandardCharsets
import java.nio.charset.StandardCharsets.UTF_8

import com.fasterxml.jackson.core.{JsonParseException, JsonParser, JsonProcessingException, JsonToken}

import sparkdrill.reader.{ErrorClasses, ErrorContext}

/** The top-level records of one JSON file, over its [[RecordTape]]: where each begins (its byte offset and
  * line), root arrays entered, and, after a broken record, where reading goes on. The reader reads each
  * record's value with [[parser]]; what a record means (a row, a `value`, an error) is the reader's.
  *
  * Top-level arrays: when the file's first top-level value is an array that starts with an object, is empty,
  * or is all the file holds, every top-level array is a root array whose elements are the records (a file
  * `[1, 2]` gives two records). Otherwise each top-level array is one record.
  *
  * Byte mode (`readsBytes`, for reads, not discovery): records are found in the tape's bytes, and an object
  * is left to the reader's [[JsonCursor]] ([[fromBytes]]); when the byte reader gives up on it
  * ([[toJackson]]), or the record is another value, a parser is made for that record alone, and the next
  * record is looked for in bytes again where it ended. A file whose first value is an array (root arrays), or
  * that opens with a byte-order mark, is Jackson's from its start; so is the rest of a file once Jackson has
  * read a quarter of its records (at least 64), so that a file of values other than objects is not parsed
  * twice per record.
  *
  * @param maxRecordBytes the most bytes one record may take: a larger one fails the read (naming its line
  *   and offset), as no mode can keep or skip it safely
  */
private[json] final class JsonRecords(
    in: InputStream,
    maxRecordBytes: Long,
    errors: ErrorContext,
    readsBytes: Boolean
) {
  private val tape = new RecordTape(in, math.min(maxRecordBytes, Int.MaxValue - 16L), tooLarge)
  // Where the current parser began, for absolute offsets and lines after a restart.
  private var baseOffset = 0L
  // Bytes the current parser reads before the file's (on its first line, its columns count them).
  private var lead = 0
  private var baseLine = 0L
  private var bytesMode = readsBytes && !startsWithByteOrderMark()
  private var current: JsonParser = if (bytesMode) null else parserAt(0L)
  // Byte mode: where the next record is looked for, its line, and that line's first byte.
  private var seekAt = 0L
  private var seekLine = 1L
  private var seekLineStart = 0L
  // The current record is an object for the byte reader; or it is read by a parser of its own.
  private var bytesRecord = false
  private var oneOff = false
  private var recordLineStart = 0L
  // Records found in byte mode, and those Jackson read alone.
  private var found = 0L
  private var handed = 0L
  private var inRoot = false
  // Whether top-level arrays are root arrays, known from the file's first top-level value on.
  private var arraysKnown = false
  private var arraysAreRoots = false
  // A top-level value that is not an object was read: a broken record may be followed by such values.
  private var valuesSeen = false
  // Between records: an error here is in the next record, which begins at the first byte that is not blank.
  private var seeking = false
  private var recordOffset = 0L
  private var recordLine = 0L

  /** The parser, on the current record's first token once [[next]] found one. */
  def parser: JsonParser = current

  /** The current record's byte offset and line (1-based) in the file. */
  def offset: Long = recordOffset
  def line: Long = recordLine

  /** Whether the current record is an element of a root array (after which there is no next line to find). */
  def inRootArray: Boolean = inRoot

  /** Moves to the next record, entering root arrays: an object, or another value (for `value`). False at the
    * end of input.
    */
  def next(): Boolean =
    if (!bytesMode || (oneOff && !resume())) nextToken()
    else {
      bytesRecord = false
      if (!skipBlanks()) return false
      recordOffset = seekAt
      recordLine = seekLine
      recordLineStart = seekLineStart
      tape.release(recordOffset)
      found += 1
      val b = tape.buffer((seekAt - tape.bufferOffset).toInt)
      if (b == '{') {
        arraysKnown = true
        bytesRecord = true
      } else if (!arraysKnown && b == '[') { // the first value, an array: Jackson tells root arrays
        bytesMode = false
        parserFor(seekAt, seekLine, seekLineStart)
        return nextToken()
      } else { // another value: Jackson reads it
        handed += 1
        parserFor(seekAt, seekLine, seekLineStart)
        oneOff = true
        seeking = true
        val token = current.nextToken()
        seeking = false
        arraysKnown = true
        if (token != JsonToken.START_OBJECT) valuesSeen = true
      }
      true
    }

  /** Whether the current record is an object for the byte reader: [[startBytes]] puts a cursor on it. */
  def fromBytes: Boolean = bytesRecord

  /** Puts `c` on the current record's first byte, over the bytes at hand. */
  def startBytes(c: JsonCursor): Unit =
    c.reset(tape.buffer, (recordOffset - tape.bufferOffset).toInt, tape.bufferLength)

  /** More bytes for the byte reader, which then starts the record again ([[startBytes]]); false at the end of
    * the file. At least as many again as the record has so far: a long record is read again only a few times.
    */
  def moreBytes(): Boolean =
    tape.fill(
      math.max(RecordTape.FillBytes.toLong, tape.bufferOffset + tape.bufferLength - recordOffset).toInt
    )

  /** The byte reader read the current record to `c`'s position. */
  def endBytes(c: JsonCursor): Unit = {
    seekAt = tape.bufferOffset + c.pos
    if (seekAt - recordOffset > maxRecordBytes) tooLarge(recordOffset) // read whole from the bytes at hand
    seekLine = recordLine + c.lines
    seekLineStart = if (c.lines > 0) tape.bufferOffset + c.lineStart else recordLineStart
  }

  /** The byte reader gave up on the current record: a parser of its own, on its START_OBJECT. */
  def toJackson(): Unit = {
    bytesRecord = false
    handed += 1
    parserFor(recordOffset, recordLine, recordLineStart)
    oneOff = true
    current.nextToken()
  }

  /** After a record Jackson read alone, byte mode goes on where the parser stands (false: Jackson has read
    * so many of the records that it reads the rest).
    */
  private def resume(): Boolean = {
    oneOff = false
    if (handed >= JsonRecords.HandedBeforeJackson && handed * 4 > found) {
      bytesMode = false
      return false
    }
    val loc = current.currentLocation()
    seekAt = baseOffset + loc.getByteOffset
    seekLine = baseLine + loc.getLineNr
    val read = tape.slice(recordOffset, seekAt)
    val lastEnd = math.max(read.lastIndexOf('\n'.toByte), read.lastIndexOf('\r'.toByte))
    seekLineStart = if (lastEnd < 0) recordLineStart else recordOffset + lastEnd + 1
    current.close()
    current = null
    true
  }

  /** Byte mode: past blanks (counting line ends as Jackson does) to the next record's first byte; false at
    * the end of the file.
    */
  private def skipBlanks(): Boolean = {
    var i = (seekAt - tape.bufferOffset).toInt
    while (true) {
      if (i >= tape.bufferLength || (tape.buffer(i) == '\r' && i + 1 >= tape.bufferLength)) {
        seekAt = tape.bufferOffset + i
        tape.release(seekAt)
        val more = tape.fill()
        i = (seekAt - tape.bufferOffset).toInt
        if (!more && i >= tape.bufferLength) return false
      }
      val b = tape.buffer(i)
      if (b == ' ' || b == '\t') i += 1
      else if (b == '\n' || b == '\r') {
        i += (if (b == '\r' && i + 1 < tape.bufferLength && tape.buffer(i + 1) == '\n') 2 else 1)
        seekLine += 1
        seekLineStart = tape.bufferOffset + i
      } else {
        seekAt = tape.bufferOffset + i
        return true
      }
    }
    false
  }

  /** A parser of the tape from `offset`, on line `line` whose first byte is at `lineStart`. */
  private def parserFor(offset: Long, line: Long, lineStart: Long): Unit = {
    tape.restartAt(offset)
    current = parserAt(offset)
    lead -= (offset - lineStart).toInt // its columns on its first line count from `offset`
    baseLine = line - 1
  }

  private def startsWithByteOrderMark(): Boolean = {
    while (tape.bufferLength < 3 && tape.fill()) {}
    val b = tape.buffer
    val mark =
      tape.bufferLength >= 3 && (b(0) & 0xff) == 0xef && (b(1) & 0xff) == 0xbb && (b(2) & 0xff) == 0xbf
    tape.restartAt(0L) // a parser that starts at the file's start reads what this read
    mark
  }

  private def nextToken(): Boolean = {
    val end = current.currentLocation() // of the record before: an error before the next token is past it
    recordOffset = baseOffset + end.getByteOffset
    recordLine = baseLine + end.getLineNr
    seeking = true
    var token = current.nextToken()
    while (true) {
      if (token == null) return false
      if (
        token == JsonToken.START_ARRAY && !inRoot && current.getParsingContext.getParent.inRoot &&
        rootArrays()
      ) {
        inRoot = true
        token = current.nextToken()
      } else if (token == JsonToken.END_ARRAY && inRoot) {
        inRoot = false
        token = current.nextToken()
      } else {
        val at = current.currentTokenLocation()
        recordOffset = baseOffset + at.getByteOffset
        recordLine = baseLine + at.getLineNr
        // Its column counts the parser's lead on the parser's first line (see location).
        recordLineStart = recordOffset - (at.getColumnNr - 1 - (if (at.getLineNr == 1) lead else 0))
        tape.release(recordOffset)
        seeking = false
        arraysKnown = true // a first top-level value that is not an array: arrays are records
        if (token != JsonToken.START_OBJECT) valuesSeen = true
        return true
      }
    }
    false
  }

  /** Where the parser stands: past the current record once it was read to its end. */
  def end: Long = if (bytesRecord) seekAt else baseOffset + current.currentLocation().getByteOffset

  /** The current record's bytes, read to its end. */
  def bytes: Array[Byte] = tape.slice(recordOffset, end)

  /** The current record's text up to byte `until` (-1: all that was read), trimmed. */
  def text(until: Long): String =
    new String(
      tape.slice(recordOffset, if (until < 0) tape.bufferOffset + tape.bufferLength else until),
      UTF_8
    ).trim

  /** A broken record: an error before the next record's first token is in that record, which starts at the
    * first byte that is not blank. (Idempotent: once there, the record's start does not move.)
    */
  def toBroken(): Unit = if (seeking) {
    val (offset, lines) = tape.firstNonBlank(recordOffset)
    recordOffset = offset
    recordLine += lines
  }

  /** Where a broken record is taken to end: before the next line that starts like a record (the error may be
    * far past the record's true end, when a broken value swallowed the next record); -1 when there is none.
    */
  def nextRecordStart: Long = tape.nextRecordLine(recordOffset, values = valuesSeen)

  /** Goes on reading at byte `restart` (false: there is none). */
  def restartAt(restart: Long): Boolean = {
    if (restart < 0) return false
    // Counted before the tape forgets the bytes before `restart`.
    val line = recordLine + RecordTape.lineEnds(tape.slice(recordOffset, restart))
    if (bytesMode) {
      if (current != null) current.close()
      current = null
      oneOff = false
      seekAt = restart
      seekLine = line
      seekLineStart = restart
      tape.release(restart)
    } else {
      baseLine = line - 1
      tape.restartAt(restart)
      current = parserAt(restart)
    }
    true
  }

  /** ` at line L, column C` in the file, where the parser reported `e`; None when it reports no location. */
  def location(e: JsonProcessingException): Option[String] = e match {
    case t: InvalidText => Some(s" at line ${t.line}, column ${t.column}")
    case _ =>
      Option(e.getLocation).map { loc =>
        val column = loc.getColumnNr - (if (loc.getLineNr == 1) lead else 0)
        s" at line ${baseLine + loc.getLineNr}, column $column"
      }
  }

  /** Jackson has read the current record to its [[end]]: throws [[InvalidText]] (a parse error, so the record
    * is malformed as any broken JSON is) where its bytes are not well-formed text that Jackson let through
    * ([[JsonText]]: an overlong form, a surrogate or a code point past U+10FFFF in UTF-8, a surrogate escape
    * that is not a pair). The byte reader's records need no check: its cursor checked them.
    */
  def checkText(): Unit = {
    val base = tape.bufferOffset
    val buf = tape.buffer
    val from = (math.max(recordOffset, base) - base).toInt
    val until = (math.min(end, base + tape.bufferLength) - base).toInt
    val bad = JsonText.firstInvalid(buf, from, until)
    if (bad >= 0) {
      val before = tape.slice(recordOffset, base + bad)
      val lastEnd = math.max(before.lastIndexOf('\n'.toByte), before.lastIndexOf('\r'.toByte))
      val lineStart = if (lastEnd < 0) recordLineStart else recordOffset + lastEnd + 1
      throw new InvalidText(
        JsonText.problem(buf, bad, until),
        recordLine + RecordTape.lineEnds(before),
        base + bad - lineStart + 1
      )
    }
  }

  def close(): Unit = if (current != null) current.close()

  /** A parser of the tape from stream offset `offset` (where the tape stands), with `baseOffset` to match. */
  private def parserAt(offset: Long): JsonParser = {
    val (started, before) = JsonParsers.at(tape, offset)
    lead = before
    baseOffset = offset - before
    started
  }

  /** Whether top-level arrays are root arrays; the parser is on a top-level START_ARRAY. */
  private def rootArrays(): Boolean = {
    if (!arraysKnown) {
      arraysAreRoots = firstArrayIsRoot()
      arraysKnown = true
    }
    arraysAreRoots
  }

  /** The file's first top-level value is an array, and the parser is on its START_ARRAY: whether its elements
    * are the file's records. They are when it starts with an object or is empty, or when nothing follows it
    * (the file is one array); otherwise the file is a stream of values and the array is one of them. Reads
    * ahead at most `RootLookahead` bytes (a longer array, or a broken one, is taken as the file's root
    * array), then starts a new parser at the array, on its START_ARRAY.
    */
  private def firstArrayIsRoot(): Boolean = {
    val at = current.currentTokenLocation()
    val start = baseOffset + at.getByteOffset
    val startLine = baseLine + at.getLineNr
    tape.release(start)
    val root =
      try {
        val first = current.nextToken()
        if (first == JsonToken.START_OBJECT || first == JsonToken.END_ARRAY) true
        else {
          var depth = if (first == JsonToken.START_ARRAY) 2 else 1
          while (depth > 0 && tape.position - start <= JsonRecords.RootLookahead) {
            val token = current.nextToken()
            if (token == null) depth = -1 // never closed: the read reports it
            else if (token == JsonToken.START_ARRAY || token == JsonToken.START_OBJECT) depth += 1
            else if (token == JsonToken.END_ARRAY || token == JsonToken.END_OBJECT) depth -= 1
          }
          depth != 0 || current.nextToken() == null
        }
      } catch { case _: JsonParseException => true }
    current.close()
    tape.restartAt(start)
    current = parserAt(start)
    baseLine = startLine - 1
    current.nextToken()
    root
  }

  // One record is more than the tape may hold.
  private def tooLarge(keptFrom: Long): Nothing = {
    toBroken()
    throw errors.error(
      s"a JSON record is larger than maxRecordBytes ($maxRecordBytes bytes)",
      line = recordLine,
      offset = math.max(recordOffset, keptFrom),
      value = new String(tape.slice(keptFrom, keptFrom + 200), StandardCharsets.UTF_8),
      option = "raise maxRecordBytes to read it; the whole record is held in memory while it is read",
      kind = ErrorClasses.RecordTooLarge
    )
  }
}

/** Text Jackson read that is not well-formed ([[JsonRecords.checkText]]): a parse error of the record, at
  * `line` and `column` (from 1, in bytes, as Jackson counts them) of the file.
  */
private[json] final class InvalidText(message: String, val line: Long, val column: Long)
    extends JsonParseException(null: JsonParser, message)

private[json] object JsonRecords {

  /** How far the reader looks for the end of a file's first top-level array of non-objects, to tell a file
    * that is one array from a stream of arrays (a longer first array is read as the file's root array).
    */
  val RootLookahead: Long = 4L << 20

  /** Records Jackson reads alone in byte mode before it may read the rest of a file. */
  val HandedBeforeJackson = 64
}
