package sparkdrill.scan

import java.time.ZoneId
import java.util.Locale

import scala.collection.mutable

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.{StringType, StructField, StructType}

import sparkdrill.formats.{ReaderOptions, RecordColumns}
import sparkdrill.loader.LoaderOptions

/** A table as planned on the driver at `load()`: the listed files, what discovery found in each, and the
  * resolved wildcard schema. Kept by the Spark `Table`, so every query on one DataFrame reuses it.
  */
final class TablePlan(
    val paths: Seq[String],
    val options: ReaderOptions,
    val files: IndexedSeq[ScanFile],
    val fileSchemas: IndexedSeq[StructType],
    val tableColumns: StructType,
    val definedSchema: Option[StructType]
) {
  val partitionLabel: String = options.getOrElse("partitionLabel", "dir")
  val partitionDepth: Int = if (files.isEmpty) 0 else files.map(_.dirs.length).max
  private val partitionsInWildcard = options.boolean("partitionColumns", default = true)
  private val implicitByLabel = ImplicitColumn.byLabel(options)

  /** `SELECT *`: table columns, then `dir0..dirN` (or exactly the defined schema). */
  val schema: StructType = definedSchema.getOrElse {
    val dirs =
      if (partitionsInWildcard)
        (0 until partitionDepth).map(n => StructField(s"$partitionLabel$n", StringType))
      else Nil
    StructType(tableColumns.fields ++ dirs)
  }

  /** The hidden columns, selectable by name: label and column, in a stable order. */
  val implicitColumns: Seq[(String, ImplicitColumn)] = ImplicitColumn.all.map(c => c.label(options) -> c)

  def loaderOptions: LoaderOptions = LoaderOptions(
    batchRows = options.int("batchRows", LoaderOptions.DefaultBatchRows),
    batchBytes = options.long("batchBytes", LoaderOptions.DefaultBatchBytes),
    memoryMode = options.getOrElse("memoryMode", "offHeap").toLowerCase(Locale.ROOT) match {
      case "offheap" => org.apache.spark.memory.MemoryMode.OFF_HEAP
      case "onheap" => org.apache.spark.memory.MemoryMode.ON_HEAP
      case other =>
        throw new IllegalArgumentException(s"option 'memoryMode' must be offHeap or onHeap, got '$other'")
    }
  )

  /** What executors need to produce `required` (Spark's pruned columns, metadata columns last). */
  def specFor(required: StructType): ScanSpec = {
    val readerFields = mutable.ArrayBuffer.empty[StructField]
    def loaderColumn(f: StructField): ColumnSource.Loader = {
      readerFields += f
      ColumnSource.Loader(readerFields.length - 1)
    }
    val partitionPattern = s"(?i)${java.util.regex.Pattern.quote(partitionLabel)}(\\d+)".r
    val sources: Array[ColumnSource] = required.fields.map { f =>
      metadataName(f).flatMap(n => implicitByLabel.get(n.toLowerCase(Locale.ROOT))) match {
        case Some(ImplicitColumn.Line) => loaderColumn(RecordColumns.LineField)
        case Some(ImplicitColumn.Offset) => loaderColumn(RecordColumns.OffsetField)
        case Some(c) => ColumnSource.FileConstant(c)
        case None =>
          f.name match {
            case partitionPattern(n) if findTableColumn(f.name).isEmpty => ColumnSource.Partition(n.toInt)
            case _ =>
              findTableColumn(f.name) match {
                case Some(t) => loaderColumn(t.copy(dataType = f.dataType))
                case None => ColumnSource.Null(f.dataType)
              }
          }
      }
    }
    ScanSpec(required, sources, StructType(readerFields.toSeq), options.asMap, loaderOptions)
  }

  private def findTableColumn(name: String): Option[StructField] = {
    val columns = definedSchema.getOrElse(tableColumns)
    columns.fields.find(_.name.equalsIgnoreCase(name))
  }

  private def metadataName(f: StructField): Option[String] =
    if (f.metadata.contains(TablePlan.MetadataKey)) Some(f.metadata.getString(TablePlan.MetadataKey))
    else None

  /** The files (and their discovered schemas) that can hold rows passing every predicate. */
  def prune(predicates: Seq[FilePredicate]): (IndexedSeq[ScanFile], IndexedSeq[StructType]) =
    if (predicates.isEmpty) (files, fileSchemas)
    else
      files.indices
        .filter(i => FilePredicate.keeps(predicates, files(i)))
        .map(i => (files(i), fileSchemas(i)))
        .unzip

  def description: String =
    s"paths=[${paths.mkString(", ")}], files=${files.size}, formats=[${files.map(_.format).distinct.mkString(", ")}]"
}

object TablePlan {
  val MetadataKey = "__metadata_col"

  /** Lists and discovers the files of `paths` and resolves their schema. */
  def open(
      paths: Seq[String],
      options: ReaderOptions,
      definedSchema: Option[StructType],
      conf: Configuration,
      zone: ZoneId
  ): TablePlan = {
    require(paths.nonEmpty, "spark-drill: no path given: use load(path) or the option 'path'")
    val files = FileLister.list(paths, conf, options, zone)
    if (files.isEmpty)
      throw new IllegalArgumentException(s"spark-drill: no readable files under ${paths.mkString(", ")}")
    // Discovery runs under a defined schema too: splits past a file's header need the header's order.
    val fileSchemas = files.map(f => SchemaDiscovery.discover(f, options, conf, sampleRows = 0))
    new TablePlan(paths, options, files, fileSchemas, unionByName(fileSchemas), definedSchema)
  }

  /** Columns of all files by name (case-insensitive; the first spelling wins), in first-seen order. */
  def unionByName(schemas: Seq[StructType]): StructType = {
    val seen = mutable.LinkedHashMap.empty[String, StructField]
    schemas.foreach(_.fields.foreach { f =>
      val key = f.name.toLowerCase(Locale.ROOT)
      if (!seen.contains(key)) seen(key) = f.copy(nullable = true)
    })
    StructType(seen.values.toSeq)
  }
}
