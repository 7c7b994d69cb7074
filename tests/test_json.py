"""The JSON reader through PySpark: drifting files, nesting, pruning, modes, rescued data, positions."""

from __future__ import annotations

import datetime as dt
import decimal
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import DataFrame, SparkSession

import spark_drill as sd
from conftest import write_files
from scan_metrics import scan_metrics


def drill(spark: SparkSession, path: Path | str, **options: str) -> DataFrame:
    reader = spark.read.format("drill")
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load(str(path))


def rows(df: DataFrame) -> list[tuple[Any, ...]]:
    return sorted((tuple(r) for r in df.collect()), key=repr)


@pytest.mark.compat
def test_files_with_drifting_fields_are_unioned_by_name(spark: SparkSession, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "2024/01/a.json": '{"id": 1, "name": "ann", "score": 1}\n{"id": 2, "name": "bob"}\n',
            "2024/02/b.jsonl": '{"ID": 3, "score": 2.5, "tags": ["x", "y"], '
            '"dev": {"os": "linux", "w": 10}}\n',
            "2025/c.ndjson": '{" id ": 4, "ok": true, "dev": {"w": 20, "h": 5}}\n',
        },
    )
    df = drill(spark, tmp_path)
    assert df.columns == ["id", "name", "score", "tags", "dev", "ok", "dir0", "dir1"]
    types = {f.name: f.dataType.simpleString() for f in df.schema.fields}
    assert types == {
        "id": "bigint",
        "name": "string",
        "score": "double",  # 1 then 2.5: numbers widen, never round
        "tags": "array<string>",
        "dev": "struct<os:string,w:bigint,h:bigint>",
        "ok": "boolean",
        "dir0": "string",
        "dir1": "string",
    }
    got = {r.id: r for r in df.collect()}
    assert got[1].score == 1.0 and got[1].tags is None and got[1].dev is None
    assert got[2].name == "bob" and got[2].score is None
    assert got[3].tags == ["x", "y"] and got[3].dev.os == "linux" and got[3].dev.h is None
    assert got[4].ok is True and got[4].dev.w == 20 and (got[4].dir0, got[4].dir1) == ("2025", None)


def test_struct_members_are_selected_by_path_and_only_those_are_converted(
    spark: SparkSession, tmp_path: Path
) -> None:
    # sampleRows=1 types m.bad as bigint from the first record; the second record's m.bad is not a number.
    write_files(
        tmp_path,
        {
            "m.json": '{"m": {"a": 1, "bad": 2, "deep": {"x": 1}}}\n'
            '{"m": {"a": 2, "bad": "oops", "deep": {"x": 2}}}\n'
        },
    )
    df = drill(spark, tmp_path, sampleRows="1", mode="FAILFAST")
    out = df.select("m.a", "m.deep.x")
    assert rows(out) == [(1, 1), (2, 2)]
    with pytest.raises(sd.ScanError) as err:
        df.select("m.bad").collect()
    assert err.value.column == "m.bad" and err.value.value == "oops" and err.value.line == 2
    # The project option keeps the structure with only the listed members; a missing member is a null.
    projected = drill(spark, tmp_path, sampleRows="1", mode="FAILFAST", project="m.a, m.nope")
    assert projected.schema.simpleString() == "struct<m:struct<a:bigint,nope:string>>"
    assert [r.m.asDict() for r in projected.orderBy("m.a").collect()] == [
        {"a": 1, "nope": None},
        {"a": 2, "nope": None},
    ]


def test_arrays_nested_and_of_structs(spark: SparkSession, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "n.json": '{"g": [[1, 2], [3]], "s": [{"k": "a", "v": [1]}, {"k": "b"}], "e": []}\n'
            '{"g": [], "s": null, "e": [null]}\n'
            '{"g": [[4]], "s": [{"v": [2, 3]}], "e": 5}\n',
        },
    )
    df = drill(spark, tmp_path)
    types = {f.name: f.dataType.simpleString() for f in df.schema.fields}
    assert types == {
        "g": "array<array<bigint>>",
        "s": "array<struct<k:string,v:array<bigint>>>",
        "e": "array<bigint>",
    }
    got = [r.asDict(recursive=True) for r in df.collect()]
    assert got[0] == {
        "g": [[1, 2], [3]],
        "s": [{"k": "a", "v": [1]}, {"k": "b", "v": None}],
        "e": [],
    }
    assert got[1] == {"g": [], "s": None, "e": [None]}
    assert got[2] == {"g": [[4]], "s": [{"k": None, "v": [2, 3]}], "e": [5]}  # a scalar in an array column


def test_scalar_against_structure_becomes_json_text(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.json": '{"v": {"b": 1}}\n', "b.json": '{"v": [1, "x"]}\n{"v": 7}\n'})
    df = drill(spark, tmp_path)
    assert df.schema["v"].dataType.simpleString() == "string"
    assert sorted(r.v for r in df.collect()) == ["7", '[1,"x"]', '{"b":1}']


def test_input_forms_root_array_concatenated_multiline_empty_and_gzip(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(
        tmp_path,
        {
            "array.json": '[{"a": 1}, {"a": 2}]',
            "pretty.json": '{\n  "a": 3\n}\n{"a": 4} {"a": 5}\n',
            "empty.json": "",
            "unquoted.json": "{a: 6, b: NaN}\n",
        },
    )
    (tmp_path / "z.json.gz").write_bytes(gzip.compress(b'{"a": 7}\n'))
    df = drill(spark, tmp_path)
    assert sorted(r.a for r in df.collect()) == [1, 2, 3, 4, 5, 6, 7]
    assert df.count() == 7
    b = [r.b for r in df.collect() if r.b is not None]
    assert len(b) == 1 and b[0] != b[0]  # NaN


def test_line_and_offset_of_each_record(spark: SparkSession, tmp_path: Path) -> None:
    text = '{"a": 1}\n\n{\n "a": 2\n}\n   {"a": 3}\n'
    write_files(tmp_path, {"p.json": text})
    got = rows(drill(spark, tmp_path).select("a", "_line", "_offset"))
    assert got == [(1, 1, 0), (2, 3, text.index("{\n")), (3, 6, text.index('{"a": 3}'))]


def test_broken_json_per_mode_and_reading_goes_on(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"b.json": '{"a": 1, "s": "x"}\n{"a": 2, "s": \n{"a": 3, "s": "z"}\n'})
    permissive = drill(spark, tmp_path, columnNameOfCorruptRecord="_corrupt")
    got = sorted((tuple(r) for r in permissive.collect()), key=lambda r: r[0] or 0)
    assert got == [(None, None, '{"a": 2, "s":'), (1, "x", None), (3, "z", None)]
    assert sorted(r.a for r in drill(spark, tmp_path, mode="DROPMALFORMED").collect()) == [1, 3]
    with pytest.raises(sd.ScanError) as err:
        drill(spark, tmp_path, mode="FAILFAST").collect()
    assert err.value.file is not None and err.value.file.endswith("b.json")
    assert err.value.line == 2 and "malformed JSON" in str(err.value)


def test_a_value_that_does_not_convert_per_mode(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"c.json": '{"n": 1, "t": "a"}\n{"n": "x1", "t": "b"}\n{"n": "7", "t": "c"}\n'})
    schema = "n bigint, t string"
    permissive = spark.read.format("drill").schema(schema).load(str(tmp_path))
    assert rows(permissive) == [(1, "a"), (7, "c"), (None, "b")]  # a numeric string converts
    dropped = spark.read.format("drill").schema(schema).option("mode", "DROPMALFORMED").load(str(tmp_path))
    assert rows(dropped) == [(1, "a"), (7, "c")]
    failing = spark.read.format("drill").schema(schema).option("mode", "FAILFAST").load(str(tmp_path))
    with pytest.raises(sd.ScanError) as err:
        failing.collect()
    assert (err.value.column, err.value.value, err.value.line) == ("n", "x1", 2)


def test_provided_schema_types(spark: SparkSession, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "t.json": '{"d": "2024-01-31", "ts": "2024-01-31 12:00:00", "ms": 1706702400000, '
            '"p": "12.345", "b": "true"}\n'
        },
    )
    df = drill(
        spark, tmp_path, providedSchema="d date, ts timestamp, ms timestamp, p decimal(6,2), b boolean"
    )
    assert rows(df) == [
        (
            dt.date(2024, 1, 31),
            dt.datetime(2024, 1, 31, 12, 0),
            dt.datetime(2024, 1, 31, 12, 0),
            decimal.Decimal("12.35"),
            True,
        )
    ]


def test_keys_beyond_the_sample_are_counted_or_rescued(spark: SparkSession, tmp_path: Path) -> None:
    # Three records repeat the unknown keys: after the first, members are matched by the order first seen,
    # and each one is still counted or rescued, not skipped as a table column's would be.
    extra = [f'{{"a": {n}, "extra": {{"x": [{n}]}}, "more": "m{n}"}}' for n in (2, 3, 4)]
    write_files(tmp_path, {"r.json": "\n".join(['{"a": 1}', *extra]) + "\n"})
    plain = drill(spark, tmp_path, sampleRows="1")
    assert rows(plain) == [(1,), (2,), (3,), (4,)]
    assert scan_metrics(plain)["droppedValues"] == 6
    assert plain.count() == 4
    kept = drill(spark, tmp_path, sampleRows="1", rescuedDataColumn="_rescued_data")
    got = sorted(kept.collect(), key=lambda r: r.a)
    assert got[0]._rescued_data is None
    for n, row in zip((2, 3, 4), got[1:], strict=True):
        assert json.loads(row._rescued_data) == {
            "extra": {"x": [n]},
            "more": f"m{n}",
            "_file": f"{tmp_path}/r.json",
            "_line": n,
        }


def test_a_value_that_does_not_convert_is_rescued_not_lost(spark: SparkSession, tmp_path: Path) -> None:
    # PERMISSIVE nulls the column; the rescued-data column keeps the value (a string as a string, other
    # JSON as JSON), by the column's path, as text does.
    write_files(tmp_path, {"r.json": '{"n": 1, "s": {"d": "x"}}\n{"n": "two", "s": {"d": [1]}}\n'})
    df = drill(spark, tmp_path, providedSchema="n INT, s STRUCT<d: INT>", rescuedDataColumn="_rescued_data")
    got = sorted(df.select("n", "s", "_rescued_data", "_line").collect(), key=lambda r: r._line)
    rescued = [json.loads(r._rescued_data) for r in got]
    assert [r.n for r in got] == [1, None]
    assert rescued[0]["s.d"] == "x" and rescued[1] == {
        "n": "two",
        "s.d": [1],
        "_file": f"{tmp_path}/r.json",
        "_line": 2,
    }


def test_a_column_another_file_has_is_not_dropped_when_not_selected(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(tmp_path, {"a.json": '{"a": 1, "b": 2}\n', "b.json": '{"a": 3, "b": 4}\n'})
    df = drill(spark, tmp_path).select("a")
    assert rows(df) == [(1,), (3,)]
    assert scan_metrics(df)["droppedValues"] == 0


def test_mixed_csv_and_json_in_one_directory(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.csv": "id,x\n1,p\n", "b.json": '{"id": "2", "y": true}\n'})
    df = drill(spark, tmp_path, header="true")
    assert df.columns == ["id", "x", "y"]
    assert rows(df.select("id", "x", "y", "suffix")) == [("1", "p", None, "csv"), ("2", None, True, "json")]


def test_numbers_as_double(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"n.json": '{"a": 1, "b": [2]}\n{"a": 3, "b": []}\n'})
    df = drill(spark, tmp_path, readNumbersAsDouble="true")
    assert {f.name: f.dataType.simpleString() for f in df.schema.fields} == {
        "a": "double",
        "b": "array<double>",
    }
    assert rows(df) == [(1.0, [2.0]), (3.0, [])]


def test_all_text_mode_and_count(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"t.json": '{"a": 5.20, "b": [1, 2]}\n{"a": 6, "b": null}\n'})
    df = drill(spark, tmp_path, allTextMode="true")
    assert {f.name: f.dataType.simpleString() for f in df.schema.fields} == {
        "a": "string",
        "b": "array<string>",
    }
    assert rows(df) == [("5.20", ["1", "2"]), ("6", None)]
    assert df.count() == 2


@pytest.mark.compat
def test_the_readme_json_example(spark: SparkSession) -> None:
    from conftest import REPO

    df = spark.read.format("drill").load(str(REPO / "samples" / "events"))
    got = [
        tuple(r) for r in df.select("id", "user.name", "score", "dir0", "filename").orderBy("id").collect()
    ]
    assert got == [
        (1, "ann", None, "2024", "a.json"),
        (2, "bob", 1.5, "2024", "a.json"),
        (3, "cy", 2.0, None, "b.json"),
    ]


def test_provided_schema_defaults_and_named_binding(spark: SparkSession, tmp_path: Path) -> None:
    # A provided schema on JSON adds to the sampled columns (JSON names its fields: nothing binds by
    # position), and a NOT NULL column's DEFAULT fills records that lack the key.
    write_files(tmp_path, {"s.json": '{"id": "7", "day": "2024-01-31", "x": 1.5}\n{"x": 2}\n'})
    df = drill(spark, tmp_path, providedSchema="id INT NOT NULL DEFAULT -1")
    assert [(f.name, f.dataType.simpleString()) for f in df.schema.fields] == [
        ("id", "int"),
        ("day", "string"),
        ("x", "double"),
    ]
    assert [tuple(r) for r in df.collect()] == [(7, "2024-01-31", 1.5), (-1, None, 2.0)]


def test_an_array_element_that_does_not_convert_is_named_by_index(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(tmp_path, {"v.json": '{"n": {"list": [1, 2]}}\n{"n": {"list": [3, "x"]}}\n'})
    with pytest.raises(sd.ScanError) as err:
        drill(spark, tmp_path, sampleRows="1", mode="FAILFAST").collect()
    assert (err.value.line, err.value.column, err.value.value) == (2, "n.list[1]", "x")


@pytest.mark.parametrize(
    ("record", "column"),
    [
        ('{"a": [{"x": 1}, {"x": 2}, {"x": "no"}]}', "a[2].x"),
        ('{"m": {"k": [1], "j": [2, "no"]}}', "m{}[1]"),
        ('{"d": {"e": {"f": "no"}}}', "d.e.f"),
        ('{"a": {"x": "no"}}', "a[0].x"),  # an object where an array is: a one-element array
        ('{"q": "no"}', "q"),
    ],
)
def test_a_nested_value_that_does_not_convert_is_named_by_its_path(
    spark: SparkSession, tmp_path: Path, record: str, column: str
) -> None:
    # The first record is good, so a path left over from it would show.
    good = '{"a": [{"x": 1}], "m": {"k": [1]}, "d": {"e": {"f": 1}}, "q": 1}'
    write_files(tmp_path, {"v.json": good + "\n" + record + "\n"})
    schema = "a ARRAY<STRUCT<x: INT>>, m MAP<STRING, ARRAY<INT>>, d STRUCT<e: STRUCT<f: INT>>, q INT"
    with pytest.raises(sd.ScanError) as err:
        drill(spark, tmp_path, providedSchema=schema, mode="FAILFAST").collect()
    assert (err.value.line, err.value.column, err.value.value) == (2, column, "no")


def test_timestamp_strings_with_and_without_a_zone(spark: SparkSession, tmp_path: Path) -> None:
    # The session zone (UTC in the tests) places a timestamp without one; an offset or Z places it itself.
    texts = [
        "2024-01-31 12:00:00",
        "2024-01-31T12:00:00Z",
        "2024-01-31T17:30:00+05:30",
        "2024-01-31T06:30:00-0530",  # an offset without its colon: not ISO's extended form, a bad value
        "2024-01-31 12:00:00.250",
        "2024-01-31",
        "2024-01-31T12:00:00+05:3",  # not an offset: a bad value
    ]
    write_files(tmp_path, {"t.json": "".join(json.dumps({"ts": t}) + "\n" for t in texts)})
    got = [r.ts for r in drill(spark, tmp_path, providedSchema="ts timestamp").collect()]
    noon = dt.datetime(2024, 1, 31, 12, 0)
    assert got == [noon, noon, noon, None, noon.replace(microsecond=250000), dt.datetime(2024, 1, 31), None]
    # timestamp_ntz takes no zone: one with an offset is a bad value, one without is kept as written.
    ntz = [r.ts for r in drill(spark, tmp_path, providedSchema="ts timestamp_ntz").collect()]
    assert ntz == [noon, None, None, None, noon.replace(microsecond=250000), dt.datetime(2024, 1, 31), None]
