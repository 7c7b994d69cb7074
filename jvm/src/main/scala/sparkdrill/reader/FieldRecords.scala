package sparkdrill.reader

/** A format's part of the record-reader template ([[RecordReader]]): how to find its records in a split, and
  * how to cut one record into text fields. Everything else (binding fields to columns, conversion, modes,
  * the corrupt-record and rescued-data columns, `_line`, `_offset` and `sheet`, fills, `validate`, the row filter,
  * batch limits) is the template's.
  *
  * The fields of a record are UTF-8 text in `bytes`: field `i` is `bytes(start(i) until start(i) + length(i))`,
  * or absent (null) where `start(i)` is negative.
  */
trait FieldRecords extends AutoCloseable {

  /** The names of the fields every record has, in order: the format's early schema (its header, the groups of
    * its pattern, its layout). Known before any record is read.
    */
  def names: IndexedSeq[String]

  /** Moves to the next record of this split; false when none remain. */
  def next(): Boolean

  /** The current record's 1-based line, or -1 where lines are unknown (a range of a bzip2 file). */
  def line: Long

  /** The current record's byte offset in the uncompressed file, or -1 where unknown. */
  def offset: Long

  /** The sheet of the current record, for a format whose files have sheets (the hidden `sheet` column). */
  def sheet: Option[String] = None

  /** Cuts the current record into fields. Returns null when it could, else why the record is malformed (the
    * template then applies `mode`).
    */
  def split(): String

  /** Fields of the current record after [[split]]: `names.size`, or more when the record has fields past them. */
  def count: Int
  def bytes: Array[Byte]
  def start(i: Int): Int
  def length(i: Int): Int

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
  def typeOf(i: Int): org.apache.spark.sql.types.DataType = org.apache.spark.sql.types.StringType
}
