"""sd.ScanError is built from the JVM error's class and message parameters (docs/errors.md), not from its
text: each kind carries its condition and fields, and a value with a quote or a parenthesis comes through
exact."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.sql import SparkSession

import spark_drill as sd
from conftest import write_files

pytestmark = pytest.mark.compat

ODD = "it's (odd)"


def failure(call: object) -> sd.ScanError:
    with pytest.raises(sd.ScanError) as raised:
        call()  # type: ignore[operator]
    return raised.value


def test_a_malformed_record_in_failfast(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"q.csv": 'a,b\n1,ok\n2,"never closed\n'})
    e = failure(lambda: sd.read(spark, str(tmp_path), header=True, mode="FAILFAST").collect())
    assert e.condition == e.error_class == "SPARK_DRILL_MALFORMED_RECORD"
    assert (e.file, e.line, e.offset, e.column) == (f"{tmp_path}/q.csv", 3, 9, None)
    assert e.reason == "malformed record: a quoted field is never closed"
    assert e.option is not None and e.option.startswith("mode=FAILFAST")
    assert str(e).startswith("spark-drill: malformed record: a quoted field is never closed: file ")


def test_an_unconvertible_value_with_a_quote_and_a_parenthesis(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"bad.csv": f'id,name\n1,ann\n"{ODD}",fred\n'})
    df = sd.read(spark, str(tmp_path), header=True, provided_schema="id INT", mode="FAILFAST")
    e = failure(df.collect)
    assert e.condition == "SPARK_DRILL_UNCONVERTIBLE_VALUE"
    assert (e.line, e.column, e.value, e.reason) == (3, "id", ODD, "cannot convert the value to int")
    assert e.option is not None and "mode=PERMISSIVE" in e.option


def test_malformed_json_keeps_the_records_text_exact(spark: SparkSession, tmp_path: Path) -> None:
    record = '{"s": "a (b) \'c\'", }'
    write_files(tmp_path, {"a.json": '{"s": "x"}\n' + record + "\n"})
    e = failure(lambda: sd.read(spark, str(tmp_path), mode="FAILFAST").collect())
    assert (e.condition, e.line, e.value) == ("SPARK_DRILL_MALFORMED_RECORD", 2, record)
    assert e.reason is not None and e.reason.startswith("malformed JSON (")


def test_option_errors_through_sparks_own_reader(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "x\n1\n"})
    reader = spark.read.format("drill")
    unknown = failure(lambda: reader.option("inferTyps", "true").load(str(tmp_path)))
    assert (unknown.condition, unknown.option, unknown.value) == (
        "SPARK_DRILL_UNKNOWN_OPTION",
        "inferTyps",
        None,
    )
    assert "did you mean inferTypes?" in str(unknown) and unknown.file is None
    bad = failure(lambda: spark.read.format("drill").option("batchRows", ODD).load(str(tmp_path)))
    assert (bad.condition, bad.option, bad.value) == ("SPARK_DRILL_BAD_OPTION_VALUE", "batchRows", ODD)
    assert str(bad) == f"spark-drill: option 'batchRows' must be an integer, got '{ODD}'"
    enum = failure(lambda: spark.read.format("drill").option("schemaMode", "loose").load(str(tmp_path)))
    assert str(enum) == "spark-drill: option 'schemaMode' must be one of evolve, strict, fail, got 'loose'"


def test_a_file_gone_since_planning(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "x\n1\n", "b.csv": "x\n2\n"})
    df = sd.read(spark, str(tmp_path), header=True)
    (tmp_path / "b.csv").unlink()
    e = failure(df.collect)
    assert (e.condition, e.file, e.option) == (
        "SPARK_DRILL_MISSING_FILE",
        f"{tmp_path}/b.csv",
        "ignoreMissingFiles=true skips it",
    )
    assert e.line is None and e.offset is None


def test_a_schema_conflict(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.json": '{"x": 1}\n', "b.json": '{"x": "s"}\n'})
    e = failure(lambda: sd.read(spark, str(tmp_path), type_conflict="fail"))
    assert e.condition == "SPARK_DRILL_SCHEMA_CONFLICT" and e.reason is not None
    assert e.reason.startswith("type conflict:")


def test_the_streams_own_conditions_are_not_scan_errors() -> None:
    assert not sd._errors.is_scan_condition("SPARK_DRILL_STREAM_SCHEMA_CHANGED")
    assert sd._errors.is_scan_condition("SPARK_DRILL_MISSING_FILE")
    assert not sd._errors.is_scan_condition("CAST_INVALID_INPUT") and not sd._errors.is_scan_condition(None)
