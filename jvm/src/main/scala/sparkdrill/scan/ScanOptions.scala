package sparkdrill.scan

import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets
import java.security.MessageDigest
import java.util.Locale

import sparkdrill.loader.LoaderOptions
import sparkdrill.reader.{CommonOptions, FormatPlugin, OptionCatalog, OptionKind, OptionSpec, ReaderOptions}
import sparkdrill.reader.OptionKind._
import sparkdrill.scan.schema.TypeConflictMode

/** The scan's own options (docs/options.md: files, schema, partitions, batches). With [[CommonOptions]] and
  * each registered format's options they make the one option table, [[ScanOptions.catalog]].
  */
private[sparkdrill] object ScanOptions {
  val Format: OptionSpec[String] = OptionSpec.optional(
    "format",
    Text,
    "read every file in this format (csv, tsv, psv, json, ...) instead of choosing by file suffix"
  )
  val PathGlobFilter: OptionSpec[String] =
    OptionSpec.optional("pathGlobFilter", Text, "only files whose name matches this glob")
  val ModifiedBefore: OptionSpec[String] =
    OptionSpec.optional("modifiedBefore", Timestamp, "only files modified before this time (session zone)")
  val ModifiedAfter: OptionSpec[String] =
    OptionSpec.optional("modifiedAfter", Timestamp, "only files modified after this time (session zone)")
  val IgnoreMissingFiles: OptionSpec[Boolean] =
    OptionSpec("ignoreMissingFiles", Bool, false, "a path that does not exist is skipped instead of failing")
  val IgnoreCorruptFiles: OptionSpec[Boolean] = OptionSpec(
    "ignoreCorruptFiles",
    Bool,
    false,
    "a file that cannot be read (corrupt or truncated compression) is left out, or its rest skipped"
  )
  val RecursiveFileLookup: OptionSpec[Boolean] = OptionSpec(
    "recursiveFileLookup",
    Bool,
    true,
    "directories are always read recursively (Spark's option; false is refused)"
  )
  val DiscoveryParallelism: OptionSpec[Int] = OptionSpec(
    "discoveryParallelism",
    Int32,
    32,
    "from this many files on, discovery (headers, samples) runs in parallel: local files on a few driver threads, others as a Spark job"
  )
  val SchemaCache: OptionSpec[String] = OptionSpec.optional(
    "schemaCache",
    Text,
    "a directory (any Hadoop file system) that keeps each file's discovered schema for later sessions"
  )
  val SessionSchemaCache: OptionSpec[Boolean] = OptionSpec(
    "sessionSchemaCache",
    Bool,
    true,
    "false: discovery neither uses nor fills the driver's in-memory cache of each file's schema"
  )
  val ProvidedSchema: OptionSpec[String] = OptionSpec.optional(
    "providedSchema",
    Ddl,
    "DDL typing some columns (NOT NULL, DEFAULT <literal>); the others are discovered"
  )
  val StrictSchema: OptionSpec[Boolean] =
    OptionSpec("strictSchema", Bool, false, "only the provided schema's columns")
  val SchemaMode: OptionSpec[schema.SchemaMode] = OptionSpec(
    "schemaMode",
    new Choice[schema.SchemaMode](
      Seq(
        "evolve" -> schema.SchemaMode.Evolve,
        "strict" -> schema.SchemaMode.Strict,
        "fail" -> schema.SchemaMode.Fail
      )
    ),
    schema.SchemaMode.Evolve,
    "evolve: union of the files; strict: the first file's columns; fail: files must agree"
  )
  val TypeConflict: OptionSpec[TypeConflictMode] = OptionSpec(
    "typeConflict",
    new Choice[TypeConflictMode](Seq("widen" -> TypeConflictMode.Widen, "fail" -> TypeConflictMode.Fail)),
    TypeConflictMode.Widen,
    "fail: a type conflict between files is an error naming column, types and files"
  )
  val MaxSchemaFields: OptionSpec[Int] = OptionSpec(
    "maxSchemaFields",
    Int32,
    10000,
    "a discovered schema of more leaf fields fails, naming its widest member (see mapInferenceThreshold)"
  )
  val Project: OptionSpec[String] = OptionSpec.optional(
    "project",
    Text,
    "a Drill projection list: a, m.b, columns[2], filename, dir0, `odd name`"
  )
  val PartitionLabel: OptionSpec[String] =
    OptionSpec("partitionLabel", Text, "dir", "name prefix of the partition columns dir0, dir1, ...")
  val PartitionColumns: OptionSpec[Boolean] = OptionSpec(
    "partitionColumns",
    Bool,
    true,
    "false: partition columns leave * but stay selectable by name"
  )
  val PartitionStyle: OptionSpec[schema.PartitionStyle] = OptionSpec(
    "partitionStyle",
    new Choice[schema.PartitionStyle](
      Seq("drill" -> schema.PartitionStyle.Dirs, "hive" -> schema.PartitionStyle.Hive),
      Map("dir" -> "drill", "dirs" -> "drill")
    ),
    schema.PartitionStyle.Dirs,
    "drill: dir0, dir1, ...; hive: key=value directories give a column key"
  )
  val FilenameLabel: OptionSpec[String] =
    OptionSpec("filenameLabel", Text, "filename", "name of the hidden file-name column")
  val FilepathLabel: OptionSpec[String] =
    OptionSpec("filepathLabel", Text, "filepath", "name of the hidden directory column")
  val FqnLabel: OptionSpec[String] =
    OptionSpec("fqnLabel", Text, "fqn", "name of the hidden full-path column")
  val SuffixLabel: OptionSpec[String] =
    OptionSpec("suffixLabel", Text, "suffix", "name of the hidden file-suffix column")
  val LmtLabel: OptionSpec[String] =
    OptionSpec("lmtLabel", Text, "lmt", "name of the hidden last-modified column")
  val BatchRows: OptionSpec[Int] =
    OptionSpec("batchRows", Int32, LoaderOptions.DefaultBatchRows, "rows per batch")
  val BatchBytes: OptionSpec[Long] = OptionSpec(
    "batchBytes",
    Int64,
    LoaderOptions.DefaultBatchBytes,
    "bytes per vector; the row being written moves whole to the next batch"
  )
  val MemoryMode: OptionSpec[String] = OptionSpec(
    "memoryMode",
    Choice.words("offHeap", "onHeap"),
    "offHeap",
    "onHeap for clusters that cannot give executors memory overhead"
  )

  // Of the scan's own options, discovery reads only the format: it is in the discovery fingerprint.
  private val readByDiscovery: Seq[OptionSpec[_]] = Seq(Format)

  // The scan's options that choose files, resolve the table from the files' schemas, or shape execution:
  // discovering one file never reads them, so they stay out of the fingerprint, and tables that differ only
  // in them share cache entries. A new scan option goes in one of these two lists; the formats' options
  // and the shared reader options are all in the fingerprint.
  private val notReadByDiscovery: Seq[OptionSpec[_]] = Seq(
    PathGlobFilter,
    ModifiedBefore,
    ModifiedAfter,
    IgnoreMissingFiles,
    IgnoreCorruptFiles, // a file discovery cannot read is never cached
    RecursiveFileLookup,
    DiscoveryParallelism,
    SchemaCache,
    SessionSchemaCache,
    ProvidedSchema,
    StrictSchema,
    SchemaMode,
    TypeConflict,
    MaxSchemaFields,
    Project,
    PartitionLabel,
    PartitionColumns,
    PartitionStyle,
    FilenameLabel,
    FilepathLabel,
    FqnLabel,
    SuffixLabel,
    LmtLabel,
    BatchRows,
    BatchBytes,
    MemoryMode
  )

  val all: Seq[OptionSpec[_]] = readByDiscovery ++ notReadByDiscovery

  /** Spark's csv/json option names that mean nothing here, and why (SPEC 1: named in the error). */
  private val sparkOnly: Map[String, String] = {
    val utf8 = "spark-drill reads UTF-8 only"
    val whitespace = "fields keep their text; typed conversions trim it (docs/options.md)"
    val inference = "types come from inferTypes and sampleRows, or a providedSchema"
    val json = "spark-drill's JSON parser always accepts it (docs/options.md, JSON)"
    val write = "an option of Spark's writer; spark-drill only reads"
    Map(
      "encoding" -> utf8,
      "charset" -> utf8,
      "samplingRatio" -> "discovery reads the first sampleRows records of each file",
      "enforceSchema" -> "a header never overrides a schema: columns are matched by name",
      "ignoreLeadingWhiteSpace" -> whitespace,
      "ignoreTrailingWhiteSpace" -> whitespace,
      "positiveInf" -> "Infinity and Inf read as such in double columns",
      "negativeInf" -> "-Infinity and -Inf read as such in double columns",
      "nanValue" -> "NaN reads as such in double columns",
      "maxColumns" -> "a row may have any number of fields",
      "maxCharsPerColumn" -> "a field may have any length (a batch holds a row larger than batchBytes alone)",
      "unescapedQuoteHandling" -> "quotes inside unquoted fields are kept as text",
      "locale" -> "dates and numbers follow dateFormat/timestampFormat patterns",
      "preferDate" -> inference,
      "prefersDecimal" -> inference,
      "inferTimestamp" -> inference,
      "dropFieldIfAllNull" -> "a column null in every file is a string column",
      "mergeSchema" -> "files are always unioned by name (schemaMode)",
      "allowComments" -> json,
      "allowUnquotedFieldNames" -> json,
      "allowSingleQuotes" -> json,
      "allowNumericLeadingZeros" -> json,
      "allowBackslashEscapingAnyCharacter" -> json,
      "allowUnquotedControlChars" -> json,
      "allowNonNumericNumbers" -> json,
      "compression" -> "the codec comes from each file's suffix (.gz, .bz2, ...)",
      "timestampNTZFormat" -> "use providedSchema with a timestamp_ntz column and format.<column>",
      "enableDateTimeParsingFallback" -> "patterns are strict; ISO is the default",
      "escapeQuotes" -> write,
      "quoteAll" -> write,
      "charToEscapeQuoteEscaping" -> "escape+quote is a quote; escape+other keeps both (docs/options.md)",
      "wholetext" -> "an option of Spark's text source"
    )
  }

  /** Names Spark passes itself: the paths of `load()`. */
  private val internal = Set("path", "paths")

  /** The one option table: the scan's options, the shared reader options and the options of every format the
    * calling thread sees (a format from the user's jar included: [[FormatRegistry]]).
    */
  def catalog: OptionCatalog = FormatRegistry.current.catalog

  /** The option table with `plugins`' options (made once per class loader, by [[FormatRegistry]]). */
  def catalogOf(plugins: Seq[FormatPlugin]): OptionCatalog = new OptionCatalog(
    all ++ CommonOptions.all ++ plugins.flatMap(_.options),
    plugins.flatMap(_.prefixOptions).distinct,
    sparkOnly,
    internal
  )

  /** Bump when discovery finds something else in the same file under the same options (a reader changed):
    * entries that older code put in a `schemaCache` directory then miss instead of being served.
    */
  // 2: a text line of only spaces and tabs is blank. 3: JSON objects of many keys are maps. 4: a JSON record
  // whose text is not well-formed (an overlong form, a surrogate or a code point past U+10FFFF in UTF-8, a lone
  // surrogate escape) is malformed, so the sample leaves it out (and FAILFAST discovery fails on it).
  private val DiscoveryVersion = "4"

  private lazy val notForDiscovery: Set[String] = notReadByDiscovery.map(_.key).toSet

  /** What, beyond a file's bytes, decides the schema discovery finds in it: a SHA-256 (hex) over the value
    * (set or default) of every option discovery may read, the `format.<column>` family, the Hadoop settings
    * that choose codecs (`io.*`), the discovery version and spark-drill's version. Two reads whose
    * fingerprints are equal find the same schema in the same file, so they may share cache entries.
    */
  def discoveryFingerprint(options: ReaderOptions): String = {
    val parts = Vector.newBuilder[(String, String)]
    catalog.options.filterNot(s => notForDiscovery(s.key)).foreach { spec =>
      options.get(spec).foreach(v => parts += spec.key -> spec.kind.asInstanceOf[OptionKind[Any]].show(v))
    }
    catalog.prefixes.foreach { p =>
      options.withPrefix(p).foreach { case (suffix, v) => parts += (p.key + suffix) -> v }
    }
    options.passThrough.foreach { case (k, v) =>
      if (k.toLowerCase(Locale.ROOT).startsWith("io.")) parts += k -> v
    }
    val version = "discovery version" -> s"$DiscoveryVersion/$implementationVersion"
    val digest = MessageDigest.getInstance("SHA-256")
    // Each string with its length first: no value can pass for a separator.
    (version +: parts.result().sortBy(_._1)).foreach { case (k, v) =>
      Seq(k, v).foreach { s =>
        val bytes = s.getBytes(StandardCharsets.UTF_8)
        digest.update(ByteBuffer.allocate(4).putInt(bytes.length).array())
        digest.update(bytes)
      }
    }
    digest.digest().map(b => f"${b & 0xff}%02x").mkString
  }

  // The jar's version (its manifest); classes outside a jar (tests) have none.
  private lazy val implementationVersion: String =
    Option(getClass.getPackage).flatMap(p => Option(p.getImplementationVersion)).getOrElse("dev")

  def loaderOptions(options: ReaderOptions): LoaderOptions = LoaderOptions(
    batchRows = options(BatchRows),
    batchBytes = options(BatchBytes),
    memoryMode =
      if (options(MemoryMode) == "onHeap") org.apache.spark.memory.MemoryMode.ON_HEAP
      else org.apache.spark.memory.MemoryMode.OFF_HEAP
  )
}
