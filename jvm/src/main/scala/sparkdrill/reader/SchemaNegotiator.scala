package sparkdrill.reader

import org.apache.spark.sql.types.StructType

import sparkdrill.loader.{ProjectionFilter, ResultSetLoader}
import sparkdrill.errors.DrillErrors

/** What a format reader is told about the scan, and how it gets its loader. */
trait SchemaNegotiator {
  def file: FileInput

  /** The read options, parsed and checked at planning. */
  def options: ReaderOptions

  /** The columns the scan needs from every file, with their types; `None` while discovering a schema. */
  def definedSchema: Option[StructType]

  /** This file's own schema as discovery found it (a text header), for splits that start past it. */
  def fileSchema: Option[StructType]

  /** Whether `column` (any case) is a column of the table (some file has it), when reading: a value for a
    * column outside it has nowhere to go (dropped or rescued), while one for a column this query does not
    * read is simply skipped. False while discovering.
    */
  def isTableColumn(column: String): Boolean = false

  /** Which columns the query reads: the reader skips parsing the others. */
  def projection: ProjectionFilter

  /** For an array column of which the query reads only some elements (`columns[2]`): those indexes, in
    * order. The reader may leave the others empty.
    */
  def requestedElements(column: String): Option[Seq[Int]] = None

  /** What a NOT NULL column takes where a record has no value (a missing field, a blank one in a typed
    * column): its DEFAULT, else its type's zero, as a Spark internal value ([[Fills]] writes it). None for a
    * nullable column (null).
    */
  def fill(column: String): Option[Any] = None

  /** Whether this read binds the defined schema's columns to fields by position (headerless text with a
    * provided or defined schema) rather than by name.
    */
  def byPosition: Boolean = false
  def errorContext: ErrorContext

  /** Creates the loader (once). `readerSchema` declares the file's columns as the reader knows them up front
    * (its early schema: a header, a pattern's groups; a reader that learns them record by record declares
    * [[definedSchema]]). In discovery through the reader the loader is made of them. In a read the loader is
    * the scan's, with every column the query needs, and a table column the reader does not declare is absent
    * from the file: the scan fills it for every row (null, or a NOT NULL column's DEFAULT or zero).
    */
  def build(readerSchema: StructType): ResultSetLoader

  /** Counts a value the reader had to drop (an extra field with nowhere to go). */
  def countDropped(n: Long): Unit

  /** Predicates Spark pushed on the table's own scalar columns (never while discovering). A reader may judge
    * each record on these columns first and convert the others only for records that may pass (late
    * materialization); [[RowFilter.forRead]] binds it, or says when the reader must not. Spark checks every
    * predicate again after the scan, so a reader that ignores it is still right, only slower.
    */
  def rowFilter: Option[RowFilter] = None

  /** Counts records the row filter rejected before the reader converted them. */
  def countFiltered(n: Long): Unit = ()

  /** Whether a value under a name the table lacks, met past discovery (a JSON member first seen after the
    * sample), stops the read instead of being dropped or rescued: a stream whose schema evolves wants a new
    * schema version for it (SPEC 11, "New columns"). The reader then reports the record's new columns to
    * [[lateColumns]].
    */
  def stopsOnLateColumns: Boolean = false

  /** The new columns of the record at `line`, typed as discovery would type them; throws the error that
    * stops the read (after recording what the stream needs to go on with them).
    */
  def lateColumns(columns: StructType, line: Long): Nothing =
    throw DrillErrors.internal(s"${file.path}: this read does not stop on new columns ($columns)")
}
