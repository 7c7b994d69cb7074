"""`sd.describe`: what each file says about each column."""

from __future__ import annotations

from collections.abc import Mapping

from pyspark.sql import DataFrame, SparkSession

from spark_drill._errors import install_error_conversion
from spark_drill._options import (
    BY_SNAKE,
    MemoryMode,
    Mode,
    PartitionStyle,
    ProvidedSchema,
    SchemaMode,
    Timestamp,
    TypeConflict,
    Validate,
    check_keywords,
    jvm_options,
)
from spark_drill._reader import PathArg, paths_of

# The data source of the report (sparkdrill.spark.DescribeSource).
DESCRIBE_FORMAT = "drill-describe"


@check_keywords
def describe(
    spark: SparkSession,
    path: PathArg,
    *,
    format: str | None = None,
    path_glob_filter: str | None = None,
    modified_before: Timestamp | None = None,
    modified_after: Timestamp | None = None,
    ignore_missing_files: bool | None = None,
    ignore_corrupt_files: bool | None = None,
    recursive_file_lookup: bool | None = None,
    multi_line: bool | None = None,
    discovery_parallelism: int | None = None,
    schema_cache: str | None = None,
    session_schema_cache: bool | None = None,
    header: bool | None = None,
    delimiter: str | None = None,
    quote: str | None = None,
    escape: str | None = None,
    comment: str | None = None,
    line_delimiter: str | None = None,
    skip_first_line: bool | None = None,
    null_value: str | None = None,
    empty_value: str | None = None,
    date_format: str | None = None,
    timestamp_format: str | None = None,
    time_zone: str | None = None,
    provided_schema: ProvidedSchema | None = None,
    strict_schema: bool | None = None,
    schema_mode: SchemaMode | None = None,
    type_conflict: TypeConflict | None = None,
    project: str | None = None,
    partition_label: str | None = None,
    partition_columns: bool | None = None,
    partition_style: PartitionStyle | None = None,
    filename_label: str | None = None,
    filepath_label: str | None = None,
    fqn_label: str | None = None,
    suffix_label: str | None = None,
    lmt_label: str | None = None,
    infer_types: bool | None = None,
    sample_rows: int | None = None,
    map_inference_threshold: int | None = None,
    max_schema_fields: int | None = None,
    mode: Mode | None = None,
    column_name_of_corrupt_record: str | None = None,
    rescued_data_column: str | None = None,
    max_record_text_bytes: int | None = None,
    validate: Validate | None = None,
    batch_rows: int | None = None,
    batch_bytes: int | None = None,
    memory_mode: MemoryMode | None = None,
    all_text_mode: bool | None = None,
    read_numbers_as_double: bool | None = None,
    max_record_bytes: int | None = None,
    column_formats: Mapping[str, str] | None = None,
    options: Mapping[str, str] | None = None,
) -> DataFrame:
    """One row per file and column: what discovery found there. Takes the options of `sd.read` (but no
    defined schema), so it describes the table that `sd.read` with the same keywords reads.

    Columns: `file`, `column`, `file_type` (the type in that file), `table_type` (the column's type in the
    table), `seen_in` (``header`` or ``sample``), `first_file` (the file that first brought the column),
    `conflict` (how the file's type was widened, or why the column left the table; else null) and
    `map_inference` (the members of the column that are maps because their objects hold more distinct keys
    than `map_inference_threshold`, with the threshold; else null).

    Parameters
    ----------
    spark : SparkSession
        A classic session or a Spark Connect client.
    path : str, os.PathLike or a sequence of them
        Files, directories or Hadoop globs, as for `sd.read`.
    **options
        The keywords of `sd.read` (`header`, `infer_types`, `provided_schema`, ...; see ``help(sd.read)``).

    Returns
    -------
    DataFrame

    Raises
    ------
    TypeError
        An unknown keyword (naming the nearest valid one) or a value of the wrong type.

    Examples
    --------
    >>> import spark_drill as sd
    >>> report = sd.describe(spark, "samples/logs", header=True)
    >>> rows = report.where("column = 'duration_ms'").collect()
    >>> [(r.file.split("samples/logs/")[-1], r.file_type, r.table_type, r.seen_in) for r in rows]
    [('2024/02/events.csv', 'string', 'string', 'header')]

    With `infer_types`, each file's sample types its columns:

    >>> typed = sd.describe(spark, "samples/logs", header=True, infer_types=True)
    >>> ids = typed.where("column = 'id'").orderBy("file").collect()
    >>> [(r.file.split("logs/")[-1], r.file_type, r.seen_in) for r in ids]  # doctest: +NORMALIZE_WHITESPACE
    [('2024/01/events.csv', 'int', 'sample'), ('2024/02/events.csv', 'int', 'sample'),
     ('2025/events.csv', 'int', 'sample'), ('events.csv', 'int', 'sample')]
    """
    given = {name: value for name, value in locals().items() if name in BY_SNAKE}
    opts = jvm_options(given, column_formats, options)
    install_error_conversion(spark)
    # Only reader options: the same call serves a classic session and a Spark Connect client.
    df: DataFrame = spark.read.format(DESCRIBE_FORMAT).options(**opts).load(paths_of(path))
    return df
