"""`sd.describe`: what each file says about each column."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from pyspark.sql import DataFrame, SparkSession

from spark_drill._errors import install_error_conversion
from spark_drill._options import BatchKeywords, check_keywords, jvm_options
from spark_drill._reader import PathArg, paths_of

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11; annotations are not evaluated at run time (3.10)

# The data source of the report (sparkdrill.spark.DescribeSource).
DESCRIBE_FORMAT = "drill-describe"


@check_keywords(BatchKeywords)
def describe(
    spark: SparkSession,
    path: PathArg,
    *,
    column_formats: Mapping[str, str] | None = None,
    options: Mapping[str, str] | None = None,
    **keywords: Unpack[BatchKeywords],
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
    **keywords
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
    opts = jvm_options(keywords, column_formats, options)
    install_error_conversion(spark)
    # Only reader options: the same call serves a classic session and a Spark Connect client.
    df: DataFrame = spark.read.format(DESCRIBE_FORMAT).options(**opts).load(paths_of(path))
    return df
