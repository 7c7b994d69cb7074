"""What each `spark-drill` command does with a session and the checked reader options."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Mapping

from pyspark.sql import DataFrame, SparkSession

from spark_drill._cli_ingest import ingest
from spark_drill._cli_output import fit_format, render
from spark_drill._describe import describe
from spark_drill._reader import read

CATALOG_OPTION = "spark.sql.catalog.drill."
# The hidden file columns, by the option that renames each, and the row columns, whose names are fixed.
IMPLICIT_LABELS = {
    "filenameLabel": "filename",
    "filepathLabel": "filepath",
    "fqnLabel": "fqn",
    "suffixLabel": "suffix",
    "lmtLabel": "lmt",
}
ROW_COLUMNS = ("_line", "_offset")
# A workbook's rows have one more (SPEC 13), listed when the read is of workbooks.
SHEET_COLUMN = "sheet"
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm", ".xls")
SCHEMA_COLUMNS = "column string, type string, nullable boolean, origin string, first_file string"


def catalog_conf(opts: Mapping[str, str]) -> dict[str, str]:
    """Reader options as settings of the `drill` catalog, which `drill.`path`` in SQL reads with."""
    return {CATALOG_OPTION + key: value for key, value in opts.items()}


def run(args: argparse.Namespace, spark: SparkSession, opts: Mapping[str, str]) -> None:
    if args.command == "show":
        render(read(spark, args.path, options=opts), args.output, args.rows)
    elif args.command == "schema":
        render(schema_report(spark, args.path, opts), args.output, None)
    elif args.command == "describe":
        render(describe(spark, args.path, options=opts), args.output, None)
    elif args.command == "sql":
        # The options reached the `drill` catalog as settings of the new session (catalog_conf).
        render(spark.sql(args.query), args.output, args.rows)
    elif args.command == "convert":
        convert(read(spark, args.path, options=opts), args.out, args.to, args.partition_by, args.mode)
    elif args.command == "ingest":
        ingest(
            spark, args.path, args.out, checkpoint=args.checkpoint, to=args.to, every=args.every, opts=opts
        )
    else:
        raise AssertionError(args.command)


def schema_report(spark: SparkSession, path: str, opts: Mapping[str, str]) -> DataFrame:
    """The columns of `SELECT *` with their type and origin (table, partition, implicit), then the hidden
    implicit columns; `first_file` is the file that first brought a table column (from `describe`), relative
    to PATH when PATH is a local directory."""
    df = read(spark, path, options=opts)
    root = os.path.abspath(path) if os.path.isdir(path) else None
    first_file: dict[str, str] = {}
    for r in describe(spark, path, options=opts).select("column", "first_file").collect():
        first_file.setdefault(r.column.lower(), _relative(r.first_file, root))
    lowered = {k.lower(): v for k, v in opts.items()}
    labels = [lowered.get(k.lower(), default) for k, default in IMPLICIT_LABELS.items()] + list(ROW_COLUMNS)
    if lowered.get("format", "").lower() == "excel" or path.lower().endswith(WORKBOOK_SUFFIXES):
        labels.append(SHEET_COLUMN)
    partition = re.compile(re.escape(lowered.get("partitionlabel", "dir")) + r"\d+", re.IGNORECASE)
    hive = lowered.get("partitionstyle", "").lower() == "hive"
    special = {
        lowered[key].lower(): origin
        for key, origin in (
            ("columnnameofcorruptrecord", "corrupt record"),
            ("rescueddatacolumn", "rescued data"),
        )
        if key in lowered
    }
    rows: list[tuple[str, str, bool, str, str | None]] = []
    for field in df.schema.fields:
        name = field.name.lower()
        if name in first_file:
            origin = "table"
        elif name in special:
            origin = special[name]
        elif name in {label.lower() for label in labels}:
            origin = "implicit"
        elif hive or partition.fullmatch(field.name):
            origin = "partition"
        else:
            origin = "provided" if "providedschema" in lowered else "table"
        rows.append((field.name, field.dataType.simpleString(), field.nullable, origin, first_file.get(name)))
    present = {f.name.lower() for f in df.schema.fields}
    for label in labels:
        if label.lower() in present:
            continue  # a data column of the same name wins
        try:
            hidden = df.select(label).schema.fields[0]
        except Exception:
            continue
        rows.append((label, hidden.dataType.simpleString(), hidden.nullable, "implicit (hidden)", None))
    return spark.createDataFrame(rows, SCHEMA_COLUMNS)


def _relative(file: str, root: str | None) -> str:
    """`file:/data/logs/2024/a.csv` under root `/data/logs` -> `2024/a.csv`."""
    local = re.sub(r"^file:(//)?", "", file)
    prefix = (root or "").rstrip("/") + "/"
    return local[len(prefix) :] if root and local.startswith(prefix) else local


def convert(df: DataFrame, out: str, to: str, partition_by: list[str], mode: str) -> None:
    """Writes `df` with Spark's own writer. CSV cannot hold arrays, maps or structs: they are written as
    JSON text, and the file has a header line."""
    writer = fit_format(df, to).write.format(to).mode(mode)
    if to == "csv":
        writer = writer.option("header", "true")
    if partition_by:
        writer = writer.partitionBy(*partition_by)
    writer.save(out)
