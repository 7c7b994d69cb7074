package sparkdrill.errors

/** A condition: its class and the names of the parameters its errors may carry besides `reason` (an error
  * carries only those it knows: no line for an error of a whole file). docs/errors.md lists the same, and
  * `ErrorDocsSuite` checks that it does.
  */
final case class ErrorCondition(name: String, parameters: Seq[String])

/** The error classes: one per kind of error, each a condition a job or client may match on. Each is declared
  * once, with its parameters, so that the table [[ErrorClasses.all]] cannot miss one.
  */
object ErrorClasses {
  private val declared = Vector.newBuilder[ErrorCondition]

  private def condition(name: String, parameters: String*): String = {
    declared += ErrorCondition(name, parameters)
    name
  }

  // A bad input, found while a file is read (or sampled at discovery): a ScanException names the file.

  /** A record that cannot be parsed (broken JSON, a quoted field never closed, a broken header). */
  val MalformedRecord: String =
    condition("SPARK_DRILL_MALFORMED_RECORD", "file", "line", "offset", "value", "option")

  /** A value that does not convert to its column's type, in FAILFAST. */
  val UnconvertibleValue: String =
    condition("SPARK_DRILL_UNCONVERTIBLE_VALUE", "file", "line", "offset", "column", "value", "option")

  /** A record larger than the reader may hold (`maxRecordBytes`). */
  val RecordTooLarge: String =
    condition("SPARK_DRILL_RECORD_TOO_LARGE", "file", "line", "offset", "value", "option")

  /** A record runs across the place where the file was split for parallel reading. */
  val SplitBoundary: String = condition("SPARK_DRILL_SPLIT_BOUNDARY", "file", "offset", "option")

  /** A file listed at planning is gone when read. */
  val MissingFile: String = condition("SPARK_DRILL_MISSING_FILE", "file", "option")

  /** A file that cannot be read: corrupt or truncated compression, an I/O error. */
  val UnreadableFile: String = condition("SPARK_DRILL_UNREADABLE_FILE", "file")

  /** A Python column parser raised, answered with a value of another type, or named no Spark SQL type. */
  val ColumnParserFailed: String =
    condition("SPARK_DRILL_COLUMN_PARSER_FAILED", "parser", "file", "column", "value")

  /** A Python column parser did not answer within its timeout. */
  val ColumnParserTimeout: String = condition("SPARK_DRILL_COLUMN_PARSER_TIMEOUT", "parser", "seconds")

  /** A partition directory's value that does not convert to the type providedSchema gives its column. */
  val BadPartitionValue: String =
    condition("SPARK_DRILL_BAD_PARTITION_VALUE", "file", "column", "value", "option")

  // A bad request, found when the table is planned.

  /** An option name no format knows. */
  val UnknownOption: String = condition("SPARK_DRILL_UNKNOWN_OPTION", "option")

  /** An option of Spark's own readers with no counterpart here, or one given to the wrong kind of read. */
  val UnsupportedOption: String = condition("SPARK_DRILL_UNSUPPORTED_OPTION", "option", "value")

  /** An option's value that does not parse or is out of range, or two spellings of one option disagreeing. */
  val BadOptionValue: String = condition("SPARK_DRILL_BAD_OPTION_VALUE", "option", "value")

  /** No path: neither `load(path)` nor the option `path`. */
  val NoPath: String = condition("SPARK_DRILL_NO_PATH")

  /** A path (not a glob) that does not exist. */
  val PathNotFound: String = condition("SPARK_DRILL_PATH_NOT_FOUND", "path", "option")

  /** The paths hold no file any format reads. */
  val NoFiles: String = condition("SPARK_DRILL_NO_FILES", "path")

  /** Files whose schemas conflict (`typeConflict=fail`, `schemaMode=fail`) or a schema no table can have. */
  val SchemaConflict: String = condition("SPARK_DRILL_SCHEMA_CONFLICT")

  /** A projection list (the option `project`) that does not parse, or asks for one column two ways. */
  val ProjectionSyntax: String = condition("SPARK_DRILL_PROJECTION_SYNTAX", "option", "value", "position")

  /** A projection the table cannot serve (a member of a column that is not a struct, say). */
  val BadProjection: String = condition("SPARK_DRILL_BAD_PROJECTION", "column")

  /** Two format plugins with one name, or claiming one suffix. */
  val PluginConflict: String = condition("SPARK_DRILL_PLUGIN_CONFLICT", "format", "suffix", "plugins")

  /** A change asked of the `drill` catalog, which only reads. */
  val ReadOnlyCatalog: String = condition("SPARK_DRILL_READ_ONLY_CATALOG", "catalog")

  // A stream's own (docs/streaming.md): not ScanErrors in Python; sd.run_stream matches the first.

  /** The schema changed; the new version is in `schemaLocation`: build the DataFrame again and restart. */
  val StreamSchemaChanged: String = condition(
    "SPARK_DRILL_STREAM_SCHEMA_CHANGED",
    "file",
    "columns",
    "fromVersion",
    "toVersion",
    "location",
    "line"
  )

  /** `failOnNewColumns` (or a mode that does not evolve) met a column the schema lacks. */
  val StreamNewColumns: String =
    condition("SPARK_DRILL_STREAM_NEW_COLUMNS", "file", "columns", "mode", "line")

  /** The DataFrame was built on an older version than `schemaLocation` holds. */
  val StreamStaleSchema: String =
    condition("SPARK_DRILL_STREAM_STALE_SCHEMA", "builtOn", "newest", "location")

  /** A stream without `.schema(...)` and without `schemaLocation`. */
  val StreamNeedsSchemaLocation: String = condition("SPARK_DRILL_STREAM_NEEDS_SCHEMA_LOCATION")

  /** A stream reads one path; it was given none or several. */
  val StreamOnePath: String = condition("SPARK_DRILL_STREAM_ONE_PATH", "paths")

  /** No files yet to discover a new stream's schema from. */
  val StreamNoFiles: String = condition("SPARK_DRILL_STREAM_NO_FILES", "path", "location")

  /** A `schemaLocation` that holds the versions of another input path. */
  val StreamSchemaLocationOfAnotherPath: String =
    condition("SPARK_DRILL_STREAM_SCHEMA_LOCATION_OF_ANOTHER_PATH", "location", "ownerPath", "path")

  /** An evolving `schemaEvolutionMode` with a fixed column list (`project`). */
  val StreamEvolvesProjection: String = condition("SPARK_DRILL_STREAM_EVOLVES_PROJECTION", "mode")

  /** An evolving `schemaEvolutionMode` with a schema given by `.schema(...)`. */
  val StreamEvolvesDefinedSchema: String = condition("SPARK_DRILL_STREAM_EVOLVES_DEFINED_SCHEMA", "mode")

  /** `readStream.table(...)` of a `drill` catalog table given options that would change what the catalog
    * discovered (a format option, `includeColumns`): only the other streaming options apply there.
    */
  val StreamTableOptions: String = condition("SPARK_DRILL_STREAM_TABLE_OPTIONS", "table", "options")

  /** Another query wrote the schema version this one was about to write. */
  val StreamSchemaVersionTaken: String =
    condition("SPARK_DRILL_STREAM_SCHEMA_VERSION_TAKEN", "dir", "version")

  /** Another query holds (or took over) the stream's lease on its checkpoint. */
  val StreamLeaseHeld: String = condition("SPARK_DRILL_STREAM_LEASE_HELD", "lease", "holder")

  /** A path that holds no stream state (`drill-state`), or a checkpoint's offset another source wrote. */
  val StreamNoState: String = condition("SPARK_DRILL_STREAM_NO_STATE", "path")

  /** An offset in the checkpoint that is not a drill stream's (another source wrote the checkpoint). */
  val StreamBadOffset: String = condition("SPARK_DRILL_STREAM_BAD_OFFSET", "offset")

  /** A schema version in `schemaLocation` that is not readable JSON. */
  val StreamSchemaVersionUnreadable: String =
    condition("SPARK_DRILL_STREAM_SCHEMA_VERSION_UNREADABLE", "file")

  /** A stream's file events that cannot be set up (SPEC 11.1): a missing or malformed `queueUrl`, queue
    * options without `fileEvents`, an input not on S3, no SQS client on the classpath.
    */
  val StreamFileEvents: String = condition("SPARK_DRILL_STREAM_FILE_EVENTS", "options", "reason")

  /** `cleanSource=archive` without `cleanSourceArchiveDir`. */
  val StreamNeedsArchiveDir: String = condition("SPARK_DRILL_STREAM_NEEDS_ARCHIVE_DIR")

  /** `cleanSourceArchiveDir` under the stream's input (its archive would be read again) or its checkpoint. */
  val StreamArchiveDirInside: String =
    condition("SPARK_DRILL_STREAM_ARCHIVE_DIR_INSIDE", "archiveDir", "path", "of")

  /** Every class, in the order above. */
  val all: Seq[ErrorCondition] = declared.result()

  /** The prefix of every class; the stream's own have the longer one. */
  val Prefix = "SPARK_DRILL_"
  val StreamPrefix = "SPARK_DRILL_STREAM_"
}
