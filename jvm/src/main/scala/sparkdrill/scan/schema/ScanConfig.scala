package sparkdrill.scan.schema

import java.util.Locale

import org.apache.spark.sql.types.StructType

import sparkdrill.formats.ReaderOptions
import sparkdrill.projection.{ColumnParser, ImplicitLabels}

/** Option `schemaMode` (SPEC 5). */
sealed trait SchemaMode extends Serializable

object SchemaMode {

  /** The union of all files' columns (default). */
  case object Evolve extends SchemaMode

  /** The first file (path order) defines the columns; other files' extra columns are dropped with a warning. */
  case object Strict extends SchemaMode

  /** A file whose columns differ from the first file's is an error. */
  case object Fail extends SchemaMode

  def parse(value: String): SchemaMode = value.trim.toLowerCase(Locale.ROOT) match {
    case "evolve" => Evolve
    case "strict" => Strict
    case "fail" => Fail
    case other =>
      throw new IllegalArgumentException(s"option 'schemaMode' must be evolve, strict or fail, got '$other'")
  }
}

/** Option `typeConflict`: widen along SPEC 5's lattice (default), or fail naming column, types and files. */
sealed trait TypeConflictMode extends Serializable

object TypeConflictMode {
  case object Widen extends TypeConflictMode
  case object Fail extends TypeConflictMode

  def parse(value: String): TypeConflictMode = value.trim.toLowerCase(Locale.ROOT) match {
    case "widen" => Widen
    case "fail" => Fail
    case other =>
      throw new IllegalArgumentException(s"option 'typeConflict' must be widen or fail, got '$other'")
  }
}

/** Option `partitionStyle`: `dirN` columns (default) or hive `key=value` directories. */
sealed trait PartitionStyle extends Serializable

object PartitionStyle {
  case object Dirs extends PartitionStyle
  case object Hive extends PartitionStyle

  def parse(value: String): PartitionStyle = value.trim.toLowerCase(Locale.ROOT) match {
    case "dir" | "dirs" | "drill" => Dirs
    case "hive" => Hive
    case other =>
      throw new IllegalArgumentException(s"option 'partitionStyle' must be dir or hive, got '$other'")
  }
}

/** Everything the tracker needs besides the projection and the files. */
final case class ScanConfig(
    schemaMode: SchemaMode = SchemaMode.Evolve,
    typeConflict: TypeConflictMode = TypeConflictMode.Widen,
    providedSchema: Option[ProvidedSchema] = None,
    strictSchema: Boolean = false,
    definedSchema: Option[StructType] = None,
    implicitLabels: ImplicitLabels = ImplicitLabels(),
    partitionLabel: String = "dir",
    partitionColumns: Boolean = true,
    partitionStyle: PartitionStyle = PartitionStyle.Dirs,
    header: Boolean = false,
    allTextMode: Boolean = false,
    parsers: Seq[ColumnParser] = Nil
) {

  /** Headerless text binds provided (or defined) columns to fields by position (SPEC 5). */
  def positional: Boolean = !header && (definedSchema.isDefined || providedSchema.isDefined)

  /** Headerless text without a schema has the single `columns` array. */
  def columnsArray: Boolean = !header && definedSchema.isEmpty && providedSchema.isEmpty
}

object ScanConfig {

  /** Reads the SPEC options (case-insensitive names). `definedSchema` is Spark's user schema, `parsers` any
    * extra (Python) column parsers, asked after the built-in ones.
    */
  def fromOptions(
      options: ReaderOptions,
      definedSchema: Option[StructType] = None,
      parsers: Seq[ColumnParser] = Nil
  ): ScanConfig =
    ScanConfig(
      schemaMode = options.get("schemaMode").map(SchemaMode.parse).getOrElse(SchemaMode.Evolve),
      typeConflict =
        options.get("typeConflict").map(TypeConflictMode.parse).getOrElse(TypeConflictMode.Widen),
      providedSchema = options.get("providedSchema").filter(_.trim.nonEmpty).map(ProvidedSchema.parse),
      strictSchema = options.boolean("strictSchema", default = false),
      definedSchema = definedSchema,
      implicitLabels = ImplicitLabels.fromOptions(options.get),
      partitionLabel = options.getOrElse("partitionLabel", "dir"),
      partitionColumns = options.boolean("partitionColumns", default = true),
      partitionStyle = options.get("partitionStyle").map(PartitionStyle.parse).getOrElse(PartitionStyle.Dirs),
      header = options.boolean("header", default = false),
      allTextMode = options.boolean("allTextMode", default = false),
      parsers = parsers
    )
}
