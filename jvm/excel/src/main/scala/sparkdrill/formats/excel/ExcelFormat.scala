package sparkdrill.formats.excel

import org.apache.spark.sql.types.StructType

import sparkdrill.reader.{
  BatchReader,
  CommonOptions,
  DiscoveryContext,
  FormatPlugin,
  OptionSpec,
  PrefixOptionSpec,
  ReaderOptions,
  RecordReader,
  SchemaNegotiator,
  TextValueOptions
}

/** Excel workbooks (SPEC 13): each non-blank row of the selected sheets is a record, its cells typed by the
  * cells themselves. A workbook is one task (a zip cannot be cut by byte range). Registered through this
  * module's `META-INF/services/sparkdrill.reader.FormatPlugin`, as any plugin jar: nothing in the core names it.
  *
  * The reader is the record-reader template ([[RecordReader]]) over [[ExcelRecords]]: a cell reaches its
  * column as canonical text (an ISO date, a plain number, `true`), which the template converts to the type
  * discovery gave the column from the cells ([[ExcelDiscovery]]); so modes, rescue, fills and the row filter
  * are the template's.
  */
final class ExcelFormat extends FormatPlugin {
  def name: String = "excel"
  def suffixes: Seq[String] = Seq("xlsx", "xlsm", "xls")
  override def options: Seq[OptionSpec[_]] = ExcelOptions.all
  override def prefixOptions: Seq[PrefixOptionSpec] = Seq(TextValueOptions.ColumnFormat)
  override def validate(options: ReaderOptions): Unit = {
    options.get(ExcelOptions.DataAddress).foreach(DataAddress.parse)
    ()
  }
  def sampleRows(options: ReaderOptions): Int = CommonOptions.sampleLimit(options)
  def splittable(options: ReaderOptions): Boolean = false
  override def discover(context: DiscoveryContext): StructType = ExcelDiscovery.schema(context)

  def newReader(negotiator: SchemaNegotiator): BatchReader =
    ExcelRecords.open(negotiator) match {
      case Some(records) => new RecordReader(negotiator, records)
      case None => EmptyReader
    }
}

/** The reader of a workbook skipped as malformed (PERMISSIVE, DROPMALFORMED): no rows. */
private object EmptyReader extends BatchReader {
  def next(): Boolean = false
  def close(): Unit = ()
}
