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


def test_errors_that_had_no_class_now_carry_one_with_their_parameters(
    spark: SparkSession, tmp_path: Path
) -> None:
    gone = failure(lambda: sd.read(spark, str(tmp_path / "nothing-here")).collect())
    assert gone.condition == "SPARK_DRILL_PATH_NOT_FOUND"
    assert gone.parameters["path"] == str(tmp_path / "nothing-here") and gone.option is not None
    (tmp_path / "empty").mkdir()
    none = failure(lambda: sd.read(spark, str(tmp_path / "empty")).collect())
    assert (none.condition, none.parameters["path"]) == ("SPARK_DRILL_NO_FILES", str(tmp_path / "empty"))
    write_files(tmp_path / "t", {"a.csv": "x\n1\n"})
    bad = failure(
        lambda: sd.read(spark, str(tmp_path / "t"), header=True, options={"project": "x,,y"}).collect()
    )
    assert bad.condition == "SPARK_DRILL_PROJECTION_SYNTAX"
    assert (bad.option, bad.value, bad.parameters["position"]) == ("project", "x,,y", "3")


class _JavaLike:
    """A Py4J Java exception as far as the readers ask: its class, parameters, message and cause."""

    def __init__(self, condition: str | None, parameters: dict[str, str], message: str, cause: object = None):
        self._condition, self._parameters, self._message, self._cause = condition, parameters, message, cause

    def getCondition(self) -> str | None:  # Java's name
        if self._condition is None:
            raise RuntimeError("not a SparkThrowable")
        return self._condition

    def getMessageParameters(self) -> dict[str, str]:
        return self._parameters

    def getMessage(self) -> str:
        return self._message

    def getCause(self) -> object:
        return self._cause


def test_run_stream_reads_a_schema_change_from_its_class_and_parameters_not_its_text() -> None:
    from spark_drill._run_stream import schema_change_of

    parameters = {
        "file": "file:/in/b.json",
        "columns": "c, d",
        "fromVersion": "0",
        "toVersion": "1",
        "location": "/chk/_schemas",
    }
    ours = _JavaLike(sd._run_stream.SCHEMA_CHANGED, parameters, "[SPARK_DRILL_STREAM_SCHEMA_CHANGED] changed")
    failure = RuntimeError("the query failed (no class tag in this text)")
    failure._origin = _JavaLike(None, {}, "StreamingQueryException", _JavaLike(None, {}, "wrapped", ours))  # type: ignore[attr-defined]
    change = schema_change_of(failure)
    assert change is not None and str(change) == "[SPARK_DRILL_STREAM_SCHEMA_CHANGED] changed"
    assert (change.file, change.columns, change.from_version, change.to_version, change.location) == (
        "file:/in/b.json",
        ["c", "d"],
        0,
        1,
        "/chk/_schemas",
    )
    # Where only text travels (a running query's failure under Spark Connect): the tag, without fields.
    text_only = schema_change_of(
        RuntimeError("StreamingQueryException: [SPARK_DRILL_STREAM_SCHEMA_CHANGED] x")
    )
    assert text_only is not None and text_only.file is None and text_only.parameters == {}
    assert schema_change_of(RuntimeError("[SPARK_DRILL_STREAM_STALE_SCHEMA] y")) is None


def test_any_spark_drill_class_is_read_from_the_cause_chain_with_its_parameters() -> None:
    from spark_drill._errors import drill_error_of

    lease = _JavaLike(
        "SPARK_DRILL_STREAM_LEASE_HELD",
        {"lease": "/chk/lease", "holder": "1@h"},
        "[SPARK_DRILL_STREAM_LEASE_HELD] Another query is running on this checkpoint",
    )
    error = RuntimeError("py4j")
    error.java_exception = _JavaLike(None, {}, "top", lease)  # type: ignore[attr-defined]
    found = drill_error_of(error)
    assert found is not None and found.condition == "SPARK_DRILL_STREAM_LEASE_HELD"
    assert found.parameters == {"lease": "/chk/lease", "holder": "1@h"}
    assert found.message == "Another query is running on this checkpoint"
    assert drill_error_of(error, "SPARK_DRILL_STREAM_SCHEMA_CHANGED") is None
