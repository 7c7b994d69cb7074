"""sd.read's typed keywords: what they send (without Spark), what they refuse, and what each option does to
the DataFrame (through Spark)."""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyspark
import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.types import IntegerType, StringType, StructField, StructType

import spark_drill as sd
from conftest import write_files
from scan_metrics import scan_metrics
from spark_drill._options import OPTIONS, Option, kind, takes

# --- without Spark: a reader that records what it is given --------------------------------------------------


class RecordingReader:
    def __init__(self) -> None:
        self.source: str | None = None
        self.defined: Any = None
        self.sent: dict[str, str] = {}
        self.paths: Any = None

    def format(self, source: str) -> RecordingReader:
        self.source = source
        return self

    def schema(self, schema: Any) -> RecordingReader:
        self.defined = schema
        return self

    def options(self, **options: str) -> RecordingReader:
        self.sent.update(options)
        return self

    def load(self, paths: Any) -> RecordingReader:
        self.paths = paths
        return self


class ConnectLikeSession:
    """Looks like a Spark Connect session (sd.read must not touch Py4J for it)."""

    def __init__(self) -> None:
        self.read = RecordingReader()


ConnectLikeSession.__module__ = "pyspark.sql.connect.session"


def sent(**keywords: Any) -> dict[str, str]:
    reader: RecordingReader = sd.read(ConnectLikeSession(), "data", **keywords)  # type: ignore[arg-type]
    assert reader.source == "drill"
    return reader.sent


SAMPLE_VALUES: dict[str, tuple[Any, str]] = {
    "boolean": (True, "true"),
    "int": (7, "7"),
    "string": ("x", "x"),
    "timestamp": (dt.datetime(2024, 1, 31, 12, 0), "2024-01-31T12:00:00"),
    "schema": ({"a": "int"}, "`a` int"),
}


def sample(option: Option) -> tuple[Any, str]:
    if kind(option) == "enum":
        value = option.type.__args__[-1]
        return value, value
    return SAMPLE_VALUES[kind(option)]


BATCH = [o for o in OPTIONS if takes("batch", o)]


@pytest.mark.parametrize("option", BATCH, ids=[o.snake for o in BATCH])
def test_each_keyword_is_sent_under_its_jvm_name(option: Option) -> None:
    value, text = sample(option)
    assert sent(**{option.snake: value}) == {option.jvm: text}


def test_none_sends_nothing() -> None:
    assert sent() == {}
    assert sent(header=None, mode=None) == {}


def test_provided_schema_as_ddl_mapping_or_struct_type() -> None:
    assert sent(provided_schema="id INT NOT NULL DEFAULT -1") == {
        "providedSchema": "id INT NOT NULL DEFAULT -1"
    }
    assert sent(provided_schema={"id": "int", "odd name": "date"}) == {
        "providedSchema": "`id` int, `odd name` date"
    }
    struct = StructType([StructField("id", IntegerType(), False), StructField("s", StringType())])
    assert sent(provided_schema=struct) == {"providedSchema": "`id` int NOT NULL, `s` string"}


def test_column_formats_and_hadoop_settings() -> None:
    assert sent(
        column_formats={"day": "dd/MM/yyyy"}, options={"fs.s3a.endpoint": "http://127.0.0.1:9000"}
    ) == {
        "format.day": "dd/MM/yyyy",
        "fs.s3a.endpoint": "http://127.0.0.1:9000",
    }


def test_options_mapping_takes_option_names_checked_like_keywords() -> None:
    assert sent(options={"inferTypes": "TRUE", "SEP": ";", "batch_rows": "10", "Format.Day": "d"}) == {
        "inferTypes": "true",
        "delimiter": ";",
        "batchRows": "10",
        "format.Day": "d",
    }
    # A key no option of spark-drill's has (a format plugin's own option, or a misspelling) goes to the JVM as
    # given: its option table knows every registered format's options and judges it (below, with Spark).
    assert sent(options={"inferTyps": "true", "widths": "3,5"}) == {"inferTyps": "true", "widths": "3,5"}
    with pytest.raises(ValueError, match="takes true or false"):
        sent(options={"header": "yes"})
    with pytest.raises(TypeError, match="given twice"):
        sent(header=True, options={"header": "true"})
    with pytest.raises(TypeError, match="takes a string"):
        sent(options={"fs.s3a.endpoint": 1})


def test_a_defined_schema_and_several_paths() -> None:
    reader = sd.read(ConnectLikeSession(), [Path("a"), "b"], schema="x INT")  # type: ignore[arg-type]
    assert (reader.defined, reader.paths) == ("x INT", ["a", "b"])
    assert sd.read(ConnectLikeSession(), Path("a")).paths == "a"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("keyword", "nearest"),
    [
        ("infer_typs", "infer_types"),
        ("inferTypes", "infer_types"),
        ("inferSchema", "infer_types"),
        ("infer_schema", "infer_types"),
        ("sep", "delimiter"),
        ("headr", "header"),
        ("provided_shema", "provided_schema"),
        ("column_format", "column_formats"),
        ("batchRows", "batch_rows"),
    ],
)
def test_a_misspelt_keyword_names_the_nearest(keyword: str, nearest: str) -> None:
    for function in (sd.read, sd.describe):
        with pytest.raises(
            TypeError, match=f"unexpected keyword argument '{keyword}'; did you mean {nearest}\\?"
        ):
            function(ConnectLikeSession(), "data", **{keyword: True})


def test_a_keyword_nothing_resembles_is_refused_without_a_guess() -> None:
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'zzz'$"):
        sd.read(ConnectLikeSession(), "data", zzz=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("keywords", "error", "message"),
    [
        ({"header": "true"}, TypeError, "header takes True or False, got str 'true'"),
        ({"batch_rows": True}, TypeError, "batch_rows takes an int"),
        ({"batch_rows": "10"}, TypeError, "batch_rows takes an int"),
        ({"delimiter": 1}, TypeError, "delimiter takes a string"),
        (
            {"mode": "fail"},
            ValueError,
            "PERMISSIVE, DROPMALFORMED, FAILFAST, got 'fail'; did you mean FAILFAST",
        ),
        ({"memory_mode": "heap"}, ValueError, r"memory_mode \(memoryMode\) takes one of offHeap, onHeap"),
        ({"provided_schema": 5}, TypeError, "provided_schema takes a DDL string"),
        ({"modified_after": dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)}, ValueError, "naive datetime"),
        ({"column_formats": {"d": 1}}, TypeError, "column_formats"),
    ],
)
def test_values_of_the_wrong_type_or_outside_the_choices(
    keywords: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        sd.read(ConnectLikeSession(), "data", **keywords)


def test_enum_values_are_matched_case_insensitively() -> None:
    assert sent(mode="failfast", memory_mode="ONHEAP", partition_style="Hive") == {  # type: ignore[arg-type]
        "mode": "FAILFAST",
        "memoryMode": "onHeap",
        "partitionStyle": "hive",
    }


def test_describe_only_sets_options_of_the_report_source() -> None:
    reader: RecordingReader = sd.describe(ConnectLikeSession(), "data", header=True, mode="failfast")  # type: ignore[arg-type]
    assert reader.source == "drill-describe"
    assert reader.sent == {"header": "true", "mode": "FAILFAST"} and reader.paths == ["data"]


def test_under_connect_column_parsers_say_they_need_a_classic_session() -> None:
    with pytest.raises(
        RuntimeError,
        match="Python column parsers need a classic SparkSession; this is a Spark Connect session",
    ):
        sd.register_column_parser(ConnectLikeSession(), sd.ColumnParser())  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="Python column parsers need a classic SparkSession"):
        sd.clear_column_parsers(ConnectLikeSession())  # type: ignore[arg-type]


# --- through Spark: each option changes the DataFrame -------------------------------------------------------


def rows(df: DataFrame) -> list[tuple[Any, ...]]:
    return sorted((tuple(r) for r in df.collect()), key=repr)


def types_of(df: DataFrame) -> dict[str, str]:
    return {f.name: f.dataType.simpleString() for f in df.schema.fields}


@pytest.fixture
def conf(spark: SparkSession) -> Iterator[dict[str, str]]:
    """Session settings a test sets for itself; unset afterwards."""
    settings: dict[str, str] = {}
    yield settings
    for key in settings:
        spark.conf.unset(key)


def jobs_while(spark: SparkSession, action: Any) -> list[int]:
    """The Spark jobs that `action` ran (it may raise)."""
    group = f"spark-drill-test-{time.monotonic_ns()}"
    spark.sparkContext.setJobGroup(group, "counted")
    try:
        action()
    finally:
        spark.sparkContext.setLocalProperty("spark.jobGroup.id", None)  # type: ignore[arg-type]
    return list(spark.sparkContext.statusTracker().getJobIdsForGroup(group))


def test_an_unknown_key_of_options_is_judged_by_the_jvm_before_a_job(
    spark: SparkSession, tmp_path: Path
) -> None:
    root = write_files(tmp_path, {"a.csv": "id\n1\n"})
    for function in (sd.read, sd.describe):
        for key, nearest in (("inferTyps", "inferTypes"), ("infer_typs", "inferTypes"), ("hedaer", "header")):
            errors: list[Exception] = []

            def read(function: Any = function, key: str = key, errors: list[Exception] = errors) -> None:
                try:
                    function(spark, root, options={key: "true"})
                except Exception as e:
                    errors.append(e)

            assert jobs_while(spark, read) == [], (function, key)
            assert len(errors) == 1, (function, key)
            assert f"unknown option '{key}'; did you mean {nearest}?" in str(errors[0]), errors[0]


def test_header(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "x,y\n1,2\n"})
    named = sd.read(spark, tmp_path, header=True)
    assert (named.columns, rows(named)) == (["x", "y"], [("1", "2")])
    plain = sd.read(spark, tmp_path)
    assert (plain.columns, rows(plain)) == (["columns"], [(["1", "2"],), (["x", "y"],)])


def test_delimiter_quote_escape_comment(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"d/a.csv": "x;y\n1;2\n"})
    assert rows(sd.read(spark, tmp_path / "d", header=True, delimiter=";")) == [("1", "2")]
    assert sd.read(spark, tmp_path / "d", header=True).columns == ["x;y"]
    write_files(tmp_path, {"q/a.csv": "x,y\n'1,5',2\n"})
    assert rows(sd.read(spark, tmp_path / "q", header=True, quote="'")) == [("1,5", "2")]
    assert rows(sd.read(spark, tmp_path / "q", header=True)) == [("'1", "5'")]
    write_files(tmp_path, {"e/a.csv": 'x\n"a\\"b"\n'})
    assert rows(sd.read(spark, tmp_path / "e", header=True, escape="\\")) == [('a"b',)]
    write_files(tmp_path, {"c/a.csv": "x\n#note\n1\n"})
    assert rows(sd.read(spark, tmp_path / "c", header=True, comment="#")) == [("1",)]
    assert rows(sd.read(spark, tmp_path / "c", header=True)) == [("#note",), ("1",)]


def test_line_delimiter_and_skip_first_line(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"l/a.csv": "x;1;2;"})
    assert rows(sd.read(spark, tmp_path / "l", header=True, line_delimiter=";")) == [("1",), ("2",)]
    write_files(tmp_path, {"s/a.csv": "exported 2024-01-31\nx\n1\n"})
    skipped = sd.read(spark, tmp_path / "s", header=True, skip_first_line=True)
    assert (skipped.columns, rows(skipped)) == (["x"], [("1",)])


def test_null_value_and_empty_value(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": 'x,y\nNA,""\n'})
    assert rows(sd.read(spark, tmp_path, header=True)) == [("NA", "")]
    assert rows(sd.read(spark, tmp_path, header=True, null_value="NA", empty_value="(empty)")) == [
        (None, "(empty)")
    ]


def test_date_timestamp_formats_and_time_zone(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "d,t,e\n31/01/2024,31/01/2024 10:30,31.01.2024\n"})
    df = sd.read(
        spark,
        tmp_path,
        header=True,
        provided_schema="d DATE, t TIMESTAMP, e DATE",
        date_format="dd/MM/yyyy",
        timestamp_format="dd/MM/yyyy HH:mm",
        column_formats={"e": "dd.MM.yyyy"},
    )
    got = df.selectExpr("d", "cast(t AS string)", "e").collect()
    assert [tuple(r) for r in got] == [(dt.date(2024, 1, 31), "2024-01-31 10:30:00", dt.date(2024, 1, 31))]
    write_files(tmp_path, {"z/a.csv": "t\n2024-01-31 09:00:00\n"})
    tokyo = sd.read(spark, tmp_path / "z", header=True, provided_schema="t TIMESTAMP", time_zone="Asia/Tokyo")
    assert tokyo.selectExpr("cast(t AS string)").collect()[0][0] == "2024-01-31 00:00:00"  # session zone UTC


def test_infer_types_and_sample_rows(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "n,s\n1,a\nx,b\n"})
    assert types_of(sd.read(spark, tmp_path, header=True)) == {"n": "string", "s": "string"}
    assert types_of(sd.read(spark, tmp_path, header=True, infer_types=True)) == {"n": "string", "s": "string"}
    first_row_only = sd.read(spark, tmp_path, header=True, infer_types=True, sample_rows=1)
    assert types_of(first_row_only) == {"n": "int", "s": "string"}
    assert rows(first_row_only) == [(1, "a"), (None, "b")]


def test_provided_schema_as_ddl_mapping_and_struct_type(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "a,b\n1,x\n,y\n"})
    for provided in ("a INT", {"a": "int"}, StructType([StructField("a", IntegerType())])):
        df = sd.read(spark, tmp_path, header=True, provided_schema=provided)
        assert types_of(df) == {"a": "int", "b": "string"}, provided
        assert rows(df) == [(1, "x"), (None, "y")], provided
    not_null = sd.read(
        spark, tmp_path, header=True, provided_schema=StructType([StructField("a", IntegerType(), False)])
    )
    assert rows(not_null) == [(0, "y"), (1, "x")]  # NOT NULL without a default: the type's zero
    strict = sd.read(spark, tmp_path, header=True, provided_schema={"a": "int"}, strict_schema=True)
    assert strict.columns == ["a"]


def test_defined_schema(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "a,b\n1,x\n"})
    df = sd.read(spark, tmp_path, header=True, schema="b STRING, a INT, z DOUBLE")
    assert (df.columns, rows(df)) == (["b", "a", "z"], [("x", 1, None)])


def test_schema_mode_and_type_conflict(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "x\n1\n", "b.csv": "x,y\n1.5,3\n"})
    assert sd.read(spark, tmp_path, header=True).columns == ["x", "y"]
    assert sd.read(spark, tmp_path, header=True, schema_mode="strict").columns == ["x"]
    with pytest.raises(Exception, match="schemaMode=fail"):
        sd.read(spark, tmp_path, header=True, schema_mode="fail")
    assert types_of(sd.read(spark, tmp_path, header=True, infer_types=True))["x"] == "double"
    with pytest.raises(Exception, match="typeConflict=fail"):
        sd.read(spark, tmp_path, header=True, infer_types=True, type_conflict="fail")


def test_project(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"d/a.csv": "x,y\n1,2\n"})
    df = sd.read(spark, tmp_path, header=True, project="y, filename, dir0, nope")
    assert df.columns == ["y", "filename", "dir0", "nope"]
    assert rows(df) == [("2", "a.csv", "d", None)]


def test_partition_label_columns_and_style(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"2024/01/a.csv": "v\n1\n"})
    assert sd.read(spark, tmp_path, header=True).columns == ["v", "dir0", "dir1"]
    assert sd.read(spark, tmp_path, header=True, partition_label="level").columns == ["v", "level0", "level1"]
    assert sd.read(spark, tmp_path, header=True, partition_columns=False).columns == ["v"]
    write_files(tmp_path / "h", {"year=2024/a.csv": "v\n2\n"})
    hive = sd.read(spark, tmp_path / "h", header=True, partition_style="hive")
    assert (hive.columns, rows(hive)) == (["v", "year"], [("2", "2024")])


def test_file_column_labels(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"d/a.csv": "x\n1\n"})
    df = sd.read(
        spark,
        tmp_path,
        header=True,
        filename_label="name",
        filepath_label="folder",
        fqn_label="full",
        suffix_label="ext",
        lmt_label="modified",
    )
    got = df.select("name", "folder", "full", "ext").collect()
    assert [tuple(r) for r in got] == [("a.csv", f"{tmp_path}/d", f"{tmp_path}/d/a.csv", "csv")]
    assert df.select("modified").schema.fields[0].dataType.simpleString() == "timestamp"


def test_mode_and_the_corrupt_record_column(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "id\n1\nfoo\n"})
    assert rows(sd.read(spark, tmp_path, header=True, provided_schema="id INT")) == [(1,), (None,)]
    assert rows(sd.read(spark, tmp_path, header=True, provided_schema="id INT", mode="DROPMALFORMED")) == [
        (1,)
    ]
    with pytest.raises(sd.ScanError):
        sd.read(spark, tmp_path, header=True, provided_schema="id INT", mode="FAILFAST").collect()
    kept = sd.read(
        spark, tmp_path, header=True, provided_schema="id INT", column_name_of_corrupt_record="_bad"
    )
    assert (kept.columns, rows(kept)) == (["id", "_bad"], [(1, None), (None, "foo")])


def test_rescued_data_column_and_validate(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "id,s\n1,a,extra\nfoo,b\n"})
    rescued = sd.read(spark, tmp_path, header=True, rescued_data_column="_rescued")
    assert rescued.columns == ["id", "s", "_rescued"]
    extra = [r._rescued for r in rescued.collect() if r._rescued is not None]
    assert len(extra) == 1 and json.loads(extra[0])["column_3"] == "extra"
    typed = {"header": True, "provided_schema": "id INT", "mode": "DROPMALFORMED"}
    assert sd.read(spark, tmp_path, **typed).select("s").count() == 2  # type: ignore[arg-type]
    assert sd.read(spark, tmp_path, validate="all", **typed).select("s").count() == 1  # type: ignore[arg-type]


def test_format_reads_files_whatever_their_suffix(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"t/a.txt": "x\n1\n", "j/a.txt": '{"x": 2}\n'})
    assert rows(sd.read(spark, tmp_path / "t", header=True, format="csv")) == [("1",)]
    as_json = sd.read(spark, tmp_path / "j", format="json")
    assert (types_of(as_json), rows(as_json)) == ({"x": "bigint"}, [(2,)])


def test_path_glob_filter_and_modification_times(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a_old.csv": "x\n1\n", "b_new.csv": "x\n2\n"})
    long_ago = time.mktime((2020, 1, 1, 0, 0, 0, 0, 0, -1))
    os.utime(tmp_path / "a_old.csv", (long_ago, long_ago))
    assert rows(sd.read(spark, tmp_path, header=True, path_glob_filter="b*")) == [("2",)]
    before = sd.read(spark, tmp_path, header=True, modified_before=dt.datetime(2021, 1, 1))
    assert rows(before) == [("1",)]
    assert rows(sd.read(spark, tmp_path, header=True, modified_after="2021-01-01T00:00:00")) == [("2",)]


def test_ignore_missing_files_and_recursive_file_lookup(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"ok/a.csv": "x\n1\n", "ok/deep/b.csv": "x\n2\n"})
    paths = [tmp_path / "nope", tmp_path / "ok"]
    with pytest.raises(Exception, match="ignoreMissingFiles"):
        sd.read(spark, paths, header=True)
    assert rows(sd.read(spark, paths, header=True, ignore_missing_files=True).select("x")) == [("1",), ("2",)]
    recursive = sd.read(spark, tmp_path / "ok", header=True, recursive_file_lookup=True).select("x")
    assert rows(recursive) == [("1",), ("2",)]
    with pytest.raises(Exception, match="recursiveFileLookup=false"):
        sd.read(spark, tmp_path / "ok", header=True, recursive_file_lookup=False)


def test_ignore_corrupt_files(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "x\n1\n", "b.csv.gz": b"\x1f\x8b\x08\x00 not gzip data"})
    with pytest.raises(sd.ScanError, match=r"b\.csv\.gz"):
        sd.read(spark, tmp_path, header=True)
    assert rows(sd.read(spark, tmp_path, header=True, ignore_corrupt_files=True).select("x")) == [("1",)]


def test_max_record_text_bytes_caps_the_corrupt_and_rescued_columns(
    spark: SparkSession, tmp_path: Path
) -> None:
    long = "z" * 5000
    write_files(tmp_path, {"a.csv": f'x,y\n"{long}\n', "b.csv": f"x,y\n1,2,{long}\n"})
    keep = {"column_name_of_corrupt_record": "_bad", "rescued_data_column": "_rescued"}
    whole = sd.read(spark, tmp_path, header=True, **keep).collect()  # type: ignore[arg-type]
    assert len(whole) == 2 and all(len(r._bad or r._rescued) > 5000 for r in whole)
    capped = sd.read(
        spark,
        tmp_path,
        header=True,
        max_record_text_bytes=100,
        **keep,  # type: ignore[arg-type]
    ).collect()
    assert len(capped) == 2
    for r in capped:
        text = r._bad or r._rescued
        assert text.endswith("more bytes; maxRecordTextBytes)") and len(text.split("...")[0]) == 100


def test_multi_line_reads_files_whole(spark: SparkSession, tmp_path: Path, conf: dict[str, str]) -> None:
    body = "".join(f'{i},"line one\nline two {i}"\n' for i in range(100))
    write_files(tmp_path, {"multi.csv": "id,text\n" + body})
    conf["spark.sql.files.maxPartitionBytes"] = "64"
    spark.conf.set("spark.sql.files.maxPartitionBytes", "64")
    with pytest.raises(Exception, match="multiLine=true"):
        sd.read(spark, tmp_path, header=True).collect()
    whole = sd.read(spark, tmp_path, header=True, multi_line=True)
    assert whole.rdd.getNumPartitions() == 1
    assert sorted(int(r.id) for r in whole.collect()) == list(range(100))


def test_discovery_parallelism(spark: SparkSession, tmp_path: Path) -> None:
    # Off Hadoop's LocalFileSystem (its raw one here), parallel discovery is a Spark job: from 2 files on
    # with the keyword, not below the default of 32.
    write_files(tmp_path, {f"f{i}.csv": f"k\n{i}\n" for i in range(3)})
    other_fs = {
        "fs.file.impl": "org.apache.hadoop.fs.RawLocalFileSystem",
        "fs.file.impl.disable.cache": "true",
    }
    sc = spark.sparkContext
    for group, parallelism, jobs in (
        ("discovery-parallelism-2", 2, True),
        ("discovery-parallelism-default", None, False),
    ):
        sc.setJobGroup(group, "discovery")
        try:
            df = sd.read(spark, tmp_path, header=True, options=other_fs, discovery_parallelism=parallelism)
            assert bool(sc.statusTracker().getJobIdsForGroup(group)) == jobs, parallelism
        finally:
            sc.setJobGroup("after-" + group, "other")
        assert rows(df) == [("0",), ("1",), ("2",)]


def test_batch_rows_batch_bytes_and_memory_mode_give_the_same_rows(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(tmp_path, {"a.csv": "id,text\n" + "".join(f"{i},{'v' * 40}{i}\n" for i in range(10))})
    default = sd.read(spark, tmp_path, header=True)
    expected = rows(default)
    batches = scan_metrics(default)["batches"]
    for keywords in ({"batch_rows": 3}, {"batch_bytes": 128}, {"memory_mode": "onHeap"}):
        df = sd.read(spark, tmp_path, header=True, **keywords)  # type: ignore[arg-type]
        assert rows(df) == expected, keywords
        if "memory_mode" not in keywords:
            assert scan_metrics(df)["batches"] > batches, keywords


def test_json_all_text_mode_and_numbers_as_double(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.json": '{"n": 1, "f": 5.20, "b": true}\n'})
    assert rows(sd.read(spark, tmp_path)) == [(1, 5.2, True)]
    assert rows(sd.read(spark, tmp_path, all_text_mode=True)) == [("1", "5.20", "true")]
    doubles = sd.read(spark, tmp_path, read_numbers_as_double=True)
    assert (types_of(doubles), rows(doubles)) == (
        {"n": "double", "f": "double", "b": "boolean"},
        [(1.0, 5.2, True)],
    )


def test_json_max_record_bytes(spark: SparkSession, tmp_path: Path) -> None:
    big = '{"n": 2, "s": "' + "x" * 50_000 + '"}'
    write_files(tmp_path, {"a.json": '{"n": 1, "s": "a"}\n' + big + "\n"})
    assert [r[0] for r in rows(sd.read(spark, tmp_path, max_record_bytes=100_000))] == [1, 2]
    with pytest.raises(sd.ScanError, match=r"larger than maxRecordBytes \(20000 bytes\)") as err:
        sd.read(spark, tmp_path, max_record_bytes=20_000).collect()
    assert err.value.line == 2 and err.value.file is not None and err.value.file.endswith("a.json")


def test_excel_sheet_data_address_and_max_workbook_bytes(spark: SparkSession, tmp_path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.title = "first"
    wb.active.append(["x"])
    wb.active.append([0])
    later = wb.create_sheet("2024-01")
    for row in (["title"], [], [None, "id", "name"], [None, 1, "ann"], [None, 2, "bob"]):
        later.append(row)
    wb.save(tmp_path / "a.xlsx")
    assert rows(sd.read(spark, tmp_path, format="excel")) == [(0,)]  # the first sheet by default
    ranged = sd.read(spark, tmp_path, format="excel", sheet="2024-*", data_address="B3:C4")
    assert (types_of(ranged), rows(ranged)) == ({"id": "bigint", "name": "string"}, [(1, "ann")])
    # The bound is .xls's, read whole; an .xlsx sheet is streamed whatever its size.
    assert len(rows(sd.read(spark, tmp_path, format="excel", sheet="*", max_workbook_bytes=100))) == 4


def test_json_map_inference_threshold_and_max_schema_fields(spark: SparkSession, tmp_path: Path) -> None:
    # Two files whose `m` objects hold three distinct keys between them.
    write_files(tmp_path, {"a.json": '{"m": {"x": 1, "y": 2}}\n', "b.json": '{"m": {"z": 3}}\n'})
    assert types_of(sd.read(spark, tmp_path)) == {"m": "struct<x:bigint,y:bigint,z:bigint>"}
    as_map = sd.read(spark, tmp_path, map_inference_threshold=2)
    assert types_of(as_map) == {"m": "map<string,bigint>"}
    assert sorted(sorted(r[0].items()) for r in rows(as_map)) == [[("x", 1), ("y", 2)], [("z", 3)]]
    assert types_of(sd.read(spark, tmp_path, map_inference_threshold=-1, max_schema_fields=3)) == {
        "m": "struct<x:bigint,y:bigint,z:bigint>"
    }
    with pytest.raises(
        Exception, match=r"3 leaf fields, more than maxSchemaFields=2; its widest member is 'm'"
    ):
        sd.read(spark, tmp_path, max_schema_fields=2)


def test_discovery_cache_keywords(spark: SparkSession, tmp_path: Path) -> None:
    data = write_files(tmp_path / "d", {"a.csv": "id,x\n1,a\n"})
    changed = data / "a.csv"
    before = changed.stat()
    assert sd.read(spark, data, header=True).columns == ["id", "x"]
    # Rewritten with the same length and its old time put back (cp -p, rsync -t): no cache can tell,
    # so the session's serves the old header, as docs/options.md says; session_schema_cache=False reads it.
    changed.write_text("id,y\n1,a\n")
    os.utime(changed, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert sd.read(spark, data, header=True).columns == ["id", "x"]
    assert sd.read(spark, data, header=True, session_schema_cache=False).columns == ["id", "y"]
    cache = tmp_path / "cache"
    fresh = sd.read(spark, data, header=True, session_schema_cache=False, schema_cache=str(cache))
    assert fresh.columns == ["id", "y"]
    assert list(cache.glob("*.sdcache")), "the schemas went into the directory"


def test_hadoop_settings_reach_the_file_system(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "x\n1\n"})
    # An unknown scheme's implementation class, given for this read only: the listing fails naming it.
    with pytest.raises(Exception, match=r"no\.such\.FileSystem"):
        sd.read(spark, f"nosuch://{tmp_path}", header=True, options={"fs.nosuch.impl": "no.such.FileSystem"})
    assert rows(sd.read(spark, tmp_path, header=True, options={"fs.file.impl.disable.cache": "true"})) == [
        ("1",)
    ]


def test_the_log_options_read_a_log(spark: SparkSession, tmp_path: Path) -> None:
    (tmp_path / "a.log").write_text('h - - [t] "GET / HTTP/1.1" 200 5\nnot a log line\n')
    common = sd.read(spark, tmp_path, log_pattern="common", mode="DROPMALFORMED")
    assert [(r.host, r.status) for r in common.collect()] == [("h", "200")]
    regex = sd.read(spark, tmp_path, format="log", regex=r"^(?<first>\S+) .*$")
    assert sorted(r.first for r in regex.collect()) == ["h", "not"]


@pytest.mark.skipif(int(pyspark.__version__.split(".")[0]) < 4, reason="VARIANT is Spark 4's (SPEC 14)")
def test_the_variant_options_read_json(spark: SparkSession, tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"id": 1, "attrs": {"k": [1, 2]}, "extra": "x"}\n')
    single = sd.read(spark, tmp_path, single_variant_column="v")
    assert single.columns == ["v"]
    assert single.selectExpr("to_json(v)").head()[0] == '{"attrs":{"k":[1,2]},"extra":"x","id":1}'
    rescued = sd.read(
        spark,
        tmp_path,
        provided_schema="id BIGINT, attrs VARIANT",
        strict_schema=True,
        rescued_data_column="_rescued",
        rescued_data_type="variant",
    )
    row = rescued.selectExpr("id", "to_json(attrs)", "variant_get(_rescued, '$.extra', 'string')").head()
    assert tuple(row) == (1, '{"k":[1,2]}', "x")


def test_every_option_is_exercised_through_spark_above() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    through_spark = source[
        source.index("# --- through Spark") : source.index("def test_every_option_is_exercised")
    ]
    missing = [
        o.snake for o in BATCH if f"{o.snake}=" not in through_spark and f'"{o.snake}":' not in through_spark
    ]
    assert missing == []
