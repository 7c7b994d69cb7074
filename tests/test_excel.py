"""`format=excel` (SPEC 13) through PySpark, on workbooks openpyxl writes: sd.read's typed keywords (`sheet`,
`data_address`), spark.read, and a differential test against openpyxl's own reading of the same files."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook, load_workbook
from pyspark.sql import SparkSession

import spark_drill as sd


def _workbook(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)
    return path


def test_sheets_by_glob_and_a_data_address_through_typed_keywords(spark: SparkSession, tmp_path: Path) -> None:
    _workbook(
        tmp_path / "reports" / "a.xlsx",
        {"2024-01": [["id", "name"], [1, "ann"]], "notes": [["memo"], ["m"]]},
    )
    _workbook(
        tmp_path / "reports" / "b.xlsx",
        {"2024-02": [["id", "country", "name"], [2, "fr", "bob"]]},
    )
    df = sd.read(spark, str(tmp_path / "reports"), format="excel", sheet="2024-*")
    assert df.columns == ["id", "name", "country"]
    assert [tuple(r) for r in df.orderBy("id").collect()] == [(1, "ann", None), (2, "bob", "fr")]
    assert dict(df.dtypes)["id"] == "bigint"
    _workbook(
        tmp_path / "ranged" / "r.xlsx",
        {"Q3 sales": [["title"], [], [None, "id", "day"], [None, 7, dt.date(2024, 3, 1)]]},
    )
    ranged = sd.read(spark, str(tmp_path / "ranged"), format="excel", data_address="'Q3 sales'!B3:C")
    rows = ranged.select("id", "day", "_line").collect()
    assert [tuple(r) for r in rows] == [(7, dt.date(2024, 3, 1), 4)]  # midnight only: a date
    with pytest.raises(TypeError, match="data_address"):
        sd.read(spark, str(tmp_path / "ranged"), format="excel", data_adress="B3")  # type: ignore[call-arg]


def test_spark_read_by_suffix_and_a_malformed_file_per_mode(spark: SparkSession, tmp_path: Path) -> None:
    _workbook(tmp_path / "a.xlsx", {"s": [["id"], [1]]})
    (tmp_path / "b.xlsx").write_bytes(b"not a zip")
    df = spark.read.format("drill").load(str(tmp_path))
    assert [r.id for r in df.collect()] == [1]
    with pytest.raises(sd.ScanError) as failed:
        sd.read(spark, str(tmp_path), mode="FAILFAST").collect()
    assert "b.xlsx" in str(failed.value)


def test_same_rows_and_values_as_openpyxl(spark: SparkSession, tmp_path: Path) -> None:
    # Differential: generated workbooks (drifting headers, ints, floats, booleans, text, dates, blanks, blank
    # rows), read by spark-drill and by openpyxl; every cell must agree, by file, sheet row and column.
    rng = random.Random(40)
    expected: dict[tuple[str, int, str], Any] = {}
    for f in range(4):
        header = ["id", "amount", "flag", "label", "day"][: 3 + f % 3]
        if f % 2:
            header.reverse()
        rows: list[list[Any]] = [header]
        for r in range(60):
            if rng.random() < 0.05:
                rows.append([])
                continue
            values = {
                "id": f * 1000 + r,
                "amount": round(rng.uniform(-1e6, 1e6), 3) if rng.random() < 0.9 else None,
                "flag": rng.random() < 0.5,
                "label": rng.choice(["a", "b b", "ç", "", None]),
                "day": dt.datetime(2020, 1, 1) + dt.timedelta(days=rng.randrange(2000), seconds=rng.randrange(86400)),
            }
            rows.append([values[h] for h in header])
        _workbook(tmp_path / f"f{f}.xlsx", {"data": rows})
    for f in range(4):
        ws = load_workbook(tmp_path / f"f{f}.xlsx", read_only=True).active
        names: list[str] = []
        for i, row in enumerate(ws.iter_rows(values_only=True), start=1):
            if i == 1:
                names = [str(v) for v in row]
                continue
            if all(v is None or v == "" for v in row):
                continue  # a row with no value is no record (SPEC 13)
            for name, value in zip(names, row):
                expected[(f"f{f}.xlsx", i, name)] = None if value == "" else value
    df = spark.read.format("drill").option("format", "excel").load(str(tmp_path))
    got: dict[tuple[str, int, str], Any] = {}
    for r in df.select("*", "filename", "_line").collect():
        d = r.asDict()
        for name in ["id", "amount", "flag", "label", "day"]:
            got[(d["filename"], d["_line"], name)] = d[name]
    for key, value in expected.items():
        assert got[key] == value, key
    assert len({(k[0], k[1]) for k in got}) == len({(k[0], k[1]) for k in expected})
