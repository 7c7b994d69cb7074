"""`spark-drill PATH`: prints the schema and rows of `SELECT * FROM drill.`PATH``."""

from __future__ import annotations

import argparse
import os
import sys

from spark_drill._session import session


def _parse_option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"options are KEY=VALUE, got {text!r}")
    return key, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="spark-drill", description="Query a directory of CSV/TSV/PSV files with spark-drill."
    )
    parser.add_argument("path", help="a file, directory or glob")
    parser.add_argument(
        "-o", "--option", action="append", type=_parse_option, default=[], help="reader option KEY=VALUE"
    )
    parser.add_argument("--sql", help="a query; {table} stands for drill.`PATH`")
    parser.add_argument("--rows", type=int, default=50, help="rows to show (default 50)")
    parser.add_argument("--master", default="local[*]")
    args = parser.parse_args(argv)

    # Options reach `drill.`path`` through the catalog's own settings.
    conf = {f"spark.sql.catalog.drill.{k}": v for k, v in args.option}
    conf.setdefault("spark.ui.enabled", "false")
    spark = session(master=args.master, **conf)
    spark.sparkContext.setLogLevel("ERROR")
    table = "drill.`" + os.path.abspath(args.path).replace("`", "``") + "`"
    query = (args.sql or "SELECT * FROM {table}").format(table=table)
    print(f"-- {query}")
    df = spark.sql(query)
    df.printSchema()
    df.show(args.rows, truncate=False)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
