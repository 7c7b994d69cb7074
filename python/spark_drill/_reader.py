"""`sd.read`: spark-drill's options as typed keywords. It only sets reader options, so it also works under
Spark Connect."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.types import StructType

from spark_drill._errors import install_error_conversion
from spark_drill._options import BatchKeywords, check_keywords, jvm_options
from spark_drill._session import FORMAT

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11; annotations are not evaluated at run time (3.10)

PathArg = str | os.PathLike[str] | Sequence[str | os.PathLike[str]]


def paths_of(path: PathArg) -> list[str]:
    """One path or several, as the strings Spark's `load` takes."""
    if isinstance(path, (str, os.PathLike)):
        return [os.fspath(path)]
    return [os.fspath(p) for p in path]


def load(
    spark: SparkSession, path: PathArg, schema: StructType | str | None, opts: Mapping[str, str]
) -> DataFrame:
    """`spark.read.format("drill")` with `opts`, and a defined schema when given."""
    install_error_conversion(spark)
    reader: Any = spark.read.format(FORMAT)
    if schema is not None:
        reader = reader.schema(schema)
    reader = reader.options(**opts)
    paths = paths_of(path)
    df: DataFrame = reader.load(paths[0] if len(paths) == 1 else paths)
    return df


@check_keywords(BatchKeywords)
def read(
    spark: SparkSession,
    path: PathArg,
    *,
    schema: StructType | str | None = None,
    column_formats: Mapping[str, str] | None = None,
    options: Mapping[str, str] | None = None,
    **keywords: Unpack[BatchKeywords],
) -> DataFrame:
    """Reads files with spark-drill: `spark.read.format("drill")` with typed options.

    Every option is keyword-only; None (the default) leaves it to the reader's own default. docs/options.md
    tells what each does; the JVM name of `snake_case` is `snakeCase`.

    Parameters
    ----------
    spark : SparkSession
        A classic session from `sd.session()` / `sd.configure(builder)`, or a Spark Connect session whose
        server has the spark-drill jar.
    path : str, os.PathLike or a sequence of them
        Files, directories (read recursively) or Hadoop globs.
    format : str
        Read every file in this format (``csv``, ``tsv``, ``psv``, ``json``, or one a format plugin
        registers); default: by each file's suffix (files with other suffixes are skipped).
    path_glob_filter : str
        Only files whose name matches this glob.
    modified_before, modified_after : datetime or str
        Only files modified before/after this time (naive: in the session time zone;
        text as ``2024-01-31T12:00:00``).
    ignore_missing_files : bool
        Skip a path that does not exist (or a file deleted since planning) instead of failing.
    ignore_corrupt_files : bool
        Leave out a file that cannot be read (corrupt or truncated compression); one that breaks while read
        keeps the rows read so far.
    recursive_file_lookup : bool
        Spark's option: directories are always read recursively, so only True is accepted.
    multi_line : bool
        Read each text file whole, without byte-range splits.
    discovery_parallelism : int
        From this many files on, discovery runs in parallel (default 32): local files on a few driver
        threads, files on other file systems as a Spark job.
    schema_cache : str
        A directory (``file:/tmp/cache``, ``s3a://bucket/cache``, any Hadoop file system) that keeps each
        file's discovered schema, so later sessions discover only new or changed files.
    session_schema_cache : bool
        False: this read neither uses nor fills the driver's in-memory cache of each file's schema
        (default True).
    header : bool
        The first non-blank line of each text file names its columns (default False: one `columns`
        array column).
    delimiter, quote, escape, comment : str
        One character each; ``quote=""`` turns quoting off; no comment character by default.
    line_delimiter : str
        One or two characters; default: ``\\n``, ``\\r\\n`` or ``\\r``.
    skip_first_line : bool
        Drop each file's first line (before the header).
    null_value, empty_value : str
        A field equal to `null_value` is null; an empty quoted field becomes `empty_value`.
    date_format, timestamp_format : str
        `java.time` patterns for date and timestamp columns (`column_formats` for one column).
    time_zone : str
        Zone of timestamps written without one (default: the session's).
    provided_schema : str, Mapping[str, str] or StructType
        Types for the columns it names (DDL with ``NOT NULL`` and ``DEFAULT``); others are still discovered.
    strict_schema : bool
        Only the provided columns.
    schema_mode : {"evolve", "strict", "fail"}
        Union of all files (default), the first file's columns, or fail when files differ.
    type_conflict : {"widen", "fail"}
        Widen conflicting types (default) or fail naming column, types and files.
    project : str
        A Drill projection list instead of ``*``: ``"a, m.b, columns[2], filename, dir0"``.
    partition_label : str
        Prefix of the partition columns (default ``dir``: ``dir0``, ``dir1``, ...).
    partition_columns : bool
        False leaves partition columns out of ``*`` (still selectable by name).
    partition_style : {"drill", "hive"}
        ``hive``: directories named ``key=value`` give a column ``key``.
    filename_label, filepath_label, fqn_label, suffix_label, lmt_label : str
        Names of the hidden file columns.
    infer_types : bool
        Type text columns from a sample (boolean, int, bigint, double, date, timestamp).
    sample_rows : int
        Records per file that discovery reads (default 1000, -1 for all).
    map_inference_threshold : int
        JSON: an object column whose objects hold more distinct keys than this (across the files' samples)
        is a ``map<string, T>`` (default 200; -1 never): objects whose keys are data (ids, dates, names).
    max_schema_fields : int
        A discovered schema of more leaf fields fails, naming its widest member (default 10,000).
    single_variant_column : str
        Spark 4: each record is one VARIANT in this column (JSON: the record; text and log: an object of
        its named fields), beside the partition and hidden columns; nothing is discovered.
    mode : {"PERMISSIVE", "DROPMALFORMED", "FAILFAST"}
        What a malformed record does: nulls (default), dropped, or the query fails.
    column_name_of_corrupt_record : str
        Adds a string column holding a malformed record's text.
    rescued_data_column : str
        Adds a string column holding values no column has, as JSON.
    rescued_data_type : {"string", "variant"}
        ``variant`` (Spark 4): the rescued-data column is a VARIANT object instead of JSON text.
    max_record_text_bytes : int
        At most this many bytes of a record's text go into those two columns (default 1 MiB); longer text
        is cut, with a note of how much.
    validate : {"projected", "all"}
        Convert only the columns a query reads (default) or all of them.
    batch_rows : int
        Rows per batch (default 4096).
    batch_bytes : int
        Bytes per column vector in a batch (default 16 MiB).
    memory_mode : {"offHeap", "onHeap"}
        Where the column vectors live (default off-heap).
    all_text_mode : bool
        JSON: every scalar is a string holding the token's text.
    read_numbers_as_double : bool
        JSON: every number is a double.
    max_record_bytes : int
        JSON: a larger record fails the read in every mode (default 128 MiB).
    sheet : str
        Excel: the sheets read, a name, a glob over names (``"2024-*"``) or ``"*"`` (default the first).
    data_address : str
        Excel: the range read, ``"'Sheet name'!B3:H200"``, ``"B3:H"`` (to the last row) or ``"B3"``.
    max_workbook_bytes : int
        Excel: a larger ``.xls`` workbook (read whole) fails the read in every mode (default 256 MiB);
        ``.xlsx`` sheets are streamed.
    schema : StructType or str
        A defined schema: exactly the columns of ``*``, values converted to it.
    column_formats : Mapping[str, str]
        A date/timestamp pattern per column (options ``format.<column>``).
    options : Mapping[str, str]
        Hadoop settings for this read (keys starting ``fs.``, ``hadoop.``, ``dfs.``, ``mapreduce.``,
        ``io.``); any other key must be an option's name and is checked like a keyword.

    Returns
    -------
    DataFrame

    Raises
    ------
    TypeError
        An unknown keyword (naming the nearest valid one) or a value of the wrong type.
    ValueError
        A value outside an option's choices.

    Examples
    --------
    A tree of CSV files whose headers differ, typed from a sample:

    >>> import spark_drill as sd
    >>> df = sd.read(spark, "samples/logs", header=True, infer_types=True)
    >>> df.columns
    ['id', 'user', 'action', 'duration_ms', 'country', 'dir0', 'dir1']
    >>> [(f.name, f.dataType.simpleString()) for f in df.schema.fields][:4]
    [('id', 'int'), ('user', 'string'), ('action', 'string'), ('duration_ms', 'int')]
    >>> [(r.id, r.user, r.duration_ms) for r in df.where("dir0 = '2024'").orderBy("id").collect()]
    [(1, 'ann', None), (2, 'bob', None), (3, 'ann', 120), (4, 'cy', 35)]

    Hidden file columns are selected by name:

    >>> df.where("user = 'dee'").select("user", "filename", "dir0").collect()
    [Row(user='dee', filename='events.csv', dir0='2025')]

    A provided schema types the columns it names; they come first:

    >>> typed = sd.read(spark, "samples/logs", header=True, provided_schema={"duration_ms": "bigint"})
    >>> typed.columns
    ['duration_ms', 'id', 'user', 'action', 'country', 'dir0', 'dir1']
    >>> typed.schema["duration_ms"].dataType.simpleString()
    'bigint'

    JSON files, every number a double:

    >>> events = sd.read(spark, "samples/events", read_numbers_as_double=True)
    >>> [r.id for r in events.orderBy("id").collect()]
    [1.0, 2.0, 3.0]

    A misspelt keyword names the nearest one:

    >>> sd.read(spark, "samples/logs", infer_typs=True)
    Traceback (most recent call last):
    ...
    TypeError: read() got an unexpected keyword argument 'infer_typs'; did you mean infer_types?
    """
    return load(spark, path, schema, jvm_options(keywords, column_formats, options))
