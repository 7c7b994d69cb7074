package sparkdrill.scan

import java.time.ZoneId
import java.util.Locale

import scala.collection.mutable

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.types.{MetadataBuilder, StringType, StructField, StructType}

import sparkdrill.formats.{ColumnMetadata, ReaderOptions, RecordColumns}
import sparkdrill.formats.text.TextBatchReader
import sparkdrill.loader.LoaderOptions
import sparkdrill.projection.{
  ColumnParser,
  FileInfo,
  ImplicitKind,
  ImplicitLabels,
  ParseContext,
  ParsedColumn,
  Projection,
  ProjectionParser,
  RequestedColumn,
  Shape
}
import sparkdrill.scan.schema.{
  Discovery,
  FileReport,
  FileSchema,
  Fill,
  PartitionStyle,
  ScanConfig,
  TableMerger
}

/** A table as planned on the driver at `load()`: the listed files, what discovery found in each, and the
  * resolved wildcard schema. Kept by the Spark `Table`, so every query on one DataFrame reuses it.
  */
final class TablePlan(
    val paths: Seq[String],
    val options: ReaderOptions,
    val files: IndexedSeq[ScanFile],
    val fileSchemas: IndexedSeq[StructType],
    val tableColumns: StructType,
    val definedSchema: Option[StructType],
    val reports: Seq[FileReport] = Nil,
    val parsers: Seq[ColumnParser] = Nil
) {
  val partitionLabel: String = options.getOrElse("partitionLabel", "dir")
  val partitionDepth: Int = if (files.isEmpty) 0 else files.map(_.dirs.length).max
  val hiveStyle: Boolean = options.getOrElse("partitionStyle", "drill").trim.toLowerCase(Locale.ROOT) match {
    case "hive" => true
    case "drill" => false
    case other =>
      throw new IllegalArgumentException(s"option 'partitionStyle' must be drill or hive, got '$other'")
  }

  /** Hive-style partition keys (`region=eu`), in first-seen order; the first spelling wins. */
  val hiveKeys: Seq[String] =
    if (!hiveStyle) Nil
    else
      files.flatMap(_.hiveKeys).foldLeft(Vector.empty[String]) { (keys, k) =>
        if (keys.exists(_.equalsIgnoreCase(k))) keys else keys :+ k
      }

  def isHiveColumn(name: String): Boolean = hiveKeys.exists(_.equalsIgnoreCase(name))
  private val partitionsInWildcard = options.boolean("partitionColumns", default = true)

  /** The labels of the implicit columns (options `filenameLabel`, ...). */
  val implicitLabels: ImplicitLabels = ImplicitLabels.fromOptions(options.get)

  /** The columns of `*`: table columns, then `dir0..dirN` or the hive keys. */
  def wildcardColumns: Seq[(StructField, Planned)] = {
    val table = tableColumns.fields.toSeq.map(f => f -> (Planned.Table(f): Planned))
    val partitions: Seq[(StructField, Planned)] =
      if (!partitionsInWildcard) Nil
      else if (hiveStyle)
        hiveKeys
          .filterNot(k => tableColumns.fieldNames.exists(_.equalsIgnoreCase(k)))
          .map(k => StructField(k, StringType) -> Planned.Other(ColumnSource.Hive(k)))
      else
        (0 until partitionDepth).map { n =>
          StructField(s"$partitionLabel$n", StringType) -> Planned.Other(ColumnSource.Partition(n))
        }
    table ++ partitions
  }

  private lazy val parseContext = ParseContext(files.map(_.info), definedSchema)
  // Column-parser claims by lower-case name: asked once per name, on the driver.
  private val claims = mutable.LinkedHashMap.empty[String, Option[(ColumnParser, ParsedColumn)]]

  /** The column parsers' hidden columns (selectable by name, not in `*`), first parser first. */
  lazy val parserColumns: Seq[ParsedColumn] = {
    val all = parsers.flatMap(p => p.hiddenColumns(parseContext).map(p -> _))
    val distinct = all.groupBy(_._2.name.toLowerCase(Locale.ROOT)).values.map(_.head).toSet
    all.filter(distinct).map { case (p, c) =>
      claims.synchronized(claims.getOrElseUpdate(c.name.toLowerCase(Locale.ROOT), Some(p -> c)))
      c
    }
  }

  /** The first column parser that claims `name`, or None. */
  def claimParsed(name: String): Option[ParsedColumn] = claimFor(name).map(_._2)

  private def claimFor(name: String): Option[(ColumnParser, ParsedColumn)] = {
    parserColumns // hidden columns are claimed first, by the parser that lists them
    claims.synchronized(
      claims.getOrElseUpdate(
        name.toLowerCase(Locale.ROOT),
        parsers.iterator
          .flatMap(p => p.parse(RequestedColumn(name, Shape.Whole), parseContext).map(p -> _))
          .nextOption()
      )
    )
  }

  // Per (column, file path): each parser is asked once per file, however many queries run on the table.
  private val parsedValueCache = mutable.HashMap.empty[(String, String), Any]

  /** The column-parser values of `files`, by path: one array per file, in the order of `columns`. */
  def parsedValues(columns: Seq[String], files: Seq[ScanFile]): Map[String, IndexedSeq[Any]] =
    parsedValueCache.synchronized {
      columns.foreach { name =>
        val key = name.toLowerCase(Locale.ROOT)
        val (parser, column) = claimFor(name).getOrElse(
          throw new IllegalStateException(s"no column parser claims column '$name'")
        )
        val missing = files.filterNot(f => parsedValueCache.contains(key -> f.path))
        if (missing.nonEmpty) {
          val values = parser.values(column, missing.map(_.info))
          missing.zip(values).foreach { case (f, v) => parsedValueCache((key, f.path)) = v }
        }
      }
      files.map { f =>
        f.path -> columns.map(c => parsedValueCache((c.toLowerCase(Locale.ROOT), f.path))).toIndexedSeq
      }.toMap
    }

  /** The `project` option, parsed. */
  val projection: Option[Projection] = options.get("project").map(ProjectionParser.parse)

  /** The columns of the table as Spark sees it, and how each is filled: a defined schema, an explicit
    * projection, or the wildcard.
    */
  private val planned: Seq[(StructField, Planned)] = definedSchema match {
    case Some(defined) =>
      // Readers fill a defined schema's columns by name (by position for headerless text); a column no file
      // has is null.
      defined.fields.toSeq.map(f => f -> (Planned.Table(f): Planned))
    case None => projection.map(ProjectedColumns.resolve(this, _)).getOrElse(wildcardColumns)
  }

  val schema: StructType = StructType(planned.map(_._1))

  /** The hidden columns, selectable by name: label and column, in a stable order. */
  val implicitColumns: Seq[(String, ImplicitKind)] = implicitLabels.all

  /** With partitionColumns=false the partition columns leave `*` but stay selectable by name. */
  val hiddenPartitionColumns: Seq[String] =
    if (partitionsInWildcard || definedSchema.isDefined) Nil
    else if (hiveStyle) hiveKeys
    else (0 until partitionDepth).map(n => s"$partitionLabel$n")

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
    var columnsIndexes: Option[Seq[Int]] = None
    def loaderColumn(f: StructField): ColumnSource.Loader = {
      val existing = readerFields.indexWhere(_.name.equalsIgnoreCase(f.name))
      if (existing >= 0) ColumnSource.Loader(existing)
      else {
        readerFields += f
        ColumnSource.Loader(readerFields.length - 1)
      }
    }
    val partitionPattern = s"(?i)${java.util.regex.Pattern.quote(partitionLabel)}(\\d+)".r
    val parsedSlots = mutable.LinkedHashMap.empty[String, Int]
    def parsedColumn(name: String, dataType: org.apache.spark.sql.types.DataType): ColumnSource = {
      val key = name.toLowerCase(Locale.ROOT)
      ColumnSource.Parsed(parsedSlots.getOrElseUpdate(key, parsedSlots.size), key, dataType)
    }
    val sources: Array[ColumnSource] = required.fields.map { f =>
      metadataName(f) match {
        case Some(meta) =>
          implicitLabels.kindOf(meta) match {
            case Some(ImplicitKind.Line) => loaderColumn(RecordColumns.LineField)
            case Some(ImplicitKind.Offset) => loaderColumn(RecordColumns.OffsetField)
            case Some(kind: ImplicitKind.FileKind) => ColumnSource.FileConstant(kind)
            case None if parserColumns.exists(_.name.equalsIgnoreCase(meta)) =>
              parsedColumn(meta, f.dataType)
            case None =>
              meta match {
                case partitionPattern(n) if !hiveStyle => ColumnSource.Partition(n.toInt)
                case key => ColumnSource.Hive(key)
              }
          }
        case None =>
          planned.find(_._1.name.equalsIgnoreCase(f.name)).map(_._2) match {
            case Some(Planned.Table(t, indexes)) =>
              indexes.foreach(ix => columnsIndexes = Some(ix))
              loaderColumn(t.copy(dataType = f.dataType))
            case Some(Planned.Other(ColumnSource.Parsed(_, name, t))) => parsedColumn(name, t)
            case Some(Planned.Other(source)) => source
            case None => ColumnSource.Null(f.dataType)
          }
      }
    }
    // validate=all: the other table columns are converted too (to judge records the same way whatever the
    // projection), through writers that keep nothing. They come last, so the projected indexes stand.
    val projectedCount = readerFields.length
    if (options.getOrElse("validate", "projected").equalsIgnoreCase("all")) {
      val taken = readerFields.map(_.name.toLowerCase(Locale.ROOT)).toSet
      readerFields ++= definedSchema
        .getOrElse(tableColumns)
        .fields
        .filterNot(f => taken(f.name.toLowerCase(Locale.ROOT)))
    }
    ScanSpec(
      required,
      sources,
      StructType(readerFields.toSeq),
      columnsIndexes
        .map(ix => options.asMap + (TextBatchReader.ColumnsIndexesOption -> ix.mkString(",")))
        .getOrElse(options.asMap),
      loaderOptions,
      positionalSchema = positional,
      projectedColumns = projectedCount,
      tableSchema = definedSchema.getOrElse(tableColumns)
    )
  }

  /** Headerless text with a provided or defined schema binds its columns to fields by position. */
  private def positional: Option[StructType] =
    if (options.boolean("header", default = false)) None
    else definedSchema.orElse(if (options.contains("providedSchema")) Some(tableColumns) else None)

  /** Per file, the output columns it lacks that cannot simply be null: NOT NULL columns take their default
    * or their type's zero. Headerless files bind by position, so they lack nothing here.
    */
  def missingRequired(spec: ScanSpec, fileSchema: StructType): Seq[Int] =
    if (!options.boolean("header", default = false)) Nil
    else {
      val present = fileSchema.fieldNames.map(_.toLowerCase(Locale.ROOT)).toSet
      spec.sources.indices.filter { i =>
        val f = spec.outputSchema.fields(i)
        spec.sources(i).isInstanceOf[ColumnSource.Loader] && !f.nullable &&
        !present.contains(
          spec.readerSchema
            .fields(spec.sources(i).asInstanceOf[ColumnSource.Loader].index)
            .name
            .toLowerCase(Locale.ROOT)
        )
      }
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
}

object TablePlan {
  val MetadataKey = "__metadata_col"

  /** Lists and discovers the files of `paths` and resolves their schema. */
  def open(
      paths: Seq[String],
      options: ReaderOptions,
      definedSchema: Option[StructType],
      conf: Configuration,
      zone: ZoneId,
      discoverAll: SchemaDiscovery.Many = SchemaDiscovery.locally,
      parsers: Seq[ColumnParser] = Nil
  ): TablePlan = {
    require(paths.nonEmpty, "spark-drill: no path given: use load(path) or the option 'path'")
    val files = FileLister.list(paths, conf, options, zone)
    if (files.isEmpty)
      throw new IllegalArgumentException(s"spark-drill: no readable files under ${paths.mkString(", ")}")
    // Discovery runs under a defined schema too: splits past a file's header need the header's order.
    val fileSchemas = discoverAll(files, options, conf)
    val (columns, reports) = mergeTable(options, files, fileSchemas, definedSchema)
    new TablePlan(paths, options, files, fileSchemas, columns, definedSchema, reports, parsers)
  }

  /** The table columns of `*`, by the scan schema tracker's merge (SPEC 5): provided columns first (only
    * those with strictSchema=true), then the files' columns in first-seen order, types widened across files,
    * `schemaMode` and `typeConflict` applied; headerless text binds a provided schema by position, else it
    * has `columns`. A NOT NULL column's default travels in its metadata for the readers' converters. Also
    * returns the tracker's per-file report (for `describe`).
    */
  def mergeTable(
      options: ReaderOptions,
      files: Seq[ScanFile],
      fileSchemas: Seq[StructType],
      definedSchema: Option[StructType]
  ): (StructType, Seq[FileReport]) = {
    // Only headerless text binds a schema by position; JSON names every field.
    val allNamed = files.nonEmpty && files.forall(f => FormatRegistry.named(f.format).discoversFromData)
    val config = ScanConfig.fromOptions(options, definedSchema) match {
      case c if allNamed => c.copy(header = true)
      case c => c
    }
    val header = options.boolean("header", default = false)
    val inferTypes = options.boolean("inferTypes", default = false)
    val discovered = files.zip(fileSchemas).map { case (f, schema) =>
      val fromData = FormatRegistry.named(f.format).discoversFromData
      // Headerless text reports the `columns` array, which a provided schema replaces by position.
      val own = if (!fromData && !header && config.positional) new StructType() else schema
      FileSchema(
        FileInfo(f.displayPath, f.dirs.toSeq, f.length, f.modificationTime),
        own,
        if (fromData || inferTypes) Discovery.Sampled else Discovery.HeaderOnly
      )
    }
    val hiveKeys =
      if (config.partitionStyle == PartitionStyle.Hive)
        files.flatMap(_.hiveKeys).map(_.toLowerCase(Locale.ROOT)).toSet
      else Set.empty[String]
    val merged = TableMerger.merge(config, discovered, hiveKeys)
    val base = StructType(merged.columns.map { c =>
      val metadata = new MetadataBuilder()
      c.fill match {
        case Fill.Default(literal) if !c.nullable =>
          metadata.putString(ColumnMetadata.DefaultKey, literal.toString)
        case _ => ()
      }
      StructField(c.name, c.dataType, c.nullable, metadata.build())
    })
    // The corrupt-record and rescued-data columns, when asked for, are string columns after the data.
    val columns = Seq("columnNameOfCorruptRecord", "rescuedDataColumn").flatMap(options.get).foldLeft(base) {
      (schema, c) =>
        if (schema.fieldNames.exists(_.equalsIgnoreCase(c))) schema
        else schema.add(StructField(c, StringType))
    }
    (columns, merged.reports)
  }

}
