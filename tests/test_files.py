"""Which files a scan reads (SPEC 2) and how large files are split."""

from __future__ import annotations

import bz2
import gzip
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pyspark.sql import DataFrame, SparkSession

from conftest import write_files


def drill(spark: SparkSession, path: str | list[str], **options: str) -> DataFrame:
    reader = spark.read.format("drill").option("header", "true")
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load(path)


def values(df: DataFrame, column: str) -> list[str]:
    return sorted(r[column] for r in df.select(column).collect())


@pytest.fixture
def small_splits(spark: SparkSession) -> Iterator[None]:
    spark.conf.set("spark.sql.files.maxPartitionBytes", "64")
    yield
    spark.conf.unset("spark.sql.files.maxPartitionBytes")


def test_directories_are_read_recursively_and_hidden_names_skipped(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(
        tmp_path,
        {
            "a.csv": "x\n1\n",
            "d/e/b.csv": "x\n2\n",
            ".hidden.csv": "x\n3\n",
            "_SUCCESS.csv": "x\n4\n",
            "_tmp/c.csv": "x\n5\n",
            ".git/d.csv": "x\n6\n",
            "notes.txt": "not data\n",
        },
    )
    assert values(drill(spark, str(tmp_path)), "x") == ["1", "2"]


def test_globs_and_several_paths(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"2024/a.csv": "x\n1\n", "2025/b.csv": "x\n2\n", "2026/c.csv": "x\n3\n"})
    assert values(drill(spark, f"{tmp_path}/202[45]/*.csv"), "x") == ["1", "2"]
    assert values(drill(spark, [f"{tmp_path}/2024", f"{tmp_path}/2026/c.csv"]), "x") == ["1", "3"]


def test_path_glob_filter_and_modification_times(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"old.csv": "x\n1\n", "new.csv": "x\n2\n", "other.tsv": "x\n3\n"})
    long_ago = time.mktime((2020, 1, 1, 0, 0, 0, 0, 0, -1))
    os.utime(tmp_path / "old.csv", (long_ago, long_ago))
    assert values(drill(spark, str(tmp_path), pathGlobFilter="*.csv"), "x") == ["1", "2"]
    assert values(drill(spark, str(tmp_path), modifiedBefore="2021-01-01T00:00:00"), "x") == ["1"]
    assert values(drill(spark, str(tmp_path), modifiedAfter="2021-01-01T00:00:00"), "x") == ["2", "3"]


def test_missing_path_is_an_error_unless_ignored(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "x\n1\n"})
    with pytest.raises(Exception, match="path does not exist"):
        drill(spark, str(tmp_path / "nope"))
    df = drill(spark, [str(tmp_path / "nope"), str(tmp_path)], ignoreMissingFiles="true")
    assert values(df, "x") == ["1"]


def test_compressed_files_by_suffix_and_mixed_delimited_formats(spark: SparkSession, tmp_path: Path) -> None:
    (tmp_path / "a.csv.gz").write_bytes(gzip.compress(b"x,y\n1,a\n"))
    (tmp_path / "b.csv.bz2").write_bytes(bz2.compress(b"x,y\n2,b\n"))
    write_files(tmp_path, {"c.tsv": "x\ty\n3\tc\n", "d.psv": "y|x\nd|4\n"})
    df = drill(spark, str(tmp_path))
    assert sorted((r.x, r.y) for r in df.collect()) == [("1", "a"), ("2", "b"), ("3", "c"), ("4", "d")]
    assert sorted(r.suffix for r in df.select("suffix").collect()) == ["bz2", "gz", "psv", "tsv"]


def test_split_file_gives_the_rows_of_an_unsplit_read(
    spark: SparkSession, tmp_path: Path, small_splits: None
) -> None:
    lines = ["id,text"] + [f'{i},"quoted, {i}"' if i % 3 else f"{i},plain{i}" for i in range(300)]
    write_files(tmp_path, {"big.csv": "\n".join(lines) + "\n"})
    df = drill(spark, str(tmp_path))
    assert df.rdd.getNumPartitions() > 10
    rows = sorted((int(r.id), r.text, r._line) for r in df.select("id", "text", "_line").collect())
    expected = [(i, f"quoted, {i}" if i % 3 else f"plain{i}", i + 2) for i in range(300)]
    assert rows == expected


def test_quoted_line_end_on_a_split_boundary_fails_loudly(
    spark: SparkSession, tmp_path: Path, small_splits: None
) -> None:
    body = "".join(f'{i},"line one\nline two {i}"\n' for i in range(100))
    write_files(tmp_path, {"multi.csv": "id,text\n" + body})
    with pytest.raises(Exception, match="multiLine=true"):
        drill(spark, str(tmp_path)).collect()
    rows = drill(spark, str(tmp_path), multiLine="true").collect()
    assert sorted(int(r.id) for r in rows) == list(range(100))
    assert all(r.text.startswith("line one\nline two") for r in rows)


def _bzip2_rows(n: int) -> str:
    # Varied text, so bzip2 -1's 100 kB blocks make a file of several blocks.
    return "id,text\n" + "".join(f"{i},{(str(i * 7919) * 9)[: i % 53]}\n" for i in range(n))


@pytest.mark.slow
def test_bzip2_is_split_by_block_and_gives_the_rows_of_a_whole_read(
    spark: SparkSession, tmp_path: Path
) -> None:
    text = _bzip2_rows(60000)
    (tmp_path / "big.csv.bz2").write_bytes(bz2.compress(text.encode(), compresslevel=1))
    # Every 53rd text is an empty unquoted field: null (SPEC 9.1).
    expected = [(i, (str(i * 7919) * 9)[: i % 53] or None) for i in range(60000)]
    spark.conf.set("spark.sql.files.maxPartitionBytes", str(64 * 1024))
    try:
        df = drill(spark, str(tmp_path))
        assert df.rdd.getNumPartitions() > 3
        per_partition = df.rdd.glom().map(len).collect()
        assert sum(1 for n in per_partition if n > 0) > 1, per_partition
        assert sorted((int(r.id), r.text) for r in df.collect()) == expected
        # _line needs the file from its start: then the file is read whole, and the lines are right.
        with_lines = drill(spark, str(tmp_path)).select("id", "_line")
        assert with_lines.rdd.getNumPartitions() == 1
        assert all(int(r.id) + 2 == r._line for r in with_lines.collect())
        # count(*) counts every record once too.
        assert drill(spark, str(tmp_path)).count() == 60000
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")


def _jobs_while(spark: SparkSession, group: str, read: Callable[[], DataFrame]) -> tuple[DataFrame, int]:
    """What `read` returns, and how many Spark jobs ran while it did."""
    sc = spark.sparkContext
    sc.setJobGroup(group, "discovery")
    try:
        df = read()
        return df, len(sc.statusTracker().getJobIdsForGroup(group))
    finally:
        sc.setJobGroup("after-" + group, "other")


def test_discovery_of_many_local_files_runs_on_driver_threads(spark: SparkSession, tmp_path: Path) -> None:
    # Local headers are read by a few driver threads: cheaper than a Spark job's tasks (issue 16).
    write_files(tmp_path, {f"d{i % 5}/f{i:02d}.csv": f"k,c{i % 7}\n{i},v\n" for i in range(40)})
    threads, jobs = _jobs_while(
        spark, "local-discovery", lambda: drill(spark, str(tmp_path), discoveryParallelism="10")
    )
    assert jobs == 0
    one_by_one = drill(spark, str(tmp_path), discoveryParallelism="1000")
    assert threads.columns == one_by_one.columns
    assert sorted(threads.columns) == sorted(["k", "dir0"] + [f"c{i}" for i in range(7)])
    assert sorted(map(tuple, threads.collect())) == sorted(map(tuple, one_by_one.collect()))


def test_discovery_runs_as_a_spark_job_off_the_local_file_system(spark: SparkSession, tmp_path: Path) -> None:
    # `file:` as another file system than Hadoop's LocalFileSystem (its raw one, uncached): discovery is a
    # Spark job, as for an object store, and finds the same schema.
    write_files(tmp_path, {f"d{i % 5}/f{i:02d}.csv": f"k,c{i % 7}\n{i},v\n" for i in range(40)})
    other_fs = {
        "fs.file.impl": "org.apache.hadoop.fs.RawLocalFileSystem",
        "fs.file.impl.disable.cache": "true",
    }
    parallel, jobs = _jobs_while(
        spark,
        "job-discovery",
        lambda: drill(spark, str(tmp_path), discoveryParallelism="10", **other_fs),
    )
    assert jobs >= 1
    local = drill(spark, str(tmp_path), discoveryParallelism="1000")
    assert parallel.columns == local.columns
    assert sorted(map(tuple, parallel.collect())) == sorted(map(tuple, local.collect()))
