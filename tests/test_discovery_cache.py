"""The discovery cache (docs/options.md, Discovery cache): a tree read again discovers only what changed, in
the driver's memory and through a `schema_cache` directory; a changed file is never served stale."""

from __future__ import annotations

import os
from pathlib import Path

from pyspark.sql import DataFrame, SparkSession

import spark_drill as sd
from conftest import write_files


def rows(df: DataFrame) -> list[tuple[object, ...]]:
    return [tuple(r) for r in df.orderBy("id").collect()]


def test_a_tree_read_again_through_schema_cache_sees_a_changed_file(
    spark: SparkSession, tmp_path: Path
) -> None:
    data = write_files(tmp_path / "data", {"a.csv": "id,x\n1,a\n", "b/c.csv": "id,x\n2,b\n"})
    cache = tmp_path / "cache"

    def read() -> DataFrame:
        return sd.read(spark, str(data), header=True, schema_cache=str(cache))

    first = read()
    assert first.columns == ["id", "x", "dir0"]
    assert rows(first) == [("1", "a", None), ("2", "b", "b")]
    assert list(cache.glob("*.sdcache")), "the schemas were kept in the directory"

    second = read()
    assert second.columns == first.columns
    assert rows(second) == rows(first)

    # Another header, the same length: the later modification time makes it another file to the cache.
    changed = data / "a.csv"
    changed.write_text("id,y\n3,c\n")
    stat = changed.stat()
    os.utime(changed, (stat.st_atime, stat.st_mtime + 10))
    third = read()
    assert third.columns == ["id", "y", "x", "dir0"]
    assert rows(third) == [("2", None, "b", "b"), ("3", "c", None, None)]

    # A plain reader with the option, without the session's cache: the directory alone is right too.
    plain = (
        spark.read.format("drill")
        .option("header", "true")
        .option("schemaCache", str(cache))
        .option("sessionSchemaCache", "false")
        .load(str(data))
    )
    assert plain.columns == third.columns
    assert rows(plain) == rows(third)


def test_session_schema_cache_false_reads_a_changed_file_too(spark: SparkSession, tmp_path: Path) -> None:
    data = write_files(tmp_path, {"a.csv": "id,x\n1,a\n"})
    assert sd.read(spark, str(data), header=True).columns == ["id", "x"]
    (data / "a.csv").write_text("id,zz\n1,a\n")
    df = sd.read(spark, str(data), header=True, session_schema_cache=False)
    assert df.columns == ["id", "zz"]
    assert rows(df) == [("1", "a")]
