package sparkdrill.scan.schema

import org.apache.spark.sql.types.{StringType, StructField, StructType}

import sparkdrill.projection.{ColumnParser, ImplicitLabels}
import sparkdrill.reader.{CommonOptions, OptionSpec, ReaderOptions}
import sparkdrill.loader.VariantTypes
import sparkdrill.scan.{ScanOptions, VariantOptions}
import sparkdrill.errors.DrillErrors

/** Option `schemaMode` (SPEC 5). */
private[sparkdrill] sealed trait SchemaMode extends Serializable

private[sparkdrill] object SchemaMode {

  /** The union of all files' columns (default). */
  case object Evolve extends SchemaMode

  /** The first file (path order) defines the columns; other files' extra columns are dropped with a warning. */
  case object Strict extends SchemaMode

  /** A file whose columns differ from the first file's is an error. */
  case object Fail extends SchemaMode
}

/** Option `typeConflict`: widen along SPEC 5's lattice (default), or fail naming column, types and files. */
private[sparkdrill] sealed trait TypeConflictMode extends Serializable

private[sparkdrill] object TypeConflictMode {
  case object Widen extends TypeConflictMode
  case object Fail extends TypeConflictMode
}

/** Option `partitionStyle`: `dirN` columns (default) or hive `key=value` directories. */
private[sparkdrill] sealed trait PartitionStyle extends Serializable

private[sparkdrill] object PartitionStyle {
  case object Dirs extends PartitionStyle
  case object Hive extends PartitionStyle
}

/** The columns of a stream's schema version so far, resolved with the files that version has not seen: they
  * lead the table in their order, as if read from a file before all others. Frozen (`addNewColumns`), each
  * keeps its type, as a provided column does; otherwise (`addNewColumnsWithTypeWidening`) its type joins the
  * files' types as another file's would, so the result is batch discovery's over every file read so far.
  *
  * @param source names the version in the tracker's reports (`schema version 3`)
  */
private[sparkdrill] final case class EarlierColumns(schema: StructType, frozen: Boolean, source: String)

/** Everything the tracker needs besides the projection and the files.
  *
  * @param byPosition the files name no columns (headerless text): a provided or defined schema binds to
  *   fields by position, and without one each file is the single array column `columns`
  * @param extraColumns columns the readers fill themselves (the corrupt-record column, a string, and the
  *   rescued-data column, a string or a VARIANT by `rescuedDataType`), added after the data columns unless a
  *   defined schema names them
  * @param mapInferenceThreshold objects of more distinct keys than this, across the files, are maps
  *   ([[sparkdrill.reader.TypeLattice.join]]); negative: never
  * @param maxSchemaFields the most leaf fields the discovered columns may have ([[SchemaWidth]])
  * @param earlier a stream's schema version so far, whose columns lead the table ([[EarlierColumns]])
  */
private[sparkdrill] final case class ScanConfig(
    schemaMode: SchemaMode = SchemaMode.Evolve,
    typeConflict: TypeConflictMode = TypeConflictMode.Widen,
    providedSchema: Option[ProvidedSchema] = None,
    strictSchema: Boolean = false,
    definedSchema: Option[StructType] = None,
    implicitLabels: ImplicitLabels = ImplicitLabels(),
    partitionLabel: String = "dir",
    partitionColumns: Boolean = true,
    partitionStyle: PartitionStyle = PartitionStyle.Dirs,
    byPosition: Boolean = false,
    extraColumns: Seq[StructField] = Nil,
    parsers: Seq[ColumnParser] = Nil,
    mapInferenceThreshold: Int = ScanConfig.DefaultMapInferenceThreshold,
    maxSchemaFields: Int = ScanConfig.DefaultMaxSchemaFields,
    earlier: Option[EarlierColumns] = None
) {

  /** Headerless text binds provided (or defined) columns to fields by position (SPEC 5). */
  def positional: Boolean = byPosition && (definedSchema.isDefined || providedSchema.isDefined)

  /** Headerless text without a schema has the single `columns` array. */
  def columnsArray: Boolean = byPosition && definedSchema.isEmpty && providedSchema.isEmpty
}

private[sparkdrill] object ScanConfig {
  val DefaultMapInferenceThreshold: Int = CommonOptions.MapInferenceThreshold.default.get
  val DefaultMaxSchemaFields: Int = ScanOptions.MaxSchemaFields.default.get

  /** Reads the SPEC options. `definedSchema` is Spark's user schema, `parsers` any extra (Python) column
    * parsers, asked after the built-in ones; `byPosition` whether the files bind columns by position (their
    * formats say so).
    */
  def fromOptions(
      options: ReaderOptions,
      definedSchema: Option[StructType] = None,
      parsers: Seq[ColumnParser] = Nil,
      byPosition: Boolean = false
  ): ScanConfig =
    ScanConfig(
      schemaMode = options(ScanOptions.SchemaMode),
      typeConflict = options(ScanOptions.TypeConflict),
      providedSchema =
        options.get(ScanOptions.ProvidedSchema).filter(_.trim.nonEmpty).map(ProvidedSchema.parse),
      strictSchema = options(ScanOptions.StrictSchema),
      definedSchema = definedSchema,
      implicitLabels = ImplicitLabels(
        filename = options(ScanOptions.FilenameLabel),
        filepath = options(ScanOptions.FilepathLabel),
        fqn = options(ScanOptions.FqnLabel),
        suffix = options(ScanOptions.SuffixLabel),
        lmt = options(ScanOptions.LmtLabel)
      ),
      partitionLabel = options(ScanOptions.PartitionLabel),
      partitionColumns = options(ScanOptions.PartitionColumns),
      partitionStyle = options(ScanOptions.PartitionStyle),
      byPosition = byPosition,
      extraColumns = {
        VariantOptions.check(options)
        val rescuedType = if (VariantOptions.rescuedAsVariant(options)) VariantTypes.variant else StringType
        options.get(CommonOptions.CorruptRecordColumn).map(StructField(_, StringType)).toSeq ++
          options.get(CommonOptions.RescuedDataColumn).map(StructField(_, rescuedType))
      },
      parsers = parsers,
      mapInferenceThreshold = CommonOptions.mapThreshold(options),
      maxSchemaFields = positive(ScanOptions.MaxSchemaFields, options(ScanOptions.MaxSchemaFields))
    )

  private def positive(spec: OptionSpec[Int], value: Int): Int =
    if (value >= 1) value
    else
      throw DrillErrors.optionBelowOne(spec.name, value.toLong)
}
