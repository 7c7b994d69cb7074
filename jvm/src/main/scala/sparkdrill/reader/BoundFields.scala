package sparkdrill.reader

import scala.collection.mutable.ArrayBuffer

import sparkdrill.loader.RowWriter

/** One file's text fields bound to the loader's columns, with the per-field duties of every reader whose
  * records are text fields (delimited text, the record-reader template), in one place:
  *  - field `i` (named `names(i)`) binds by name to its column's writer and converter ([[TextConverter]]:
  *    only when the query reads the column or `validate=all` asks; a NOT NULL column's DEFAULT or zero for
  *    an absent value), through the pushed row filter's capturing writer where the filter binds the column;
  *  - the filter's fields are converted first ([[filterFields]]), the rest ([[readFields]]) only for records
  *    that may pass;
  *  - a value that does not convert is handled per `mode` ([[failed]]) and kept for the rescued-data column;
  *  - fields the table has no column for, and values that did not convert, go to the rescued-data column
  *    ([[rescue]]).
  * The template's loop over a record's fields reads [[filterFields]], then [[rowFilter]]'s verdict, then
  * [[readFields]].
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

  // Field i's converter where its value is kept (a column of that name the query reads, or validates).
  private val converterOf: Map[Int, TextConverter] = {
    val settings = TextValueOptions.converterSettings(options)
    names.indices.flatMap { i =>
      writer
        .find(names(i))
        .filter(CommonOptions.converts(_, options))
        .map(w =>
          i -> TextConverter(
            if (rowFilter == null) w else rowFilter.wrap(w),
            settings,
            negotiator.fill(names(i))
          )
        )
    }.toMap
  }
  private def isFilterField(i: Int): Boolean =
    rowFilter != null && rowFilter.captures(converterOf(i).writer)

  /** The fields of the filter's columns, converted first, in order, and their converters. */
  val filterFields: Array[Int] = converterOf.keys.toArray.sorted.filter(isFilterField)
  val filterConverters: Array[TextConverter] = filterFields.map(converterOf)

  /** The other fields that are converted, in order, and their converters. */
  val readFields: Array[Int] = converterOf.keys.toArray.sorted.filterNot(isFilterField)
  val readConverters: Array[TextConverter] = readFields.map(converterOf)

  /** Whether any field is converted. */
  val anyConverted: Boolean = converterOf.nonEmpty

  /** Which fields (by position) are converted, none past the last. */
  def converted: Array[Boolean] = {
    val mask = new Array[Boolean](if (converterOf.isEmpty) 0 else converterOf.keys.max + 1)
    converterOf.keys.foreach(mask(_) = true)
    mask
  }

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
    val keep = bad.unconvertible(errors, converterOf(i).writer, line, offset, text)
    if (keep && rescued.enabled) unconverted += i
    keep
  }

  /** Puts the record's values for the rescued-data column, when read: fields the table lacks and values that
    * did not convert, by name (`text(i)` is field `i`'s text, null when the record lacks it), then what
    * `extras` puts (fields past `names`). [[RowSink.save]] writes them.
    */
  def rescue(text: Int => String)(extras: => Unit): Unit = {
    unknownFields.foreach { i =>
      val t = text(i)
      if (t != null) rescued.put(names(i), t)
    }
    unconverted.foreach(i => rescued.put(names(i), text(i)))
    extras
  }
}
