package sparkdrill.scan

import org.apache.spark.sql.types.StructType

import sparkdrill.loader.{ProjectionFilter, ResultSetLoader}
import sparkdrill.reader.{ErrorContext, FileInput, ReaderOptions, RowFilter, SchemaNegotiator}

/** The scan's side of a format reader's negotiation for one file. In execution the loader is the task's own
  * (shared by all its files); in discovery a fresh one is made from what the reader declares.
  */
private[sparkdrill] final class FileNegotiator(
    val file: FileInput,
    displayPath: String,
    val options: ReaderOptions,
    val definedSchema: Option[StructType],
    val fileSchema: Option[StructType],
    val projection: ProjectionFilter,
    makeLoader: StructType => ResultSetLoader,
    tableColumns: Set[String] = Set.empty,
    override val byPosition: Boolean = false,
    elements: Map[String, Seq[Int]] = Map.empty,
    fills: Map[String, Any] = Map.empty,
    override val rowFilter: Option[RowFilter] = None,
    late: Option[(StructType, Long) => Nothing] = None
) extends SchemaNegotiator {
  private var loader: ResultSetLoader = _
  private var declared: StructType = _
  var dropped: Long = 0L
  var filtered: Long = 0L

  val errorContext: ErrorContext = ErrorContext(displayPath)

  override def requestedElements(column: String): Option[Seq[Int]] =
    elements.find(_._1.equalsIgnoreCase(column)).map(_._2)

  override def isTableColumn(column: String): Boolean =
    tableColumns.contains(column.toLowerCase(java.util.Locale.ROOT))

  override def fill(column: String): Option[Any] = fills.get(column.toLowerCase(java.util.Locale.ROOT))

  def build(readerSchema: StructType): ResultSetLoader = {
    require(loader == null, s"the loader for ${file.path} was already built")
    declared = readerSchema
    loader = makeLoader(readerSchema)
    loader
  }

  /** The schema the reader declared when it built its loader. */
  def readerSchema: Option[StructType] = Option(declared)

  def countDropped(n: Long): Unit = dropped += n

  override def countFiltered(n: Long): Unit = filtered += n

  override def stopsOnLateColumns: Boolean = late.isDefined

  override def lateColumns(columns: StructType, line: Long): Nothing = late match {
    case Some(stop) => stop(columns, line)
    case None => super.lateColumns(columns, line)
  }
}
