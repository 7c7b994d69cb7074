"""Late materialization (issue 15): filters Spark pushes on data columns are judged by the CSV and JSON
readers first, and a record that fails them is not converted further. Spark still filters after the scan,
so the rows must be exactly those a plain Python computation over the same records keeps, for every type."""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F

import spark_drill as sd
from conftest import write_files
from scan_metrics import scan_description, scan_metrics

SCHEMA = "i INT, d DOUBLE, s STRING, day DATE, ts TIMESTAMP, b BOOLEAN"
COLUMNS = ["i", "d", "s", "day", "ts", "b"]
STRINGS = ["apple", "apricot", "banana", "b", "été", "ete", "Äpfel", "\U0001f600", "\ufffd", "", None]


def records(n: int = 400) -> list[dict[str, Any]]:
    """Deterministic records with nulls in every column, -0.0 and multi-byte strings."""
    rng = random.Random(15)

    def maybe(value: Any) -> Any:
        return None if rng.random() < 0.15 else value

    return [
        {
            "i": maybe(rng.randint(-5, 20)),
            "d": maybe(rng.choice([-1.5, -0.0, 0.0, 0.25, 2.5, 1e300])),
            "s": rng.choice(STRINGS),
            "day": maybe(dt.date(2024, 1, 1) + dt.timedelta(days=rng.randint(0, 30))),
            "ts": maybe(dt.datetime(2024, 1, 1) + dt.timedelta(minutes=rng.randint(0, 48 * 60))),
            "b": maybe(rng.random() < 0.5),
        }
        for _ in range(n)
    ]


def csv_text(rows: list[dict[str, Any]]) -> str:
    """A null is an empty unquoted field; every string is quoted, so "" stays an empty string."""

    def field(v: Any) -> str:
        if v is None:
            return ""
        if isinstance(v, str):
            return '"' + v.replace('"', '""') + '"'
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, dt.datetime):
            return v.strftime("%Y-%m-%d %H:%M:%S")
        return repr(v) if isinstance(v, float) else str(v)

    return ",".join(COLUMNS) + "\n" + "".join(",".join(field(r[c]) for c in COLUMNS) + "\n" for r in rows)


def json_text(rows: list[dict[str, Any]]) -> str:
    def value(v: Any) -> Any:
        if isinstance(v, dt.datetime):
            return v.strftime("%Y-%m-%d %H:%M:%S")
        if isinstance(v, dt.date):
            return v.isoformat()
        return v

    return "".join(json.dumps({c: value(r[c]) for c in COLUMNS}, ensure_ascii=False) + "\n" for r in rows)


# More than two of the JSON reader's windows of 1,024 records, so that a filter that keeps most records is
# also read the one-pass way (JsonPrefilter): every case checks both ways give the same rows.
RECORDS = records(2600)


@pytest.fixture(params=["csv", "json"])
def table(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    text = csv_text(RECORDS) if request.param == "csv" else json_text(RECORDS)
    return write_files(tmp_path, {f"part-0.{request.param}": text, f"sub/part-1.{request.param}": text})


def drill(spark: SparkSession, path: Path, **options: str) -> DataFrame:
    reader = spark.read.format("drill").option("header", "true").option("providedSchema", SCHEMA)
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load(str(path))


def key(row: tuple[Any, ...]) -> str:
    return repr(row)


def where(column: str, test: Callable[[Any], bool]) -> Callable[[dict[str, Any]], bool]:
    """The Python twin of a comparison on `column`: a null never passes, as in SQL."""
    return lambda r: r[column] is not None and test(r[column])


EMOJI = "\U0001f600"
JAN_20 = dt.date(2024, 1, 20)
NOON = dt.datetime(2024, 1, 1, 12)

# (name, the filter as Spark sees it, the same filter in Python, whether the readers can judge it)
CASES: list[tuple[str, Callable[[], Column], Callable[[dict[str, Any]], bool], bool]] = [
    ("int >", lambda: F.col("i") > 5, where("i", lambda v: v > 5), True),
    ("int <=", lambda: F.col("i") <= 0, where("i", lambda v: v <= 0), True),
    ("int =", lambda: F.col("i") == 3, where("i", lambda v: v == 3), True),
    ("int <>", lambda: F.col("i") != 3, where("i", lambda v: v != 3), True),
    ("int IN", lambda: F.col("i").isin(1, 2, 19), where("i", lambda v: v in (1, 2, 19)), True),
    ("double <", lambda: F.col("d") < 0.0, where("d", lambda v: v < 0.0), True),
    ("double = 0, -0.0 too", lambda: F.col("d") == 0.0, where("d", lambda v: v == 0.0), True),
    ("string >", lambda: F.col("s") > "banana", where("s", lambda v: v > "banana"), True),
    (
        "string startsWith",
        lambda: F.col("s").startswith("ap"),
        where("s", lambda v: v.startswith("ap")),
        True,
    ),
    (
        "string IN",
        lambda: F.col("s").isin("été", EMOJI, "zzz"),
        where("s", lambda v: v in ("été", EMOJI)),
        True,
    ),
    ("IS NULL", lambda: F.col("s").isNull(), lambda r: r["s"] is None, True),
    ("IS NOT NULL", lambda: F.col("day").isNotNull(), lambda r: r["day"] is not None, True),
    ("date >=", lambda: F.col("day") >= F.lit(JAN_20), where("day", lambda v: v >= JAN_20), True),
    ("timestamp <", lambda: F.col("ts") < F.lit(NOON), where("ts", lambda v: v < NOON), True),
    ("boolean", lambda: F.col("b"), where("b", lambda v: v), True),
    (
        "AND",
        lambda: (F.col("i") > 2) & F.col("s").startswith("b"),
        lambda r: where("i", lambda v: v > 2)(r) and where("s", lambda v: v.startswith("b"))(r),
        True,
    ),
    (
        "OR, Spark's alone",
        lambda: (F.col("i") > 15) | (F.col("s") == "apple"),
        lambda r: where("i", lambda v: v > 15)(r) or r["s"] == "apple",
        False,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_filtered_rows_are_the_rows_python_keeps(
    spark: SparkSession,
    table: Path,
    case: tuple[str, Callable[[], Column], Callable[[dict[str, Any]], bool], bool],
) -> None:
    _, condition, keep, judged = case
    df = drill(spark, table).where(condition()).select(*COLUMNS)
    got = sorted((tuple(r) for r in df.collect()), key=key)
    expected = sorted((tuple(r[c] for c in COLUMNS) for r in RECORDS if keep(r)), key=key) * 2  # two files
    assert got == sorted(expected, key=key)
    filtered = scan_metrics(df)["rowsFiltered"]
    if judged:
        assert filtered == 2 * len(RECORDS) - len(got), scan_description(df)
        assert "rowFilters=[" in scan_description(df)
    else:
        assert filtered == 0
        assert "rowFilters=[" not in scan_description(df)


def test_explain_names_the_pushed_predicates(spark: SparkSession, table: Path) -> None:
    df = drill(spark, table).where((F.col("i") > 5) & (F.col("dir0") == "sub"))
    description = scan_description(df)
    assert "i > 5" in description and "rowFilters=[" in description
    assert "files=1 of 2" in description  # dir0 still prunes files at planning
    assert sorted(r.i for r in df.collect()) == sorted(
        r["i"] for r in RECORDS if where("i", lambda v: v > 5)(r)
    )


@pytest.mark.parametrize("suffix", ["csv", "json"])
def test_a_bad_value_in_a_rejected_record_is_not_an_error(
    spark: SparkSession, tmp_path: Path, suffix: str
) -> None:
    text = (
        "id,score\n1,abc\n5,2.5\n"
        if suffix == "csv"
        else '{"score": "abc", "id": 1}\n{"id": 5, "score": 2.5}\n'
    )
    write_files(tmp_path, {f"a.{suffix}": text})

    def read(**options: str) -> DataFrame:
        reader = spark.read.format("drill").options(header="true", providedSchema="id INT, score DOUBLE")
        return reader.options(mode="FAILFAST", **options).load(str(tmp_path))

    assert [tuple(r) for r in read().where("id > 2").collect()] == [(5, 2.5)]
    with pytest.raises(sd.ScanError) as kept:
        read().where("id > 0").collect()
    assert kept.value.column == "score"
    # validate=all judges every record by every column, filter or not.
    with pytest.raises(sd.ScanError) as validated:
        read(validate="all").where("id > 2").collect()
    assert validated.value.column == "score"


def test_json_keys_without_a_column_are_counted_only_in_kept_records(
    spark: SparkSession, tmp_path: Path
) -> None:
    # sampleRows=1: discovery sees the first record only, so the keys after it have no column.
    lines = ['{"id": 0}', '{"id": 1, "extra": 1, "more": 2}', '{"id": 5, "extra": 3}', '{"id": 6}']
    write_files(tmp_path, {"a.json": "\n".join(lines) + "\n"})
    df = spark.read.format("drill").option("sampleRows", "1").load(str(tmp_path))
    kept = df.where("id > 2")
    assert [r.id for r in kept.collect()] == [5, 6]
    metrics = scan_metrics(kept)
    assert (metrics["rowsFiltered"], metrics["droppedValues"]) == (2, 1)
    every = df.select("id")
    assert len(every.collect()) == 4 and scan_metrics(every)["droppedValues"] == 3
