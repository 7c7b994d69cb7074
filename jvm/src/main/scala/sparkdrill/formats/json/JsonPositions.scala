package sparkdrill.formats.json

import com.fasterxml.jackson.core.JsonLocation

/** A place in a JSON file ([[JsonRecords]]' `seek` and `record`): its byte offset, its line (from 1) and
  * the offset of that line's first byte, which move together. Mutable, so that finding a record allocates
  * nothing.
  */
private[json] final class FilePosition(var offset: Long, var line: Long, var lineStart: Long) {

  def setTo(p: FilePosition): Unit = {
    offset = p.offset
    line = p.line
    lineStart = p.lineStart
  }
}

/** Where [[JsonRecords]]' current Jackson parser began, which makes its locations the file's.
  *
  * @param offset the file's offset of the parser's offset 0 (before its lead bytes, [[JsonParsers.at]])
  * @param linesBefore the file's lines before the parser's line 1
  * @param lead how many more columns the parser counts on its first line than the file does: its lead bytes,
  *   less the bytes of that line before where it started, when it started within a line
  */
private[json] final class ParserOrigin(var offset: Long, var linesBefore: Long, var lead: Int) {

  def offsetOf(loc: JsonLocation): Long = offset + loc.getByteOffset

  def lineOf(loc: JsonLocation): Long = linesBefore + loc.getLineNr

  /** The column (from 1) in the file of a location of the parser. */
  def columnOf(loc: JsonLocation): Int = loc.getColumnNr - (if (loc.getLineNr == 1) lead else 0)
}
