package sparkdrill.reader

import org.apache.spark.sql.types.{DataType, StringType, StructField, StructType}

/** A format's part of the record-reader template ([[RecordReader]]): how to find its records in a split, and
  * how to cut one record into text fields. Everything else (binding fields to columns, conversion, modes,
  * the corrupt-record and rescued-data columns, `_line`, `_offset` and `sheet`, fills, `validate`, the row filter,
  * batch limits) is the template's.
  *
  * The fields of a record are UTF-8 text in `bytes`: field `i` is `bytes(start(i) until start(i) + length(i))`,
  * or absent (null) where `start(i)` is negative.
  */
trait FieldRecords extends RecordPosition with AutoCloseable {

  /** The names of the fields every record has, in order: the format's early schema (its header, the groups of
    * its pattern, its layout). Known before any record is read.
    */
  def names: IndexedSeq[String]

  /** The file's columns as the reader declares them to the loader ([[SchemaNegotiator.build]]): by default
    * [[names]], each a string. A format whose fields bind by position to a schema it was given declares that
    * schema; one whose records are an array column ([[arrayColumn]]) declares that column.
    */
  def schema: StructType = StructType(names.map(StructField(_, StringType, nullable = true)))

  /** Where a format has no names for its fields (headerless text without a schema), the column each record's
    * fields go to, in order, as one array of strings; None (the default) binds fields to [[names]].
    */
  def arrayColumn: Option[String] = None

  /** Told once, before the first [[next]], what the template will read of each record, so a format can skip
    * the rest (delimited text then only finds where a counted record ends). Everything by default.
    */
  def plan(use: FieldUse): Unit = ()

  /** Moves to the next record of this split; false when none remain. */
  def next(): Boolean

  /** Cuts the current record into fields: None when it could, else why the record is malformed (the template
    * then applies `mode`).
    */
  def split(): Option[String]

  /** Fields of the current record after [[split]]: `names.size`, or more when the record has fields past them. */
  def count: Int
  def bytes: Array[Byte]
  def start(i: Int): Int
  def length(i: Int): Int

  /** Whether the format quotes fields: then an empty field that did not stand in quotes ([[quoted]]) is null
    * in a string column, and `""` is the empty string (SPEC 9.1). False by default: an empty field is "".
    */
  def quotes: Boolean = false

  /** Whether field `i` of the current record stood in quotes (read only where [[quotes]]). */
  def quoted(i: Int): Boolean = false

  /** The current record as read, for the corrupt-record column and error messages. */
  def text: String

  /** Values of the current record that are null in their column yet kept, by name, in the rescued-data column
    * when one is read (a workbook's error cells: `#DIV/0!`). Called after [[split]]; none by default.
    */
  def keptAside(put: (String, String) => Unit): Unit = ()

  /** The column of a field past [[names]] (fixed-width's trailing `rest`), found by discovery like any late
    * column; None (the default) makes such fields extras: rescued, or dropped and counted.
    */
  def extraColumn(i: Int): Option[String] = None

  /** The type field `i`'s value has of itself, where the format knows one (a workbook's number, boolean or date
    * cell); `StringType` (the default) where a field is only text. `singleVariantColumn` (SPEC 14) writes the
    * value as that type rather than as a string.
    */
  def typeOf(i: Int): DataType = StringType
}

/** What the template reads of a split's records ([[FieldRecords.plan]]).
  *
  * @param fields whether it reads any field (or a message's text of them): a count of rows does not, though
  *   it may still ask whether a record is malformed (`split`)
  * @param only the fields it reads (by position; none past the array's end), where it reads only some: a
  *   format may leave the others' bytes uncopied. Empty when it reads every field it cuts.
  * @param text whether it reads records' text ([[FieldRecords.text]]) for the corrupt-record column
  */
final case class FieldUse(fields: Boolean, only: Option[Array[Boolean]], text: Boolean)
