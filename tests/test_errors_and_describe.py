"""Bad input raises spark_drill.ScanError naming file, line, column and value (SPEC 6); describe (SPEC 6)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.sql import SparkSession

import spark_drill as sd
from conftest import write_files

pytestmark = pytest.mark.compat


def test_conversion_error_raises_scan_error_with_its_fields(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"bad.csv": "id,name\n1,ann\nfoo,fred\n"})
    df = sd.read(spark, str(tmp_path), header=True, provided_schema="id INT", mode="FAILFAST")
    with pytest.raises(sd.ScanError) as raised:
        df.collect()
    error = raised.value
    assert error.file == f"{tmp_path}/bad.csv"
    assert (error.line, error.offset, error.column, error.value) == (3, 14, "id", "foo")
    assert error.option is not None and "mode=PERMISSIVE" in error.option


def test_scan_error_survives_pyspark_installing_its_error_handler_again(
    spark: SparkSession, tmp_path: Path
) -> None:
    # Every SparkSession object PySpark builds (PySpark 3.5 builds them more often than 4.x) installs
    # PySpark's own error handler again, over the one spark-drill added: a read through Spark's own API must
    # still raise ScanError afterwards.
    SparkSession(spark.sparkContext, spark._jsparkSession)
    write_files(tmp_path, {"bad.csv": "id,name\n1,ann\nfoo,fred\n"})
    df = spark.read.format("drill").option("header", "true").option("mode", "FAILFAST")
    with pytest.raises(sd.ScanError) as raised:
        df.option("providedSchema", "id INT").load(str(tmp_path)).collect()
    assert (raised.value.line, raised.value.column, raised.value.value) == (3, "id", "foo")


def test_permissive_nulls_the_value_and_dropmalformed_drops_the_record(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(tmp_path, {"bad.csv": "id,name\n1,ann\nfoo,fred\n3,cy\n"})
    permissive = sd.read(spark, str(tmp_path), header=True, provided_schema="id INT")
    assert sorted((r.id or -1, r.name) for r in permissive.collect()) == [(-1, "fred"), (1, "ann"), (3, "cy")]
    dropped = sd.read(spark, str(tmp_path), header=True, provided_schema="id INT", mode="DROPMALFORMED")
    assert sorted(r.name for r in dropped.collect()) == ["ann", "cy"]


def test_validate_projected_only_converts_what_is_read(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"bad.csv": "id,name\n1,ann\nfoo,fred\n"})
    df = sd.read(spark, str(tmp_path), header=True, provided_schema="id INT", mode="DROPMALFORMED")
    assert df.select("name").count() == 2  # the id column is not read, so nothing is malformed
    assert len(df.select("id", "name").collect()) == 1
    every = sd.read(
        spark, str(tmp_path), header=True, provided_schema="id INT", mode="DROPMALFORMED", validate="all"
    )
    assert every.select("name").count() == 1


def test_unterminated_quote_under_failfast_names_the_line(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"q.csv": 'a,b\n1,ok\n2,"never closed\n3,x\n'})
    with pytest.raises(sd.ScanError) as raised:
        sd.read(spark, str(tmp_path), header=True, mode="FAILFAST").collect()
    assert raised.value.line == 3
    assert "quoted field is never closed" in str(raised.value)


def test_describe_reports_each_file_and_column(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "x,y\n1,2\n", "b/c.csv": "y,z\n3,4\n"})
    rows = sd.describe(spark, str(tmp_path), header=True).collect()
    got = sorted((Path(r.file).name, r.column, r.file_type, r.seen_in, Path(r.first_file).name) for r in rows)
    assert got == [
        ("a.csv", "x", "string", "header", "a.csv"),
        ("a.csv", "y", "string", "header", "a.csv"),
        ("c.csv", "y", "string", "header", "a.csv"),
        ("c.csv", "z", "string", "header", "c.csv"),
    ]


def test_create_temporary_view_using_drill(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"d/a.csv": "x\n1\n2\n"})
    spark.sql(
        f"CREATE OR REPLACE TEMPORARY VIEW drill_view USING drill OPTIONS (path '{tmp_path}', header 'true')"
    )
    assert sorted(r.x for r in spark.sql("SELECT x FROM drill_view WHERE dir0 = 'd'").collect()) == ["1", "2"]


def test_extra_fields_are_counted_or_rescued(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"r.csv": "a,b\n1,2\n3,4,x,y\n"})
    from scan_metrics import scan_metrics

    plain = sd.read(spark, str(tmp_path), header=True)
    assert sorted(tuple(r) for r in plain.collect()) == [("1", "2"), ("3", "4")]
    assert scan_metrics(plain)["droppedValues"] == 2
    kept = sd.read(spark, str(tmp_path), header=True, rescued_data_column="_rescued_data")
    assert kept.columns == ["a", "b", "_rescued_data"]
    rows = sorted(kept.collect(), key=lambda r: r.a)
    assert rows[0]._rescued_data is None
    import json

    assert json.loads(rows[1]._rescued_data) == {
        "column_3": "x",
        "column_4": "y",
        "_file": f"{tmp_path}/r.csv",
        "_line": 3,
    }
