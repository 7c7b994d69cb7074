"""`sd.read_stream`: a stream of the files that keep arriving under a path (SPEC 11), with spark-drill's
options as typed keywords. It only sets reader options on `spark.readStream`, so it also works under Spark
Connect."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.types import StructType

from spark_drill._errors import install_error_conversion
from spark_drill._options import (
    BY_SNAKE,
    ColumnList,
    Duration,
    MemoryMode,
    Mode,
    PartitionStyle,
    ProvidedSchema,
    SchemaEvolutionMode,
    SchemaMode,
    Size,
    Timestamp,
    TypeConflict,
    Validate,
    check_keywords,
    jvm_options,
)
from spark_drill._session import FORMAT


@check_keywords
def read_stream(
    spark: SparkSession,
    path: str | os.PathLike[str],
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
    schema_location: str | None = None,
    include_existing_files: bool | None = None,
    min_file_age: Duration | None = None,
    max_files_per_trigger: int | None = None,
    max_bytes_per_trigger: Size | None = None,
    include_columns: ColumnList | None = None,
    schema_evolution_mode: SchemaEvolutionMode | None = None,
    schema: StructType | str | None = None,
    column_formats: Mapping[str, str] | None = None,
    options: Mapping[str, str] | None = None,
) -> DataFrame:
    """A streaming DataFrame of the files under `path`: `spark.readStream.format("drill")` with typed options.

    Takes every keyword of `sd.read` (see ``help(sd.read)``) and the streaming ones below; None (the default)
    leaves an option to the reader's own default. The stream's schema is fixed here (a defined `schema`,
    else the newest version in `schema_location`, else discovery of the files present, stored there).
    docs/streaming.md tells the rest: admission, exactly once, new columns.

    Parameters
    ----------
    spark : SparkSession
        A classic session or a Spark Connect session whose server has the spark-drill jar.
    path : str or os.PathLike
        One directory (or glob) the files arrive under.
    schema_location : str
        A directory (any Hadoop file system) holding the stream's schema versions; required unless `schema`
        is given. One per input path.
    include_existing_files : bool
        Read the files already there at the query's first start (default True).
    min_file_age : str or timedelta
        Hold a file back until it is this old (``"30s"``, ``"5m"``; a timedelta is sent as ``"90s"``;
        default ``"0s"``).
    max_files_per_trigger : int
        At most this many files per micro-batch (default 1000).
    max_bytes_per_trigger : str or int
        At most this many bytes per micro-batch (``"10g"``, ``"512m"``, or an int of bytes; default
        ``"10g"``); a micro-batch takes at least one file.
    include_columns : str or Sequence[str]
        Hidden columns to add as ordinary columns at the end (``"filename,lmt,_line"`` or a list).
    schema_evolution_mode : {"addNewColumns", "rescue", "none", "failOnNewColumns", \
"addNewColumnsWithTypeWidening"}
        What files bringing new columns do (default ``addNewColumns``, ``none`` with a defined schema).
    schema : StructType or str
        A defined schema, as for `sd.read`.
    column_formats, options : Mapping[str, str]
        As for `sd.read`; a key of `options` naming a batch-only option fails.

    Returns
    -------
    DataFrame
        A streaming DataFrame (``df.isStreaming``); start it with ``df.writeStream``.

    Raises
    ------
    TypeError
        An unknown keyword (naming the nearest valid one) or a value of the wrong type.
    ValueError
        A value outside an option's choices.

    Examples
    --------
    >>> import tempfile
    >>> import spark_drill as sd
    >>> schemas = tempfile.mkdtemp()
    >>> stream = sd.read_stream(spark, "samples/logs", header=True, schema_location=schemas)
    >>> stream.isStreaming
    True
    >>> stream.columns
    ['id', 'user', 'action', 'duration_ms', 'country', 'dir0', 'dir1']

    A batch read refuses the streaming keywords, naming them:

    >>> sd.read(spark, "samples/logs", max_files_per_trigger=10)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: read() got an unexpected keyword argument 'max_files_per_trigger': max_files_per_trigger is \
a streaming-only option: ...
    """
    given = {name: value for name, value in locals().items() if name in BY_SNAKE}
    opts = jvm_options(given, column_formats, options, read="stream")
    install_error_conversion(spark)
    reader: Any = spark.readStream.format(FORMAT)
    if schema is not None:
        reader = reader.schema(schema)
    df: DataFrame = reader.options(**opts).load(os.fspath(path))
    return df
