package sparkdrill.formats.json

import java.io.InputStream
import java.nio.charset.StandardCharsets

import com.fasterxml.jackson.core.{JsonFactory, JsonFactoryBuilder, JsonParser, StreamReadFeature}
import com.fasterxml.jackson.core.json.JsonReadFeature

/** The Jackson parsers of a JSON file: one from its start, and a new one wherever reading goes on after a
  * broken record, all over the file's [[RecordTape]].
  */
private[sparkdrill] object JsonParsers {

  // NaN/Infinity and unquoted keys are accepted, as Drill does; the scan closes the stream, not Jackson.
  private def newFactory(): NamesFactory = {
    val f = new NamesFactory(
      new JsonFactoryBuilder()
        .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
        .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
        .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
    )
    f.disable(JsonParser.Feature.AUTO_CLOSE_SOURCE)
    f
  }

  val factory: JsonFactory = newFactory()

  /** A factory whose table of member names can be measured. */
  private final class NamesFactory(builder: JsonFactoryBuilder) extends JsonFactory(builder) {
    def names: Int = _byteSymbolCanonicalizer.size()
  }

  /** The factory of a file's parsers on this thread: [[factory]]'s features, and a table of member names of
    * this thread's, started again past `MaxNames` names.
    *
    * Jackson's parsers share their factory's table of names: each starts from it, copies it whole on the
    * first name it lacks, and hands its own back when it closes if that holds more. Where keys are data
    * (SPEC 5: ids, dates, property names that differ from file to file), every file has names the table lacks,
    * and a shared table grows to Jackson's bound (6,000 names) before Jackson starts it again: each file's
    * parser copied up to a few hundred KiB. Discovering 2,000 JSON Schema-like documents (bench/keyed.py)
    * allocated 0.4 GB that way, of 1.5 GB in all, driving the collector. Names that recur from file to file
    * stay in the table, as before.
    */
  def forFile(): JsonFactory = {
    val f = ofThread.get()
    if (f.names <= MaxNames) f
    else {
      val fresh = newFactory()
      ofThread.set(fresh)
      fresh
    }
  }

  /** The most names a thread's table keeps for the next file (a copy of a few tens of KiB). */
  private[json] val MaxNames = 1000

  private val ofThread = new ThreadLocal[NamesFactory] {
    override def initialValue(): NamesFactory = newFactory()
  }

  /** A parser of the tape from stream offset `offset` (where the tape stands), and how many bytes it reads
    * before the tape's (its offsets, and its columns on its first line, count them).
    *
    * Jackson guesses UTF-16 or UTF-32 from NUL bytes among the first bytes it is given, and then reports no
    * offsets; JSON here is UTF-8, so the parser starts on two spaces before the bytes, which keep its guess
    * UTF-8. A file that opens with a UTF-8 byte-order mark is given as it is: Jackson skips the mark.
    */
  def at(tape: RecordTape, offset: Long): (JsonParser, Int) = {
    val files = forFile()
    if (offset == 0L && startsWithByteOrderMark(tape)) (files.createParser(tape), 0)
    else (files.createParser(new Led(tape)), Lead.length)
  }

  private def startsWithByteOrderMark(tape: RecordTape): Boolean = {
    val first = new Array[Byte](3)
    // InputStream.readNBytes is Java 9+; the Spark 3.5 jar runs on Java 8.
    var n = 0
    var read = 0
    while (n < 3 && { read = tape.read(first, n, 3 - n); read > 0 }) n += read
    tape.restartAt(0L)
    n == 3 && (first(0) & 0xff) == 0xef && (first(1) & 0xff) == 0xbb && (first(2) & 0xff) == 0xbf
  }

  private val Lead: Array[Byte] = "  ".getBytes(StandardCharsets.US_ASCII)

  /** `Lead`, then the tape. Never closes the tape, which outlives every parser of the file. */
  private final class Led(tape: InputStream) extends InputStream {
    private var at = 0

    def read(): Int =
      if (at < Lead.length) { at += 1; Lead(at - 1) & 0xff }
      else tape.read()

    override def read(b: Array[Byte], off: Int, len: Int): Int =
      if (len == 0) 0
      else if (at < Lead.length) {
        val n = math.min(len, Lead.length - at)
        System.arraycopy(Lead, at, b, off, n)
        at += n
        n
      } else tape.read(b, off, len)
  }
}
