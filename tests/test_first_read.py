"""The first real read: a directory tree of CSV files with drifting headers, through the DSv2 path."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.sql import SparkSession

from conftest import SAMPLES, write_files

pytestmark = pytest.mark.compat


def rows(df) -> list[tuple]:  # type: ignore[no-untyped-def]
    return sorted((tuple(r) for r in df.collect()), key=repr)


def test_wildcard_unions_headers_by_name_then_dir_columns(spark: SparkSession) -> None:
    df = spark.read.format("drill").option("header", "true").load(str(SAMPLES))
    assert df.columns == ["id", "user", "action", "duration_ms", "country", "dir0", "dir1"]
    assert all(f.dataType.simpleString() == "string" for f in df.schema.fields)
    assert rows(df) == sorted(
        [
            ("0", "root", "boot", None, None, None, None),
            ("1", "ann", "login", None, None, "2024", "01"),
            ("2", "bob", "view, then scroll", None, None, "2024", "01"),
            ("3", "ann", "logout", "120", None, "2024", "02"),
            ("4", "cy", "view", "35", None, "2024", "02"),
            ("5", "dee", None, None, "NL", "2025", None),
        ],
        key=repr,
    )


def test_select_one_column(spark: SparkSession) -> None:
    df = spark.read.format("drill").option("header", "true").load(str(SAMPLES)).select("user")
    assert sorted(r.user for r in df.collect()) == ["ann", "ann", "bob", "cy", "dee", "root"]


def test_missing_columns_are_null(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "x,y\n1,2\n", "b.csv": "y,z\n3,4\n"})
    df = spark.read.format("drill").option("header", "true").load(str(tmp_path))
    assert df.columns == ["x", "y", "z"]
    assert rows(df) == sorted([("1", "2", None), (None, "3", "4")], key=repr)


def test_count(spark: SparkSession) -> None:
    df = spark.read.format("drill").option("header", "true").load(str(SAMPLES))
    assert df.count() == 6


def test_sql_through_the_drill_catalog(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"d/a.csv": "1,2\n3,4\n"})
    df = spark.sql(f"SELECT columns, dir0, filename FROM drill.`{tmp_path}`")
    assert rows(df) == [(["1", "2"], "d", "a.csv"), (["3", "4"], "d", "a.csv")]


def test_implicit_columns_hidden_from_star_but_selectable(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"d/x.csv": "a,b\n1,2\n3,4\n"})
    df = spark.read.format("drill").option("header", "true").load(str(tmp_path))
    assert df.columns == ["a", "b", "dir0"]
    picked = df.select("a", "filename", "suffix", "fqn", "filepath", "_line", "_offset")
    assert rows(picked) == [
        ("1", "x.csv", "csv", f"{tmp_path}/d/x.csv", f"{tmp_path}/d", 2, 4),
        ("3", "x.csv", "csv", f"{tmp_path}/d/x.csv", f"{tmp_path}/d", 3, 8),
    ]


def test_uneven_depth_within_one_task(spark: SparkSession, tmp_path: Path) -> None:
    # One task reads the shallow file, then the deep one: dir0/dir1 must not keep the first file's null.
    write_files(tmp_path, {"0.csv": "x\n" + "1\n" * 50, "a/b/c.csv": "x\n2\n", "z.csv": "x\n3\n"})
    conf = {"spark.sql.files.minPartitionNum": "1", "spark.sql.files.openCostInBytes": "0"}
    for k, v in conf.items():
        spark.conf.set(k, v)
    try:
        df = spark.read.format("drill").option("header", "true").load(str(tmp_path))
        assert df.rdd.getNumPartitions() == 1
        got = sorted(set(tuple(r) for r in df.collect()), key=repr)
    finally:
        for k in conf:
            spark.conf.unset(k)
    assert got == sorted([("1", None, None), ("2", "a", "b"), ("3", None, None)], key=repr)
