package sparkdrill.formats.json

import java.io.ByteArrayInputStream
import java.nio.charset.StandardCharsets.UTF_8

import com.fasterxml.jackson.core.{JsonFactory, JsonToken}
import com.fasterxml.jackson.core.sym.ByteQuadsCanonicalizer
import org.scalatest.funsuite.AnyFunSuite

/** The parsers of a file ([[JsonParsers.at]]): the factory's features, and a table of names of their own. */
class JsonParsersSuite extends AnyFunSuite {
  private val Q = "\"" // (an escaped quote inside s"..." does not compile on Scala 2.12)

  private def tape(text: String): (RecordTape, java.util.concurrent.atomic.AtomicBoolean) = {
    val closed = new java.util.concurrent.atomic.AtomicBoolean(false)
    val in = new ByteArrayInputStream(text.getBytes(UTF_8)) {
      override def close(): Unit = closed.set(true)
    }
    (new RecordTape(in, 1L << 20, offset => throw new IllegalStateException(s"too large at $offset")), closed)
  }

  /** How many names the factory's own table holds (what every parser it makes starts from). */
  private def sharedNames(factory: JsonFactory): Int = {
    val field = classOf[JsonFactory].getDeclaredField("_byteSymbolCanonicalizer")
    field.setAccessible(true)
    field.get(factory).asInstanceOf[ByteQuadsCanonicalizer].size()
  }

  test("a file's parser reads as the factory says: unquoted names, NaN, and it leaves the stream open") {
    val (t, closed) = tape("{a: NaN, \"b\": Infinity}")
    val (parser, lead) = JsonParsers.at(t, 0L)
    assert(lead == 2)
    assert(parser.nextToken() == JsonToken.START_OBJECT)
    assert(parser.nextFieldName() == "a")
    assert(parser.nextToken() == JsonToken.VALUE_NUMBER_FLOAT && parser.getDoubleValue.isNaN)
    assert(parser.nextFieldName() == "b")
    assert(parser.nextToken() == JsonToken.VALUE_NUMBER_FLOAT && parser.getDoubleValue.isPosInfinity)
    assert(parser.nextToken() == JsonToken.END_OBJECT)
    parser.close()
    assert(!closed.get(), "the tape outlives the parser")
  }

  private def parseAll(text: String): Unit = {
    val (parser, _) = JsonParsers.at(tape(text)._1, 0L)
    while (parser.nextToken() != null) ()
    parser.close()
  }

  // Objects keyed by data: each file's names are new. Were they all kept, every later parser would copy the
  // table (up to Jackson's 6,000 names) on its first name of its own.
  test("the table of names a file's parser starts from stays bounded where every file's names are new") {
    val shared = sharedNames(JsonParsers.factory)
    (0 until 5).foreach { f =>
      parseAll((0 until 500).map(i => s"${Q}key${f}_$i$Q: $i").mkString("{", ", ", "}"))
      assert(sharedNames(JsonParsers.forFile()) <= JsonParsers.MaxNames)
    }
    assert(sharedNames(JsonParsers.factory) == shared)
  }

  test("names that recur from file to file stay in the table") {
    val names = (0 until 20).map(i => s"${Q}recurring_$i$Q: $i").mkString("{", ", ", "}")
    parseAll(names)
    parseAll(names) // in a table of its own if the first made the thread's table start again
    val factory = JsonParsers.forFile()
    parseAll(names)
    assert(sharedNames(factory) >= 20)
    assert(JsonParsers.forFile() eq factory)
  }
}
