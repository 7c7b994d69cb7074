package sparkdrill.reader

import scala.collection.mutable.ArrayBuffer

import sparkdrill.loader.RowWriter

/** One file's text fields bound to the loader's columns, with the per-field duties of every reader whose
  * records are text fields (delimited text, the record-reader template), in one place:
  *  - field `i` (named `names(i)`) binds by name to its column's writer and converter ([[TextConverter]]:
  *    only when the query reads the column or `validate=all` asks; a NOT NULL column's DEFAULT or zero for
  *    an absent value), through the pushed row filter's capturing writer where the filter binds the column;
  *  - the filter's fields are converted first ([[filterFields]]), the rest ([[others]]) only for records
  *    that may pass;
  *  - a value that does not convert is handled per `mode` ([[failed]]) and kept for the rescued-data column;
  *  - fields the table has no column for, and values that did not convert, go to the rescued-data column
  *    ([[rescue]]).
  * A reader keeps only its loop over a record's fields, its own for speed (CSV reads fields in place):
  * [[filterFields]], then [[rowFilter]]'s verdict, then [[others]].
  */
private[sparkdrill] final class BoundFields(
    negotiator: SchemaNegotiator,
    writer: RowWriter,
    names: IndexedSeq[String],
    bad: BadRecords,
    rescued: RescuedData
) {
  private val options = negotiator.options

  /** The pushed row filter bound to the columns of these fields, or null (see [[RowFilter.forRead]]). */
  val rowFilter: BoundRowFilter =
    RowFilter.forRead(negotiator, writer, name => names.exists(_.equalsIgnoreCase(name))).orNull

  /** Field `i`'s converter, null when its value is not kept (no such column, or not read). */
  val converters: Array[TextConverter] = {
    val settings = TextValueOptions.converterSettings(options)
    names.map { name =>
      writer.find(name) match {
        case Some(w) if CommonOptions.converts(w, options) =>
          TextConverter(if (rowFilter == null) w else rowFilter.wrap(w), settings, negotiator.fill(name))
        case _ => null
      }
    }.toArray
  }

  /** The fields of the filter's columns, converted first. */
  val filterFields: Array[Int] =
    if (rowFilter == null) Array.emptyIntArray
    else
      converters.indices
        .filter(i => converters(i) != null && rowFilter.captures(converters(i).writer))
        .toArray

  /** The other fields' converters: [[converters]] with null at each filter field. */
  val others: Array[TextConverter] =
    if (filterFields.isEmpty) converters
    else converters.indices.map(i => if (filterFields.contains(i)) null else converters(i)).toArray

  /** Whether any field is converted. */
  val anyConverted: Boolean = converters.exists(_ != null)

  // Fields the table has no column for (under a defined or strict schema, or a stream's frozen one): their
  // values go to the rescued-data column. None while discovering (every field is then a column).
  private val unknownFields: Array[Int] =
    if (!rescued.enabled || negotiator.definedSchema.isEmpty) Array.emptyIntArray
    else names.indices.filterNot(i => negotiator.isTableColumn(names(i))).toArray

  // The current record's fields whose value did not convert (kept as text in the rescued-data column).
  private val unconverted = ArrayBuffer.empty[Int]

  /** Starts a record's fields. */
  def startRecord(): Unit = if (rescued.enabled) unconverted.clear()

  /** Field `i`'s value `text` did not convert: per mode (the error names the file, line, offset, column and
    * value), and kept for the rescued-data column. False when the record is dropped.
    */
  def failed(i: Int, errors: ErrorContext, line: Long, offset: Long, text: => String): Boolean = {
    val keep = bad.unconvertible(errors, converters(i).writer, line, offset, text)
    if (keep && rescued.enabled) unconverted += i
    keep
  }

  /** Writes the record's rescued-data column, when read: fields the table lacks and values that did not
    * convert, by name (`text(i)` is field `i`'s text, null when the record lacks it), then what `extras` puts
    * (fields past `names`), with the record's `line` (-1: unknown).
    */
  def rescue(text: Int => String, line: Long)(extras: => Unit): Unit = {
    rescued.reset()
    unknownFields.foreach { i =>
      val t = text(i)
      if (t != null) rescued.put(names(i), t)
    }
    unconverted.foreach(i => rescued.put(names(i), text(i)))
    extras
    rescued.write(line)
  }
}
