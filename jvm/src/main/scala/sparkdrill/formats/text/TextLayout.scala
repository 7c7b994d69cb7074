package sparkdrill.formats.text

import org.apache.spark.sql.types.StructType

import sparkdrill.reader.SchemaNegotiator

/** How a delimited text file's fields become columns (SPEC 4): one of three layouts, decided per read. */
private[text] sealed trait TextLayout

private[text] object TextLayout {

  /** `header=true`: the file's first record names its columns, and fields bind to them by name. */
  case object Header extends TextLayout

  /** No header, and the scan has a schema (provided or defined): field `i` is the schema's column `i`. */
  final case class Positional(schema: StructType) extends TextLayout

  /** No header and no schema: each record is one `columns` array of strings. */
  case object ColumnsArray extends TextLayout

  def of(settings: CsvSettings, negotiator: SchemaNegotiator): TextLayout =
    if (settings.header) Header
    else if (negotiator.byPosition) Positional(negotiator.fileSchema.get)
    else ColumnsArray
}
