"""Reading s3a:// paths for real: S3A against moto on 127.0.0.1 (`make test-s3`).

Each test puts the same bytes in a local directory and in a bucket, and checks that the s3a:// read gives
the rows of the local read (the tested local reader is the reference), except for the columns that name
where a file is (`fqn`, `filepath`), which are checked against the s3a:// paths, and `lmt`, which must be
the object's LastModified.
"""

from __future__ import annotations

import bz2
import gzip
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

import spark_drill as sd
from conftest import Tree
from scan_metrics import scan_metrics

# A tree whose headers drift: each file has its own columns, in its own order (as samples/logs).
LOGS = {
    "logs/2024/01/events.csv": "id,user,action\n1,ann,login\n2,bob,view\n",
    "logs/2024/02/events.csv": "action,id,duration_ms\nview,3,40\nclick,4,15\n",
    "logs/2025/events.csv": "id,country\n5,PT\n",
    "logs/events.csv": "user,id\ncy,6\n",
}


def rows(df: DataFrame, columns: Sequence[str] | None = None) -> list[tuple[Any, ...]]:
    """The rows (of `columns`, else all), sorted so that two reads compare whatever their task order."""
    selected = df.select(*columns) if columns is not None else df
    return sorted((tuple(r) for r in selected.collect()), key=repr)


def both(
    spark: SparkSession, tree: Tree, rel: str, columns: Sequence[str] | None = None, **options: Any
) -> tuple[DataFrame, list[tuple[Any, ...]]]:
    """Reads `rel` from the bucket and from the local copy with the same options; asserts they give the
    same columns and rows (of `columns`, else all). Returns the s3a:// DataFrame and its rows."""
    remote = sd.read(spark, tree.url(rel), **options)
    local = sd.read(spark, tree.local(rel), **options)
    assert remote.columns == local.columns
    assert remote.schema == local.schema
    got = rows(remote, columns)
    assert got == rows(local, columns)
    return remote, got


@contextmanager
def max_partition_bytes(spark: SparkSession, size: int) -> Iterator[None]:
    """Byte-range splits of at most `size` bytes while the block runs."""
    spark.conf.set("spark.sql.files.maxPartitionBytes", str(size))
    try:
        yield
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")


def partitions_with_rows(df: DataFrame) -> int:
    """How many of the scan's tasks gave rows (without Python workers)."""
    return int(df.select(F.spark_partition_id().alias("p")).distinct().count())


def last_modified_ms(tree: Tree, key: str) -> int:
    """The object's LastModified as S3 reports it, in milliseconds since the epoch."""
    modified: datetime = tree.s3.head_object(Bucket=tree.bucket, Key=key)["LastModified"]
    return round(modified.timestamp() * 1000)


def test_a_drifting_csv_tree_unions_columns_with_dir_columns(spark: SparkSession, tree: Tree) -> None:
    tree.put(LOGS)
    df, _ = both(spark, tree, "logs", header=True)
    assert df.columns == ["id", "user", "action", "duration_ms", "country", "dir0", "dir1"]
    assert rows(df, ["id", "user", "action", "duration_ms", "country", "dir0", "dir1"]) == [
        ("1", "ann", "login", None, None, "2024", "01"),
        ("2", "bob", "view", None, None, "2024", "01"),
        ("3", None, "view", "40", None, "2024", "02"),
        ("4", None, "click", "15", None, "2024", "02"),
        ("5", None, None, None, "PT", "2025", None),
        ("6", "cy", None, None, None, None, None),
    ]
    typed, _ = both(spark, tree, "logs", header=True, infer_types=True)
    assert typed.where("dir0 = '2024'").agg(F.sum("duration_ms")).collect()[0][0] == 55


def test_hive_partitions_are_columns_and_prune_objects(spark: SparkSession, tree: Tree) -> None:
    tree.put(
        {
            "sales/year=2024/month=01/a.csv": "v\n1\n2\n",
            "sales/year=2024/month=02/b.csv": "v\n3\n",
            "sales/year=2025/month=01/c.csv": "v\n4\n",
        }
    )
    df, got = both(spark, tree, "sales", header=True, partition_style="hive")
    assert df.columns == ["v", "year", "month"]
    assert got == [("1", "2024", "01"), ("2", "2024", "01"), ("3", "2024", "02"), ("4", "2025", "01")]
    later = df.where("year = '2025'")
    assert rows(later) == [("4", "2025", "01")]
    assert scan_metrics(later)["filesPruned"] == 2


def test_every_implicit_column(spark: SparkSession, tree: Tree) -> None:
    # A blank line (skipped) and a quoted line end, so that _line and _offset are not just row numbers.
    files = {
        "logs/2024/a.csv": 'id,note\n1,plain\n\n2,"two\nlines"\n3,last\n',
        "logs/b.tsv": "id\tnote\n4\tx\n",
    }
    tree.put(files)
    plain = ["id", "filename", "suffix", "_line", "_offset"]
    df, got = both(spark, tree, "logs", plain, header=True, multi_line=True)
    assert got == [
        ("1", "a.csv", "csv", 2, 8),
        ("2", "a.csv", "csv", 4, 17),
        ("3", "a.csv", "csv", 6, 31),
        ("4", "b.tsv", "tsv", 2, 8),
    ]
    where = rows(df, ["id", "fqn", "filepath"])
    assert where == [
        ("1", tree.url("logs/2024/a.csv"), tree.url("logs/2024")),
        ("2", tree.url("logs/2024/a.csv"), tree.url("logs/2024")),
        ("3", tree.url("logs/2024/a.csv"), tree.url("logs/2024")),
        ("4", tree.url("logs/b.tsv"), tree.url("logs")),
    ]
    lmt = {r.fqn: r.ms for r in df.select("fqn", F.unix_millis("lmt").alias("ms")).distinct().collect()}
    assert lmt == {tree.url(key): last_modified_ms(tree, key) for key in files}
    assert df.select("lmt").schema.fields[0].dataType.simpleString() == "timestamp"


def test_a_json_tree(spark: SparkSession, tree: Tree) -> None:
    tree.put(
        {
            "events/2024/a.json": '{"id": 1, "user": {"name": "ann"}}\n'
            '{"id": 2, "score": 1.5, "user": {"name": "bob", "tags": ["x"]}}\n',
            "events/b.jsonl": '{"ID": 3, "score": 2, "user": {"name": "cy"}}\n',
        }
    )
    df, got = both(spark, tree, "events", ["id", "user.name", "score", "dir0", "filename", "_line"])
    assert {f.name: f.dataType.simpleString() for f in df.schema.fields} == {
        "id": "bigint",
        "user": "struct<name:string,tags:array<string>>",
        "score": "double",
        "dir0": "string",
    }
    assert got == [
        (1, "ann", None, "2024", "a.json", 1),
        (2, "bob", 1.5, "2024", "a.json", 2),
        (3, "cy", 2.0, None, "b.jsonl", 1),
    ]


def test_globs(spark: SparkSession, tree: Tree) -> None:
    tree.put(
        {
            "logs/web/2024-01.csv": "id\n1\n",
            "logs/web/2023-12.csv": "id\n2\n",
            "logs/app/2024-02.csv": "id\n3\n",
            "logs/app/old/2024-03.csv": "id\n4\n",
            "other/2024-04.csv": "id\n5\n",
        }
    )
    _, got = both(spark, tree, "logs/*/2024*", ["id", "dir0", "filename"], header=True)
    assert got == [("1", "web", "2024-01.csv"), ("3", "app", "2024-02.csv")]
    _, got = both(spark, tree, "logs/{web,app}/202[3]-*.csv", ["id", "dir0"], header=True)
    assert got == [("2", "web")]


def test_gzip_and_bzip2_objects(spark: SparkSession, tree: Tree) -> None:
    tree.put(
        {
            "z/a.csv.gz": gzip.compress(b"x,y\n1,a\n2,b\n"),
            "z/b.csv.bz2": bz2.compress(b"y,x\nc,3\n"),
            "z/c.json.gz": gzip.compress(b'{"x": "4", "y": "d"}\n'),
            "z/d.jsonl.bz2": bz2.compress(b'{"x": "5"}\n'),
        }
    )
    _, got = both(spark, tree, "z", ["x", "y", "suffix", "_line"], header=True)
    assert got == [
        ("1", "a", "gz", 2),
        ("2", "b", "gz", 3),
        ("3", "c", "bz2", 2),
        ("4", "d", "gz", 1),
        ("5", None, "bz2", 1),
    ]


def _big_csv(n: int) -> tuple[bytes, int]:
    """A ~20 MB CSV (quoted fields with delimiters, ragged lengths) and the sum of its records' offsets."""
    header = "id,text,pad\n"
    lines = [f'{i},"quoted, {i}",{"p" * (i % 151)}\n' for i in range(n)]
    offsets, at = 0, len(header)
    for line in lines:
        offsets += at
        at += len(line)
    return (header + "".join(lines)).encode("ascii"), offsets


def test_byte_range_splits_of_a_large_object(spark: SparkSession, tree: Tree) -> None:
    n = 200_000
    data, offset_sum = _big_csv(n)
    assert len(data) > 18 * 1024 * 1024
    tree.put({"big/big.csv": data})
    columns = ["id", "text", "pad", "_line", "_offset"]
    with max_partition_bytes(spark, 2 * 1024 * 1024):
        remote = sd.read(spark, tree.url("big"), header=True).select(*columns)
        local = sd.read(spark, tree.local("big"), header=True).select(*columns)
        assert remote.rdd.getNumPartitions() >= 9
        assert partitions_with_rows(remote) > 1
        totals = [F.count("*"), F.sum(F.col("id").cast("long")), F.sum("_line"), F.sum("_offset")]
        expected = (n, n * (n - 1) // 2, sum(range(2, n + 2)), offset_sum)
        assert tuple(remote.agg(*totals).collect()[0]) == expected
        assert tuple(local.agg(*totals).collect()[0]) == expected
        # The counts are equal, so nothing left over one way means the same rows.
        assert remote.exceptAll(local).isEmpty()
        assert rows(remote.where("id IN ('0', '7', '199999')"), ["id", "text", "pad", "_line"]) == [
            ("0", "quoted, 0", None, 2),
            ("199999", "quoted, 199999", "p" * (199_999 % 151), 200_001),
            ("7", "quoted, 7", "p" * 7, 9),
        ]


def test_bzip2_object_split_by_block(spark: SparkSession, tree: Tree) -> None:
    n = 60_000
    # Varied text, so that bzip2 -1's 100 kB blocks make an object of several blocks.
    text = "id,text\n" + "".join(f"{i},{(str(i * 7919) * 9)[: i % 53]}\n" for i in range(n))
    tree.put({"bz/big.csv.bz2": bz2.compress(text.encode("ascii"), compresslevel=1)})
    with max_partition_bytes(spark, 64 * 1024):
        remote = sd.read(spark, tree.url("bz"), header=True)
        local = sd.read(spark, tree.local("bz"), header=True)
        assert remote.rdd.getNumPartitions() > 3
        assert partitions_with_rows(remote) > 1
        assert remote.count() == local.count() == n
        assert remote.exceptAll(local).isEmpty()
        assert remote.agg(F.sum(F.col("id").cast("long"))).collect()[0][0] == n * (n - 1) // 2


MISSING = {"gone/a.csv": "x\n1\n", "gone/b.csv": "x\n2\n", "gone/c.csv": "x\n3\n"}


def test_an_object_deleted_after_planning_fails_naming_it(spark: SparkSession, tree: Tree) -> None:
    tree.put(MISSING)
    df = sd.read(spark, tree.url("gone"), header=True)
    tree.s3.delete_object(Bucket=tree.bucket, Key="gone/b.csv")
    with pytest.raises(sd.ScanError) as e:
        df.collect()
    assert e.value.file == tree.url("gone/b.csv")
    assert "no longer exists" in str(e.value)
    assert "ignoreMissingFiles=true skips it" in str(e.value)


def test_an_object_deleted_after_planning_is_skipped_with_ignore_missing_files(
    spark: SparkSession, tree: Tree
) -> None:
    tree.put(MISSING)
    df = sd.read(spark, tree.url("gone"), header=True, ignore_missing_files=True)
    tree.s3.delete_object(Bucket=tree.bucket, Key="gone/b.csv")
    assert sorted(r.x for r in df.collect()) == ["1", "3"]
    assert df.count() == 2


def _report(df: DataFrame, root: str) -> list[tuple[Any, ...]]:
    """describe's rows with the paths in them (`file`, `first_file`, the files a conflict names) made
    relative to `root`, so that the reports of two copies of a tree compare."""

    def rel(text: str | None) -> str | None:
        return None if text is None else text.replace(root + "/", "")

    return sorted(
        (
            (rel(r.file), r.column, r.file_type, r.table_type, r.seen_in, rel(r.first_file), rel(r.conflict))
            for r in df.collect()
        ),
        key=repr,
    )


def test_describe_an_s3a_path(spark: SparkSession, tree: Tree) -> None:
    tree.put({"logs/a.csv": "x,y\n1,2\n", "logs/b/c.csv": "y,z\n3.5,4\n"})
    remote = sd.describe(spark, tree.url("logs"), header=True, infer_types=True)
    files_named = {r.file for r in remote.collect()}
    assert files_named == {tree.url("logs/a.csv"), tree.url("logs/b/c.csv")}
    local = sd.describe(spark, tree.local("logs"), header=True, infer_types=True)
    got = _report(remote, tree.url("logs"))
    assert got == _report(local, tree.local("logs"))
    assert [g[:6] for g in got] == [
        ("a.csv", "x", "int", "int", "sample", "a.csv"),
        ("a.csv", "y", "int", "double", "sample", "a.csv"),
        ("b/c.csv", "y", "double", "double", "sample", "a.csv"),
        ("b/c.csv", "z", "int", "int", "sample", "b/c.csv"),
    ]
