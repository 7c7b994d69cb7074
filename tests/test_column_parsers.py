"""Python column parsers (SPEC 8): asked on the driver over Py4J while a scan is planned; their per-file
values reach the executors as constants."""

from __future__ import annotations

import datetime as dt
import decimal
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pyspark.sql import SparkSession

import spark_drill as sd
from conftest import write_files

pytestmark = pytest.mark.compat


@pytest.fixture(autouse=True)
def no_parsers_after(spark: SparkSession) -> Iterator[None]:
    yield
    sd.clear_column_parsers(spark)


class IngestDate(sd.ColumnParser):
    """The SPEC's example: the date in the path `YYYY/MM/DD/file`."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.files: list[str] = []

    def columns(self) -> Sequence[str]:
        return ["ingest_date"]

    def parse(self, name: str) -> sd.ParsedColumn | None:
        self.asked.append(name)
        return sd.ParsedColumn(name, "date") if name.lower() == "ingest_date" else None

    def value(self, name: str, file: sd.FileInfo) -> Any:
        self.files.append(file.name)
        y, m, d = file.dirs
        return dt.date(int(y), int(m), int(d))


def _tree(root: Path) -> Path:
    return write_files(
        root,
        {
            "2024/01/15/a.csv": "id,v\n1,x\n2,y\n",
            "2024/02/01/b.csv": "id,v\n3,z\n",
        },
    )


def _rows(df: Any) -> list[tuple[Any, ...]]:
    return sorted(tuple(r) for r in df.collect())


def test_spec_example_hidden_column_selectable_by_name(spark: SparkSession, tmp_path: Path) -> None:
    parser = IngestDate()
    sd.register_column_parser(spark, parser)
    df = spark.read.format("drill").option("header", "true").load(str(_tree(tmp_path)))
    assert "ingest_date" not in df.columns
    out = df.select("id", "ingest_date")
    assert out.schema["ingest_date"].dataType.simpleString() == "date"
    assert _rows(out) == [
        ("1", dt.date(2024, 1, 15)),
        ("2", dt.date(2024, 1, 15)),
        ("3", dt.date(2024, 2, 1)),
    ]
    assert sorted(parser.files) == ["a.csv", "b.csv"]


def test_values_are_asked_once_per_file_across_queries(spark: SparkSession, tmp_path: Path) -> None:
    parser = IngestDate()
    sd.register_column_parser(spark, parser)
    df = spark.read.format("drill").option("header", "true").load(str(_tree(tmp_path)))
    for _ in range(3):
        assert df.select("ingest_date").distinct().count() == 2
    assert sorted(parser.files) == ["a.csv", "b.csv"]


def test_pruned_files_are_not_asked(spark: SparkSession, tmp_path: Path) -> None:
    parser = IngestDate()
    sd.register_column_parser(spark, parser)
    df = spark.read.format("drill").option("header", "true").load(str(_tree(tmp_path)))
    out = df.where("dir1 = '02'").select("id", "ingest_date")
    assert _rows(out) == [("3", dt.date(2024, 2, 1))]
    assert parser.files == ["b.csv"]


def test_filter_on_a_parsed_column(spark: SparkSession, tmp_path: Path) -> None:
    sd.register_column_parser(spark, IngestDate())
    df = spark.read.format("drill").option("header", "true").load(str(_tree(tmp_path)))
    assert _rows(df.where("ingest_date > date'2024-01-31'").select("id")) == [("3",)]


def test_sql_through_the_drill_catalog(spark: SparkSession, tmp_path: Path) -> None:
    sd.register_column_parser(spark, IngestDate())
    root = _tree(tmp_path)
    got = spark.sql(f"SELECT columns[0], ingest_date FROM drill.`{root}` WHERE columns[0] = '3'").collect()
    assert [tuple(r) for r in got] == [("3", dt.date(2024, 2, 1))]


class Batch(sd.ColumnParser):
    """Claims names only through `parse` (no hidden columns): reachable from a `project` list."""

    def parse(self, name: str) -> sd.ParsedColumn | None:
        return sd.ParsedColumn(name, "int") if name.startswith("batch_") else None

    def value(self, name: str, file: sd.FileInfo) -> Any:
        return int(name.removeprefix("batch_")) * 10 + len(file.dirs)


def test_project_option_asks_parsers_in_list_order(spark: SparkSession, tmp_path: Path) -> None:
    sd.register_column_parser(spark, IngestDate())
    sd.register_column_parser(spark, Batch())
    df = (
        spark.read.format("drill")
        .option("header", "true")
        .option("project", "batch_7, id, ingest_date, nothere")
        .load(str(_tree(tmp_path)))
    )
    assert df.columns == ["batch_7", "id", "ingest_date", "nothere"]
    assert [f.dataType.simpleString() for f in df.schema.fields] == ["int", "string", "date", "string"]
    assert _rows(df) == [
        (73, "1", dt.date(2024, 1, 15), None),
        (73, "2", dt.date(2024, 1, 15), None),
        (73, "3", dt.date(2024, 2, 1), None),
    ]


def test_first_registered_parser_wins(spark: SparkSession, tmp_path: Path) -> None:
    class Other(sd.ColumnParser):
        def parse(self, name: str) -> sd.ParsedColumn | None:
            return sd.ParsedColumn(name, "string")

        def value(self, name: str, file: sd.FileInfo) -> Any:
            return "other"

    sd.register_column_parser(spark, Batch())
    sd.register_column_parser(spark, Other())
    df = (
        spark.read.format("drill")
        .option("header", "true")
        .option("project", "batch_1, anything")
        .load(str(_tree(tmp_path)))
    )
    assert set(_rows(df)) == {(13, "other")}


def test_a_data_column_wins_over_a_parser(spark: SparkSession, tmp_path: Path) -> None:
    parser = IngestDate()
    sd.register_column_parser(spark, parser)
    root = write_files(tmp_path, {"2024/01/15/a.csv": "id,ingest_date\n1,from-the-file\n"})
    df = (
        spark.read.format("drill")
        .option("header", "true")
        .option("project", "id, ingest_date")
        .load(str(root))
    )
    assert _rows(df) == [("1", "from-the-file")]
    assert parser.files == []


class Typed(sd.ColumnParser):
    TYPES: ClassVar[dict[str, tuple[str, Any]]] = {
        "t_ts": ("timestamp", dt.datetime(2024, 3, 4, 5, 6, 7, tzinfo=dt.timezone.utc)),
        "t_long": ("bigint", 2**40),
        "t_dec": ("decimal(10,2)", decimal.Decimal("12.34")),
        "t_bool": ("boolean", True),
        "t_double": ("double", 0.5),
        "t_str": ("string", "héllo"),
        "t_null": ("int", None),
    }

    def columns(self) -> Sequence[str]:
        return list(self.TYPES)

    def parse(self, name: str) -> sd.ParsedColumn | None:
        t = self.TYPES.get(name)
        return sd.ParsedColumn(name, t[0]) if t else None

    def value(self, name: str, file: sd.FileInfo) -> Any:
        return self.TYPES[name][1]


def test_every_scalar_type_round_trips(spark: SparkSession, tmp_path: Path) -> None:
    sd.register_column_parser(spark, Typed())
    df = spark.read.format("drill").option("header", "true").load(str(_tree(tmp_path)))
    got = df.where("id = '1'").select(*Typed.TYPES).collect()
    assert [tuple(r) for r in got] == [
        (
            dt.datetime(2024, 3, 4, 5, 6, 7),  # the session zone is UTC
            2**40,
            decimal.Decimal("12.34"),
            True,
            0.5,
            "héllo",
            None,
        )
    ]


def test_a_parser_that_raises_fails_the_query_with_its_message(spark: SparkSession, tmp_path: Path) -> None:
    class Broken(IngestDate):
        def value(self, name: str, file: sd.FileInfo) -> Any:
            raise ValueError(f"no date in {file.name}")

    sd.register_column_parser(spark, Broken())
    df = spark.read.format("drill").option("header", "true").load(str(_tree(tmp_path)))
    with pytest.raises(sd.ScanError) as err:
        df.select("ingest_date").collect()
    assert "column parser 'Broken' raised ValueError: no date in a.csv" in str(err.value)
    assert err.value.file is not None and err.value.file.endswith("a.csv")
    assert err.value.column == "ingest_date"


def test_a_value_of_the_wrong_type_names_it(spark: SparkSession, tmp_path: Path) -> None:
    class NotADate(IngestDate):
        def value(self, name: str, file: sd.FileInfo) -> Any:
            return "soon"

    sd.register_column_parser(spark, NotADate())
    df = spark.read.format("drill").option("header", "true").load(str(_tree(tmp_path)))
    with pytest.raises(sd.ScanError) as err:
        df.select("ingest_date").collect()
    assert err.value.value == "soon"
    assert "is not a date" in str(err.value)


def test_a_parse_that_raises_fails_the_load(spark: SparkSession, tmp_path: Path) -> None:
    class BadParse(sd.ColumnParser):
        def parse(self, name: str) -> sd.ParsedColumn | None:
            raise KeyError(name)

        def value(self, name: str, file: sd.FileInfo) -> Any:
            return None

    sd.register_column_parser(spark, BadParse())
    with pytest.raises(Exception, match="column parser 'BadParse' raised KeyError: 'x' for column 'x'"):
        spark.read.format("drill").option("header", "true").option("project", "x").load(
            str(_tree(tmp_path))
        ).collect()


def test_an_unknown_type_is_refused(spark: SparkSession, tmp_path: Path) -> None:
    class Odd(sd.ColumnParser):
        def parse(self, name: str) -> sd.ParsedColumn | None:
            return sd.ParsedColumn(name, "dat")

        def value(self, name: str, file: sd.FileInfo) -> Any:
            return None

    sd.register_column_parser(spark, Odd())
    with pytest.raises(Exception, match="gave column 'q' the type 'dat', which is not a Spark SQL type"):
        spark.read.format("drill").option("header", "true").option("project", "q").load(str(_tree(tmp_path)))


def test_cleared_parsers_no_longer_serve_new_tables(spark: SparkSession, tmp_path: Path) -> None:
    sd.register_column_parser(spark, IngestDate())
    root = _tree(tmp_path)
    kept = spark.read.format("drill").option("header", "true").load(str(root))
    sd.clear_column_parsers(spark)
    fresh = spark.read.format("drill").option("header", "true").load(str(root))
    assert kept.select("ingest_date").count() == 3
    with pytest.raises(Exception, match="ingest_date"):
        fresh.select("ingest_date").collect()


def test_a_non_scalar_value_is_refused_naming_the_file(spark: SparkSession, tmp_path: Path) -> None:
    class Listy(IngestDate):
        def value(self, name: str, file: sd.FileInfo) -> Any:
            return [1, 2]

    sd.register_column_parser(spark, Listy())
    df = spark.read.format("drill").option("header", "true").load(str(_tree(tmp_path)))
    with pytest.raises(sd.ScanError, match="raised TypeError: a column parser value must be a scalar"):
        df.select("ingest_date").collect()


class _Hangs(IngestDate):
    """Blocks in `value` (or `parse`) until released: a parser stuck on a network call."""

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where
        self.release = threading.Event()

    def parse(self, name: str) -> sd.ParsedColumn | None:
        if self.where == "parse":
            self.release.wait(60)
        return super().parse(name)

    def value(self, name: str, file: sd.FileInfo) -> Any:
        if self.where == "value":
            self.release.wait(60)
        return super().value(name, file)


@pytest.mark.parametrize("where", ["value", "parse"])
def test_a_parser_that_hangs_fails_after_its_timeout_and_the_session_goes_on(
    spark: SparkSession, tmp_path: Path, where: str
) -> None:
    hung = _Hangs(where)
    sd.register_column_parser(spark, hung, timeout=1.5)
    root = _tree(tmp_path)
    started = time.monotonic()
    try:
        with pytest.raises(Exception) as err:
            spark.read.format("drill").option("header", "true").load(str(root)).select(
                "ingest_date"
            ).collect()
        waited = time.monotonic() - started
        what = "reading column 'ingest_date'" if where == "value" else "parsing column 'ingest_date'"
        assert f"column parser '_Hangs' did not answer within 1.5 s while {what}" in str(err.value)
        assert 1.5 <= waited < 30, waited
    finally:
        hung.release.set()
    # The stuck call finishes on its own thread; the next parser and query work.
    sd.register_column_parser(spark, IngestDate())
    rows = spark.read.format("drill").option("header", "true").load(str(root)).select("ingest_date").collect()
    assert len(rows) == 3


def test_a_timeout_must_be_positive(spark: SparkSession) -> None:
    with pytest.raises(ValueError, match="timeout must be a positive number of seconds or None"):
        sd.register_column_parser(spark, IngestDate(), timeout=0)
