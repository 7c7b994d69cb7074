"""How the `spark-drill` command prints a DataFrame (Spark's table, JSON lines, or CSV with a header), and
makes one fit a file format it writes."""

from __future__ import annotations

import contextlib
import csv
import sys
from typing import Literal, TextIO

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, MapType, StructType

Output = Literal["table", "json", "csv"]
OUTPUTS: tuple[Output, ...] = ("table", "json", "csv")

# Spark's show() takes an Int.
ALL_ROWS = 2**31 - 1


def column(name: str) -> Column:
    """A column by its exact name (dots and backticks included)."""
    return F.col("`" + name.replace("`", "``") + "`")


def render(df: DataFrame, output: Output, rows: int | None, out: TextIO | None = None) -> None:
    """Prints `df` (its first `rows` rows when given) to `out` (stdout):
    - table: Spark's `show()`, values not truncated;
    - json: one object per line, every column present (null as null), values as Spark's `to_json` writes them;
    - csv: a header line, then scalars as Spark casts them to text, arrays/maps/structs as JSON, null empty.
    json and csv stream the rows a partition at a time."""
    out = out if out is not None else sys.stdout
    if output == "table":
        with contextlib.redirect_stdout(out):
            df.show(rows if rows is not None else ALL_ROWS, truncate=False)
        return
    limited = df.limit(rows) if rows is not None else df
    if output == "json":
        every = F.struct(*[column(c) for c in limited.columns])
        lines = limited.select(F.to_json(every, {"ignoreNullFields": "false"}))
        for row in lines.toLocalIterator():
            out.write(row[0] + "\n")
        return
    texts = [
        (F.to_json(column(f.name)) if nested(f.dataType) else column(f.name).cast("string")).alias(f"_{i}")
        for i, f in enumerate(limited.schema.fields)
    ]
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(limited.columns)
    for row in limited.select(*texts).toLocalIterator():
        writer.writerow(["" if v is None else v for v in row])


def nested(data_type: object) -> bool:
    return isinstance(data_type, (ArrayType, MapType, StructType))


def fit_format(df: DataFrame, to: str) -> DataFrame:
    """`df` as the writer of format `to` takes it: CSV cannot hold arrays, maps or structs, so they become
    JSON text; other formats take `df` as it is."""
    if to != "csv":
        return df
    return df.select(
        *[
            F.to_json(column(f.name)).alias(f.name) if nested(f.dataType) else column(f.name)
            for f in df.schema.fields
        ]
    )
