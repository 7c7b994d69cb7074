"""schemaMode, provided and defined schemas, hive partitions (SPEC 3, 5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.sql import SparkSession

import spark_drill as sd
from conftest import write_files
from scan_metrics import scan_metrics

pytestmark = pytest.mark.compat

FILES = {"t/f0.csv": "a,b\n1,x\n", "t/f1.csv": "a,b,c\n2,y,z\n", "t/f2.csv": "b\nw\n"}


def test_evolve_unions_every_file(spark: SparkSession, tmp_path: Path) -> None:
    df = sd.read(spark, str(write_files(tmp_path, FILES) / "t"), header=True)
    assert df.columns == ["a", "b", "c"]
    assert sorted(tuple(r) for r in df.fillna("-").collect()) == [
        ("-", "w", "-"),
        ("1", "x", "-"),
        ("2", "y", "z"),
    ]


def test_strict_keeps_the_first_files_columns(spark: SparkSession, tmp_path: Path) -> None:
    df = sd.read(spark, str(write_files(tmp_path, FILES) / "t"), header=True, schema_mode="strict")
    assert df.columns == ["a", "b"]
    assert df.count() == 3


def test_fail_names_the_file_and_the_columns(spark: SparkSession, tmp_path: Path) -> None:
    root = write_files(tmp_path, FILES) / "t"
    with pytest.raises(
        Exception, match=r"f1.csv has extra c, unlike the first file .*f0.csv \(schemaMode=fail"
    ):
        sd.read(spark, str(root), header=True, schema_mode="fail")


def test_defined_schema_is_exactly_the_output(spark: SparkSession, tmp_path: Path) -> None:
    root = write_files(tmp_path, FILES) / "t"
    df = (
        spark.read.format("drill")
        .schema("b STRING, a INT, nope DOUBLE")
        .option("header", "true")
        .load(str(root))
    )
    assert df.columns == ["b", "a", "nope"]
    assert sorted(tuple(r) for r in df.collect()) == [("w", None, None), ("x", 1, None), ("y", 2, None)]


def test_provided_schema_types_some_columns_and_discovers_the_rest(
    spark: SparkSession, tmp_path: Path
) -> None:
    root = write_files(tmp_path, FILES) / "t"
    df = sd.read(spark, str(root), header=True, provided_schema={"a": "INT"})
    assert [(f.name, f.dataType.simpleString()) for f in df.schema.fields] == [
        ("a", "int"),
        ("b", "string"),
        ("c", "string"),
    ]
    strict = sd.read(spark, str(root), header=True, provided_schema="a INT", strict_schema=True)
    assert strict.columns == ["a"]
    assert sorted(r.a for r in strict.collect() if r.a is not None) == [1, 2]


def test_hive_partitions_are_columns_and_prune_files(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"region=eu/kind=web/a.csv": "v\n1\n", "region=us/kind=app/b.csv": "v\n2\n"})
    df = sd.read(spark, str(tmp_path), header=True, partition_style="hive")
    assert df.columns == ["v", "region", "kind"]
    us = df.where("region = 'us'")
    assert [tuple(r) for r in us.collect()] == [("2", "us", "app")]
    assert scan_metrics(us)["filesPruned"] == 1


def test_partition_label_and_partition_columns_option(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"2018/q1/a.csv": "v\n1\n"})
    assert sd.read(spark, str(tmp_path), header=True, partition_label="d").columns == ["v", "d0", "d1"]
    assert sd.read(spark, str(tmp_path), header=True, partition_columns=False).columns == ["v"]
    hidden = sd.read(spark, str(tmp_path), header=True, partition_columns=False).select("v", "dir1")
    assert [tuple(r) for r in hidden.collect()] == [("1", "q1")]


def test_infer_types_from_a_sample_and_widen_across_files(spark: SparkSession, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "a.csv": "n,x,flag,day,code,big,empty\n1,1,true,2024-01-31,007,1,\n2,2,false,2024-02-01,010,2,\n",
            "b.csv": "n,x,flag,day,code,big\n3,2.5,true,2024-02-02,011,9999999999\n",
        },
    )
    df = sd.read(spark, str(tmp_path), header=True, infer_types=True)
    types = {f.name: f.dataType.simpleString() for f in df.schema.fields}
    assert types == {
        "n": "int",
        "x": "double",
        "flag": "boolean",
        "day": "date",
        "code": "string",
        "big": "bigint",
        "empty": "string",
    }
    assert sorted(r.x for r in df.collect()) == [1.0, 2.0, 2.5]
    sampled = sd.read(spark, str(tmp_path), header=True, infer_types=True, sample_rows=1)
    assert {f.name: f.dataType.simpleString() for f in sampled.schema.fields}["x"] == "double"
