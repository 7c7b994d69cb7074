package sparkdrill.formats.json

import com.fasterxml.jackson.core.{JsonParseException, JsonParser, JsonToken}

/** Whether a JSON file's top-level arrays are root arrays, whose elements are the records (a file `[1, 2]`
  * gives two records), or each one record: a tri-state of [[JsonRecords]], told by the file's first top-level
  * value. Int constants: byte mode looks at it for every record.
  *
  * Transitions (all in JsonRecords, and only from `Unknown`: a known state stays):
  *   - `Unknown` to `Records`: a first top-level value that is not an array was read (`next`, `nextToken`);
  *   - `Unknown` to `Roots` or `Records`: Jackson is on the first top-level value, an array (`rootArrays`,
  *     by [[firstIsRoot]]). Byte mode leaves every first array to Jackson, so it never meets root arrays.
  *
  * A first value that breaks before its first token (or a one-off parser's) leaves it `Unknown`.
  */
private[json] object RootArrays {

  /** No top-level value was read yet. */
  final val Unknown = 0

  /** The first top-level value is an array that starts with an object, is empty, or is all the file holds (or
    * is too long or too broken to tell): every top-level array is a root array.
    */
  final val Roots = 1

  /** The first top-level value is not an array, or is one followed by more values: each array is a record. */
  final val Records = 2

  /** How far the reader looks for the end of a file's first top-level array of non-objects, to tell a file
    * that is one array from a stream of arrays (a longer first array is read as the file's root array).
    */
  val Lookahead: Long = 4L << 20

  /** Whether the file's first top-level value, an array on whose START_ARRAY `parser` is (at the tape's
    * offset `start`), is a root array. It is when it starts with an object or is empty, or when nothing
    * follows it (the file is one array); otherwise the file is a stream of values and the array is one of
    * them. Reads ahead at most [[Lookahead]] bytes (a longer array, or a broken one, is taken as the file's
    * root array); the caller then starts a new parser at `start`.
    */
  def firstIsRoot(parser: JsonParser, tape: RecordTape, start: Long): Boolean =
    try {
      val first = parser.nextToken()
      if (first == JsonToken.START_OBJECT || first == JsonToken.END_ARRAY) true
      else {
        var depth = if (first == JsonToken.START_ARRAY) 2 else 1
        while (depth > 0 && tape.position - start <= Lookahead) {
          val token = parser.nextToken()
          if (token == null) depth = -1 // never closed: the read reports it
          else if (token == JsonToken.START_ARRAY || token == JsonToken.START_OBJECT) depth += 1
          else if (token == JsonToken.END_ARRAY || token == JsonToken.END_OBJECT) depth -= 1
        }
        depth != 0 || parser.nextToken() == null
      }
    } catch { case _: JsonParseException => true }
}
