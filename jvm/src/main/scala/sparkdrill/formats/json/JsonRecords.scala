package sparkdrill.formats.json

import java.io.InputStream
import java.nio.charset.StandardCharsets
import java.nio.charset.StandardCharsets.UTF_8

import com.fasterxml.jackson.core.{JsonParser, JsonProcessingException, JsonToken}

import sparkdrill.reader.{ErrorClasses, ErrorContext, RecordPosition}

/** The top-level records of one JSON file, over its [[RecordTape]]: where each begins (its byte offset and
  * line), root arrays entered, and, after a broken record, where reading goes on. The reader reads each
  * record's value with [[parser]]; what a record means (a row, a `value`, an error) is the reader's.
  *
  * Top-level arrays ([[RootArrays]]): when the file's first top-level value is an array that starts with an
  * object, is empty, or is all the file holds, every top-level array is a root array whose elements are the
  * records (a file `[1, 2]` gives two records). Otherwise each top-level array is one record.
  *
  * Byte mode (`readsBytes`, for reads, not discovery): records are found in the tape's bytes, and an object
  * is left to the reader's [[JsonCursor]] ([[fromBytes]]); when the byte reader gives up on it
  * ([[toJackson]]), or the record is another value, a parser is made for that record alone, and the next
  * record is looked for in bytes again where it ended. A file whose first value is an array (root arrays), or
  * that opens with a byte-order mark, is Jackson's from its start; so is the rest of a file once Jackson has
  * read a quarter of its records (at least 64), so that a file of values other than objects is not parsed
  * twice per record.
  *
  * How the current record is read is `mode`, one of the companion's `Bytes`, `Cursor`, `OneOff`, `Jackson`
  * (each says what it means). At the start it is `Bytes`, or `Jackson` for discovery or after a byte-order
  * mark; [[next]] moves from `Bytes` or `Cursor` to `Cursor` (an object), `OneOff` (another value), `Jackson`
  * (a first value that is an array) or `Bytes` (the end); from `OneOff` to `Jackson` when Jackson has read
  * enough of the records (`resume`), else as from `Bytes`; [[toJackson]] from `Cursor` to `OneOff`;
  * [[restartAt]] from any byte mode to `Bytes`. `Jackson` is never left.
  *
  * @param maxRecordBytes the most bytes one record may take: a larger one fails the read (naming its line
  *   and offset), as no mode can keep or skip it safely
  */
private[json] final class JsonRecords(
    in: InputStream,
    maxRecordBytes: Long,
    errors: ErrorContext,
    readsBytes: Boolean
) extends RecordPosition {
  import JsonRecords._

  // Byte mode: where the next record is looked for (set by endBytes, resume and restartAt; skipBlanks moves
  // it to the next record's first byte).
  private val seek = new FilePosition(0L, 1L, 0L)
  // Where the current record began (set by next; toBroken moves it to its first byte that is not blank).
  private val record = new FilePosition(0L, 0L, 0L)
  // Where the current parser began (set by parserAt).
  private val origin = new ParserOrigin(0L, 0L, 0)
  private val tape = new RecordTape(in, math.min(maxRecordBytes, Int.MaxValue - 16L), tooLarge)
  private var mode = if (readsBytes && !startsWithByteOrderMark()) Bytes else Jackson
  private var current: JsonParser = if (mode == Bytes) null else parserAt(0L, 1L)
  // Byte mode: records found in bytes, and those of them handed to a parser of their own (OneOff).
  private var found = 0L
  private var handed = 0L
  // Whether top-level arrays are root arrays (RootArrays), and whether the parser is inside one.
  private var arrays = RootArrays.Unknown
  private var inRoot = false
  // A top-level value that is not an object was read: a broken record may be followed by such values.
  private var valuesSeen = false
  // Between records: an error here is in the next record, which begins at the first byte that is not blank.
  private var seeking = false

  /** The parser, on the current record's first token once [[next]] found one. */
  def parser: JsonParser = current

  /** The current record's byte offset and line (1-based) in the file. */
  def offset: Long = record.offset
  def line: Long = record.line

  /** Whether the current record is an element of a root array (after which there is no next line to find). */
  def inRootArray: Boolean = inRoot

  // For tests: how the current record is read, and whether top-level arrays are root arrays.
  private[json] def readMode: Int = mode
  private[json] def arraysState: Int = arrays

  /** Moves to the next record, entering root arrays: an object, or another value (for `value`). False at the
    * end of input.
    */
  def next(): Boolean =
    if (mode == Jackson || (mode == OneOff && !resume())) nextToken()
    else {
      mode = Bytes
      if (!skipBlanks()) return false
      record.setTo(seek)
      tape.release(record.offset)
      found += 1
      val b = tape.buffer((record.offset - tape.bufferOffset).toInt)
      if (b == '{') {
        arraysAreRecordsUnlessKnown()
        mode = Cursor
      } else if (arrays == RootArrays.Unknown && b == '[') { // the first value, an array: Jackson tells roots
        mode = Jackson
        parserForRecord()
        return nextToken()
      } else { // another value: Jackson reads it
        handed += 1
        parserForRecord()
        mode = OneOff
        seeking = true
        val token = current.nextToken()
        seeking = false
        arraysAreRecordsUnlessKnown()
        if (token != JsonToken.START_OBJECT) valuesSeen = true
      }
      true
    }

  /** Whether the current record is an object for the byte reader: [[startBytes]] puts a cursor on it. */
  def fromBytes: Boolean = mode == Cursor

  /** Puts `c` on the current record's first byte, over the bytes at hand. */
  def startBytes(c: JsonCursor): Unit =
    c.reset(tape.buffer, (record.offset - tape.bufferOffset).toInt, tape.bufferLength)

  /** More bytes for the byte reader, which then starts the record again ([[startBytes]]); false at the end of
    * the file. At least as many again as the record has so far: a long record is read again only a few times.
    */
  def moreBytes(): Boolean =
    tape.fill(
      math.max(RecordTape.FillBytes.toLong, tape.bufferOffset + tape.bufferLength - record.offset).toInt
    )

  /** The byte reader read the current record to `c`'s position. */
  def endBytes(c: JsonCursor): Unit = {
    seek.offset = tape.bufferOffset + c.pos
    if (seek.offset - record.offset > maxRecordBytes)
      tooLarge(record.offset) // read whole from the bytes at hand
    seek.line = record.line + c.lines
    seek.lineStart = if (c.lines > 0) tape.bufferOffset + c.lineStart else record.lineStart
  }

  /** The byte reader gave up on the current record: a parser of its own, on its START_OBJECT. */
  def toJackson(): Unit = {
    handed += 1
    parserForRecord()
    mode = OneOff
    current.nextToken()
  }

  /** After a record Jackson read alone, byte mode goes on where the parser stands (false: Jackson has read
    * so many of the records that it reads the rest).
    */
  private def resume(): Boolean = {
    if (handed >= HandedBeforeJackson && handed * 4 > found) {
      mode = Jackson
      return false
    }
    mode = Bytes
    val loc = current.currentLocation()
    seek.offset = origin.offsetOf(loc)
    seek.line = origin.lineOf(loc)
    seek.lineStart = lineStartAfter(tape.slice(record.offset, seek.offset))
    current.close()
    current = null
    true
  }

  /** Byte mode: past blanks (counting line ends as Jackson does) to the next record's first byte; false at
    * the end of the file.
    */
  private def skipBlanks(): Boolean = {
    var i = (seek.offset - tape.bufferOffset).toInt
    while (true) {
      if (i >= tape.bufferLength || (tape.buffer(i) == '\r' && i + 1 >= tape.bufferLength)) {
        seek.offset = tape.bufferOffset + i
        tape.release(seek.offset)
        val more = tape.fill()
        i = (seek.offset - tape.bufferOffset).toInt
        if (!more && i >= tape.bufferLength) return false
      }
      val b = tape.buffer(i)
      if (b == ' ' || b == '\t') i += 1
      else if (b == '\n' || b == '\r') {
        i += (if (b == '\r' && i + 1 < tape.bufferLength && tape.buffer(i + 1) == '\n') 2 else 1)
        seek.line += 1
        seek.lineStart = tape.bufferOffset + i
      } else {
        seek.offset = tape.bufferOffset + i
        return true
      }
    }
    false
  }

  /** A parser of the current record alone, from its first byte (its columns count from its line's start). */
  private def parserForRecord(): Unit = {
    restartParser(record.offset, record.line)
    origin.lead -= (record.offset - record.lineStart).toInt
  }

  /** The start of the line where the current record's bytes `read` end. */
  private def lineStartAfter(read: Array[Byte]): Long = {
    val lastEnd = math.max(read.lastIndexOf('\n'.toByte), read.lastIndexOf('\r'.toByte))
    if (lastEnd < 0) record.lineStart else record.offset + lastEnd + 1
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
    record.offset = origin.offsetOf(end)
    record.line = origin.lineOf(end)
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
        record.offset = origin.offsetOf(at)
        record.line = origin.lineOf(at)
        record.lineStart = record.offset - (origin.columnOf(at) - 1)
        tape.release(record.offset)
        seeking = false
        arraysAreRecordsUnlessKnown()
        if (token != JsonToken.START_OBJECT) valuesSeen = true
        return true
      }
    }
    false
  }

  /** Where the parser stands: past the current record once it was read to its end. */
  def end: Long = if (mode == Cursor) seek.offset else origin.offsetOf(current.currentLocation())

  /** The current record's bytes, read to its end. */
  def bytes: Array[Byte] = tape.slice(record.offset, end)

  /** The current record's text up to byte `until` (-1: all that was read), trimmed. */
  def text(until: Long): String =
    new String(
      tape.slice(record.offset, if (until < 0) tape.bufferOffset + tape.bufferLength else until),
      UTF_8
    ).trim

  /** A broken record: an error before the next record's first token is in that record, which starts at the
    * first byte that is not blank. (Idempotent: once there, the record's start does not move.)
    */
  def toBroken(): Unit = if (seeking) {
    val (offset, lines) = tape.firstNonBlank(record.offset)
    record.offset = offset
    record.line += lines
  }

  /** Where a broken record is taken to end: before the next line that starts like a record (the error may be
    * far past the record's true end, when a broken value swallowed the next record); -1 when there is none.
    */
  def nextRecordStart: Long = tape.nextRecordLine(record.offset, values = valuesSeen)

  /** Goes on reading at byte `restart` (false: there is none). */
  def restartAt(restart: Long): Boolean = {
    if (restart < 0) return false
    // Counted before the tape forgets the bytes before `restart`.
    val line = record.line + RecordTape.lineEnds(tape.slice(record.offset, restart))
    if (mode != Jackson) {
      if (current != null) current.close()
      current = null
      mode = Bytes
      seek.offset = restart
      seek.line = line
      seek.lineStart = restart
      tape.release(restart)
    } else restartParser(restart, line)
    true
  }

  /** ` at line L, column C` in the file, where the parser reported `e`; None when it reports no location. */
  def location(e: JsonProcessingException): Option[String] = e match {
    case t: InvalidText => Some(s" at line ${t.line}, column ${t.column}")
    case _ =>
      Option(e.getLocation).map(loc => s" at line ${origin.lineOf(loc)}, column ${origin.columnOf(loc)}")
  }

  /** Jackson has read the current record to its [[end]]: throws [[InvalidText]] (a parse error, so the record
    * is malformed as any broken JSON is) where its bytes are not well-formed text that Jackson let through
    * ([[JsonText]]: an overlong form, a surrogate or a code point past U+10FFFF in UTF-8, a surrogate escape
    * that is not a pair). The byte reader's records need no check: its cursor checked them.
    */
  def checkText(): Unit = {
    val base = tape.bufferOffset
    val buf = tape.buffer
    val from = (math.max(record.offset, base) - base).toInt
    val until = (math.min(end, base + tape.bufferLength) - base).toInt
    val bad = JsonText.firstInvalid(buf, from, until)
    if (bad >= 0) {
      val before = tape.slice(record.offset, base + bad)
      throw new InvalidText(
        JsonText.problem(buf, bad, until),
        record.line + RecordTape.lineEnds(before),
        base + bad - lineStartAfter(before) + 1
      )
    }
  }

  def close(): Unit = if (current != null) current.close()

  /** A parser of the tape from stream offset `offset` (where the tape stands), on the file's line `line`. */
  private def parserAt(offset: Long, line: Long): JsonParser = {
    val (started, before) = JsonParsers.at(tape, offset)
    origin.offset = offset - before
    origin.linesBefore = line - 1
    origin.lead = before
    started
  }

  /** The current parser, anew from byte `offset` on line `line`. */
  private def restartParser(offset: Long, line: Long): Unit = {
    tape.restartAt(offset)
    current = parserAt(offset, line)
  }

  // A top-level value that is not an array (nor in one) was read: if it is the file's first, arrays are records.
  private def arraysAreRecordsUnlessKnown(): Unit =
    if (arrays == RootArrays.Unknown) arrays = RootArrays.Records

  /** Whether top-level arrays are root arrays; the parser is on a top-level START_ARRAY. */
  private def rootArrays(): Boolean = {
    if (arrays == RootArrays.Unknown)
      arrays = if (firstArrayIsRoot()) RootArrays.Roots else RootArrays.Records
    arrays == RootArrays.Roots
  }

  /** The file's first top-level value is an array, on whose START_ARRAY the parser is: whether it is a root
    * array ([[RootArrays.firstIsRoot]], which reads ahead); then a new parser at the array, on its START_ARRAY.
    */
  private def firstArrayIsRoot(): Boolean = {
    val at = current.currentTokenLocation()
    val start = origin.offsetOf(at)
    val startLine = origin.lineOf(at)
    val before = origin.columnOf(at) - 1 // the line's bytes before the array, which the new parser skips
    tape.release(start)
    val root = RootArrays.firstIsRoot(current, tape, start)
    current.close()
    restartParser(start, startLine)
    origin.lead -= before
    current.nextToken()
    root
  }

  // One record is more than the tape may hold.
  private def tooLarge(keptFrom: Long): Nothing = {
    toBroken()
    throw errors.error(
      s"a JSON record is larger than maxRecordBytes ($maxRecordBytes bytes)",
      line = record.line,
      offset = math.max(record.offset, keptFrom),
      value = new String(tape.slice(keptFrom, keptFrom + 200), StandardCharsets.UTF_8),
      option = "raise maxRecordBytes to read it; the whole record is held in memory while it is read",
      kind = ErrorClasses.RecordTooLarge
    )
  }
}

private[json] object JsonRecords {

  // How the current record is read (see the class). Int constants: byte mode sets and tests them for every
  // record, and a store of an Int, unlike one of an object, has no garbage collector's barrier.

  /** Byte mode, no record at hand: [[JsonRecords.next]] looks for the next one in the tape's bytes. */
  final val Bytes = 0

  /** Byte mode: the current record is an object found in bytes, for the byte reader's cursor
    * ([[JsonRecords.fromBytes]], then `startBytes`, `moreBytes`, `endBytes`, or `toJackson` if it gives up).
    */
  final val Cursor = 1

  /** Byte mode: the current record is read by a parser of its own (a value other than an object, or an object
    * the byte reader gave up on); the next [[JsonRecords.next]] goes on in bytes where it ended, or in Jackson.
    */
  final val OneOff = 2

  /** One parser reads the rest of the file, which it never leaves (a [[JsonRecords.restartAt]] starts another). */
  final val Jackson = 3

  /** Records Jackson reads alone in byte mode before it may read the rest of a file (when they are more than a
    * quarter of those found).
    */
  val HandedBeforeJackson = 64
}
