package example.fixedwidth

import java.io.ByteArrayOutputStream
import java.nio.charset.StandardCharsets

import sparkdrill.reader._

/** The records of one `.fwf` file or split, for the record-reader template: each non-blank line cut into the
  * columns of the option `widths` (by characters, each field trimmed; a blank one is absent), text past the
  * last column into the late column `rest`. A line shorter than the layout is malformed. The whole reader is
  * this file: lines, splits, types, modes, hidden columns and the rest are the template's.
  */
final class FixedWidthRecords(file: FileInput, layout: Layout) extends FieldRecords {
  private val lines = new LineSplit(file, skipBlank = true)
  private val out = new ByteArrayOutputStream()
  private val starts = new Array[Int](layout.columns.length + 1)
  private val lengths = new Array[Int](layout.columns.length + 1)
  private var fields = 0
  private var buffer: Array[Byte] = Array.emptyByteArray

  val names: IndexedSeq[String] = layout.columns.map(_._1).toIndexedSeq
  def next(): Boolean = lines.next()
  def line: Long = lines.line
  def offset: Long = lines.offset
  def text: String = lines.text
  def count: Int = fields
  def bytes: Array[Byte] = buffer
  def start(i: Int): Int = starts(i)
  def length(i: Int): Int = lengths(i)
  override def extraColumn(i: Int): Option[String] = Some(FixedWidthFormat.Rest)

  def split(): Option[String] = {
    val line = lines.text
    if (line.length < layout.width) return Some(s"the line has ${line.length} of ${layout.width} characters")
    out.reset()
    var at = 0
    var i = 0
    layout.columns.foreach { case (_, width) =>
      field(i, line.substring(at, at + width)); at += width; i += 1
    }
    field(i, line.substring(at))
    fields = if (starts(i) < 0) i else i + 1 // `rest` only when there is text past the layout
    buffer = out.toByteArray
    None
  }

  private def field(i: Int, raw: String): Unit = {
    val value = raw.trim
    if (value.isEmpty) starts(i) = -1
    else {
      val b = value.getBytes(StandardCharsets.UTF_8)
      starts(i) = out.size()
      lengths(i) = b.length
      out.write(b, 0, b.length)
    }
  }

  def close(): Unit = lines.close()
}
