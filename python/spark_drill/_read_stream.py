"""`sd.read_stream`: a stream of the files that keep arriving under a path (SPEC 11), with spark-drill's
options as typed keywords. It only sets reader options on `spark.readStream`, so it also works under Spark
Connect."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.types import StructType

from spark_drill._errors import install_error_conversion
from spark_drill._options import StreamKeywords, check_keywords, jvm_options
from spark_drill._session import FORMAT

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11; annotations are not evaluated at run time (3.10)


@check_keywords(StreamKeywords)
def read_stream(
    spark: SparkSession,
    path: str | os.PathLike[str],
    *,
    schema: StructType | str | None = None,
    column_formats: Mapping[str, str] | None = None,
    options: Mapping[str, str] | None = None,
    **keywords: Unpack[StreamKeywords],
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
    list_changed_directories_only : bool
        A trigger lists again only the directories whose modification time changed (default False;
        docs/streaming.md says when to trust it).
    clean_source : {"off", "archive", "delete"}
        What becomes of a file once the micro-batch that read it has committed and `clean_source_retention`
        has passed (default ``off``; SPEC 11.1, docs/streaming.md).
    clean_source_archive_dir : str
        Where ``clean_source="archive"`` moves files, keeping their path under the input (required with it;
        not under the input).
    clean_source_retention : str or timedelta
        How long after its micro-batch committed a file is archived or deleted (``"7d"``; default ``"30d"``).
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
    opts = jvm_options(keywords, column_formats, options, read="stream")
    install_error_conversion(spark)
    reader: Any = spark.readStream.format(FORMAT)
    if schema is not None:
        reader = reader.schema(schema)
    df: DataFrame = reader.options(**opts).load(os.fspath(path))
    return df
