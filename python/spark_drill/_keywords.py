"""The typed keywords of spark-drill's readers, listed once: `SharedKeywords`, `BatchKeywords` and
`StreamKeywords`, which `sd.read`, `sd.describe` and `sd.read_stream` take as `**keywords: Unpack[...]` (what
IDEs and mypy see), the value types they name, and `Option`, a row of the table `_options` makes from them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NamedTuple, TypedDict

from pyspark.sql.types import StructType

Mode = Literal["PERMISSIVE", "DROPMALFORMED", "FAILFAST"]
SchemaMode = Literal["evolve", "strict", "fail"]
TypeConflict = Literal["widen", "fail"]
PartitionStyle = Literal["drill", "hive"]
Validate = Literal["projected", "all"]
LogPattern = Literal["common", "combined"]
MemoryMode = Literal["offHeap", "onHeap"]
SchemaEvolutionMode = Literal[
    "addNewColumns", "rescue", "none", "failOnNewColumns", "addNewColumnsWithTypeWidening"
]
FileEvents = Literal["off", "sqs"]
CleanSource = Literal["off", "archive", "delete"]
RescuedDataType = Literal["string", "variant"]
# A naive datetime is a wall-clock time in the session time zone; text as `2024-01-31T12:00:00`.
Timestamp = str | dt.datetime
# A DDL string (`"id INT NOT NULL DEFAULT -1, day DATE"`), {column: type} or a StructType.
ProvidedSchema = str | Mapping[str, str] | StructType
# Text the JVM parses (`0s`, `30s`, `5m`, `1h`) or a timedelta (sent as whole seconds, `90s`, else `1500ms`).
Duration = str | dt.timedelta
# Text the JVM parses (`10g`, `512m`, `1024`) or a number of bytes.
Size = str | int
# `"filename,lmt,_line"` or `["filename", "lmt", "_line"]`.
ColumnList = str | Sequence[str]

# Which reads take an option: "both", "batch" only (spark.read) or "stream" only (spark.readStream).
Scope = Literal["both", "batch", "stream"]
ReadKind = Literal["batch", "stream"]


class Option(NamedTuple):
    snake: str  # the keyword of sd.read / sd.read_stream
    jvm: str  # the name spark.read.format("drill").option() takes
    type: Any  # the Python type: bool, int, str, a Literal, Timestamp, ProvidedSchema, Duration, Size, ...
    scope: Scope = "both"


# The typed keywords: the one table that `sd.read`, `sd.describe` and `sd.read_stream` take with
# `**keywords: Unpack[...]` (what mypy checks and IDEs show), and that OPTIONS is made from. None leaves an
# option to the reader's default. A keyword's JVM name is its camelCase.


class SharedKeywords(TypedDict, total=False):
    """The options both a batch read and a stream take."""

    # files
    format: str | None  # csv, tsv, psv, json, or a format a plugin registers (docs/formats.md)
    path_glob_filter: str | None
    modified_before: Timestamp | None
    modified_after: Timestamp | None
    ignore_missing_files: bool | None
    ignore_corrupt_files: bool | None
    recursive_file_lookup: bool | None
    multi_line: bool | None
    discovery_parallelism: int | None
    schema_cache: str | None  # a directory on any Hadoop file system
    session_schema_cache: bool | None
    # text
    header: bool | None
    delimiter: str | None
    quote: str | None
    escape: str | None
    comment: str | None
    line_delimiter: str | None
    skip_first_line: bool | None
    null_value: str | None
    empty_value: str | None
    date_format: str | None
    timestamp_format: str | None
    time_zone: str | None
    # schema
    provided_schema: ProvidedSchema | None
    strict_schema: bool | None
    schema_mode: SchemaMode | None
    type_conflict: TypeConflict | None
    project: str | None
    partition_label: str | None
    partition_columns: bool | None
    partition_style: PartitionStyle | None
    filename_label: str | None
    filepath_label: str | None
    fqn_label: str | None
    suffix_label: str | None
    lmt_label: str | None
    infer_types: bool | None
    sample_rows: int | None
    map_inference_threshold: int | None
    max_schema_fields: int | None
    single_variant_column: str | None  # Spark 4: each record one VARIANT in this column (SPEC 14)
    # bad input
    mode: Mode | None
    column_name_of_corrupt_record: str | None
    rescued_data_column: str | None
    rescued_data_type: RescuedDataType | None  # "variant" (Spark 4): the rescued-data column as a VARIANT
    max_record_text_bytes: int | None
    validate: Validate | None
    # batches
    batch_rows: int | None
    batch_bytes: int | None
    memory_mode: MemoryMode | None
    # JSON
    all_text_mode: bool | None
    read_numbers_as_double: bool | None
    max_record_bytes: int | None
    # log (SPEC 12)
    regex: str | None  # a Java regular expression whose named groups are the columns
    log_pattern: LogPattern | None
    # excel (SPEC 13)
    sheet: str | None  # a sheet's name, a glob over names ("2024-*"), or "*"
    data_address: str | None  # "'Sheet name'!B3:H200", "B3:H", "B3"
    max_workbook_bytes: int | None  # an .xls workbook (read whole) larger than this fails the read


class BatchKeywords(SharedKeywords, total=False):
    """The options of a batch read (`sd.read`, `sd.describe`): the shared ones (and any batch-only one)."""


class StreamKeywords(SharedKeywords, total=False):
    """The options of a stream (`sd.read_stream`, SPEC 11): the shared ones and the streaming ones."""

    schema_location: str | None  # a directory on any Hadoop file system
    include_existing_files: bool | None
    min_file_age: Duration | None
    max_files_per_trigger: int | None
    max_bytes_per_trigger: Size | None
    include_columns: ColumnList | None
    schema_evolution_mode: SchemaEvolutionMode | None
    list_changed_directories_only: bool | None
    # object stores (SPEC 11.1)
    file_events: FileEvents | None
    queue_url: str | None
    queue_region: str | None
    queue_endpoint: str | None
    queue_visibility_timeout: Duration | None
    backfill_interval: Duration | None
    allow_overwrites: bool | None
    clean_source: CleanSource | None
    clean_source_archive_dir: str | None  # a directory on any Hadoop file system, not under the input
    clean_source_retention: Duration | None
