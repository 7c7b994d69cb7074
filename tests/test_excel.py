"""`format=excel` (SPEC 13) through PySpark, on workbooks openpyxl writes: sd.read's typed keywords (`sheet`,
`data_address`), spark.read, a differential test against two independent readers (openpyxl and
python-calamine) of the same files, a stream over a landing directory, the CLI, and a 200,000-row sheet read
in a small heap."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyspark
import pytest
from openpyxl import Workbook, load_workbook
from pyspark.errors import StreamingQueryException
from pyspark.sql import SparkSession
from python_calamine import CalamineWorkbook

import spark_drill as sd
from spark_drill import cli
from streams import QUERY_TIMEOUT_S

OLD = time.time() - 3600


def _workbook(path: Path, sheets: dict[str, list[list[Any]]], mtime: float | None = None) -> Path:
    """Writes the workbook to a hidden name, then renames it (as a careful producer does); sets its time."""
    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.parent / f".{path.name}.tmp"
    wb.save(temp)
    os.replace(temp, path)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def test_sheets_by_glob_and_a_data_address_through_typed_keywords(
    spark: SparkSession, tmp_path: Path
) -> None:
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


@pytest.mark.skipif(int(pyspark.__version__.split(".")[0]) < 4, reason="VARIANT is Spark 4's (SPEC 14)")
def test_single_variant_column_reads_each_row_as_an_object_of_its_cells(
    spark: SparkSession, tmp_path: Path
) -> None:
    # SPEC 14: a workbook row is an object of its cells under their column names, each the type it has of
    # itself (a number cell a number, a date cell a date, text a string); a blank cell is no member, as it is
    # no cell. The hidden sheet column stands beside the variant.
    day = dt.date(2024, 3, 1)
    rows = [["id", "name", "score", "day"], [1, "ann", 2.5, day], [2, None, 4, "soon"]]
    _workbook(tmp_path / "a.xlsx", {"s": rows})
    df = sd.read(spark, str(tmp_path), format="excel", single_variant_column="v")
    assert df.columns == ["v"]
    got = df.selectExpr("sheet", "to_json(v)", "variant_get(v, '$.id', 'int')", "schema_of_variant(v)")
    assert [tuple(r) for r in got.orderBy("_line").collect()] == [
        (
            "s",
            '{"day":"2024-03-01","id":1,"name":"ann","score":2.5}',
            1,
            "OBJECT<day: DATE, id: BIGINT, name: STRING, score: DOUBLE>",
        ),
        ("s", '{"day":"soon","id":2,"score":4}', 2, "OBJECT<day: STRING, id: BIGINT, score: BIGINT>"),
    ]


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
                "day": dt.datetime(2020, 1, 1)
                + dt.timedelta(days=rng.randrange(2000), seconds=rng.randrange(86400)),
            }
            rows.append([values[h] for h in header])
        _workbook(tmp_path / f"f{f}.xlsx", {"data": rows})
    calamine: dict[tuple[str, int, str], Any] = {}
    for f in range(4):
        ws = load_workbook(tmp_path / f"f{f}.xlsx", read_only=True).active
        names: list[str] = []
        for i, row in enumerate(ws.iter_rows(values_only=True), start=1):
            if i == 1:
                names = [str(v) for v in row]
                continue
            if all(v is None or v == "" for v in row):
                continue  # a row with no value is no record (SPEC 13)
            for name, value in zip(names, row, strict=False):  # openpyxl's rows stop at their last cell
                expected[(f"f{f}.xlsx", i, name)] = None if value == "" else value
        # The Rust reader Polars uses, as a second independent reading: "" for an empty cell, whole floats
        # for integral numbers (the cell types are Excel's: every number is a double).
        sheet = CalamineWorkbook.from_path(str(tmp_path / f"f{f}.xlsx")).get_sheet_by_index(0)
        table = sheet.to_python(skip_empty_area=False)
        for i, row in enumerate(table, start=1):
            if i == 1 or all(v == "" for v in row):
                continue
            for name, value in zip([str(v) for v in table[0]], row, strict=True):
                calamine[(f"f{f}.xlsx", i, name)] = None if value == "" else value
    assert calamine.keys() == expected.keys()
    for key, value in calamine.items():
        assert value == expected[key], key  # the two references agree before they judge spark-drill
    df = spark.read.format("drill").option("format", "excel").load(str(tmp_path))
    got: dict[tuple[str, int, str], Any] = {}
    for r in df.select("*", "filename", "_line").collect():
        d = r.asDict()
        for name in ["id", "amount", "flag", "label", "day"]:
            got[(d["filename"], d["_line"], name)] = d[name]
    for key, value in expected.items():
        assert got[key] == value, key
    assert len({(k[0], k[1]) for k in got}) == len({(k[0], k[1]) for k in expected})


def test_a_stream_over_landing_workbooks_stops_at_a_new_column_and_goes_on_with_it(
    spark: SparkSession, tmp_path: Path
) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    _workbook(src / "a.xlsx", {"jan": [["id", "name"], [1, "ann"], [2, "bob"]]}, OLD)

    def build() -> Any:
        reader = (
            spark.readStream.format("drill").option("format", "excel").option("schemaLocation", str(schemas))
        )
        return reader.option("includeColumns", "sheet,filename").load(str(src))

    def run(df: Any) -> str | None:
        query = (
            df.writeStream.format("parquet")
            .option("checkpointLocation", str(chk))
            .trigger(availableNow=True)
            .start(str(out))
        )
        with contextlib.suppress(StreamingQueryException):
            assert query.awaitTermination(QUERY_TIMEOUT_S), "the stream did not end"
        error = query.exception()
        return None if error is None else str(error)

    df = build()
    _workbook(src / "b.xlsx", {"feb": [["id", "name"], [3, "cy"]]}, OLD + 1)
    _workbook(src / "c.xlsx", {"mar": [["id", "name", "region"], [4, "dee", "north"]]}, OLD + 2)
    error = run(df)
    assert error is not None and "[SPARK_DRILL_STREAM_SCHEMA_CHANGED]" in error, error
    assert "c.xlsx" in error and "region" in error
    sink = spark.read.parquet(str(out))
    assert sorted((r.id, r.sheet) for r in sink.collect()) == [(1, "jan"), (2, "jan"), (3, "feb")]
    # Built again, the stream goes on from c.xlsx with the new column, and reads each workbook once.
    assert run(build()) is None
    _workbook(src / "d.xlsx", {"apr": [["region", "id"], ["south", 5]]}, OLD + 3)
    assert run(build()) is None
    rows = sorted(spark.read.option("mergeSchema", "true").parquet(str(out)).collect(), key=lambda r: r.id)
    assert [(r.id, r.region, r.sheet, r.filename) for r in rows] == [
        (1, None, "jan", "a.xlsx"),
        (2, None, "jan", "a.xlsx"),
        (3, None, "feb", "b.xlsx"),
        (4, "north", "mar", "c.xlsx"),
        (5, "south", "apr", "d.xlsx"),
    ]
    assert dict(spark.read.parquet(str(out)).dtypes)["id"] == "bigint"  # typed by the cells, as in batch


def test_the_cli_shows_workbooks_and_lists_the_sheet_column(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _workbook(tmp_path / "reports" / "q1.xlsx", {"jan": [["id", "total"], [1, 9.5]], "feb": [["id"], [2]]})
    status = cli.main(
        ["show", str(tmp_path / "reports"), "--format", "excel", "-o", "sheet=*", "--output", "json"],
        spark=spark,
    )
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert sorted(out.splitlines()) == ['{"id":1,"total":9.5}', '{"id":2,"total":null}']
    status = cli.main(
        ["schema", str(tmp_path / "reports"), "--format", "excel", "--output", "csv"], spark=spark
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "sheet,string,true,implicit (hidden)," in out.splitlines()
    assert "total,double,true,table,q1.xlsx" in out.splitlines()


def test_jar_paths_names_the_core_jar_then_the_excel_jar() -> None:
    jars = sd.jar_paths()
    assert jars[0] == sd.jar_path()
    assert len(jars) == 2 and "/spark-drill-excel-" in jars[1] and Path(jars[1]).is_file()


BIG_SHEET_READER = r"""
import json, sys
from pyspark.sql import SparkSession, functions as F
import spark_drill as sd

path, memory = sys.argv[1:3]
spark = sd.session("local[1]", **{"spark.driver.memory": memory, "spark.ui.enabled": "false"})
jvm = spark.sparkContext._jvm
beans = jvm.java.lang.management.ManagementFactory.getMemoryPoolMXBeans()
pools = [p for p in beans if str(p.getType()) == "Heap memory"]
df = spark.read.format("drill").option("format", "excel").load(path)
row = df.agg(F.count("*").alias("rows"), *[F.count(c).alias(c) for c in df.columns]).first()
for p in pools:
    p.resetPeakUsage()
jvm.java.lang.System.gc()
row = df.agg(F.count("*").alias("rows"), *[F.count(c).alias(c) for c in df.columns]).first()
peak = sum(p.getPeakUsage().getUsed() for p in pools)
heap = jvm.java.lang.Runtime.getRuntime().maxMemory()
print("@@" + json.dumps({"counts": row.asDict(), "peak": peak, "heap": heap}), flush=True)
spark.stop()
"""


def test_a_200000_row_sheet_is_read_in_a_small_heap(tmp_path: Path) -> None:
    # A sheet of 800,000 cells, its XML some 60 MB: a reader holding the sheet whole (POI's usermodel keeps
    # each cell as objects of several hundred bytes) cannot read it in this heap; one streaming rows can.
    path = tmp_path / "big.xlsx"
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("data")
    ws.append(["id", "name", "day", "note"])
    start = dt.datetime(2024, 1, 1)
    for i in range(200_000):
        ws.append([i, f"name {i % 977}", start + dt.timedelta(minutes=i), "x" if i % 10 else None])
    wb.save(path)
    done = subprocess.run(
        [sys.executable, "-c", BIG_SHEET_READER, str(path), "512m"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    reply = json.loads(next(line for line in done.stdout.splitlines() if line.startswith("@@"))[2:])
    assert reply["counts"] == {
        "rows": 200_000,
        "id": 200_000,
        "name": 200_000,
        "day": 200_000,
        "note": 180_000,
    }
    assert reply["heap"] <= 600 * 2**20, reply
    print(f"peak heap used {reply['peak'] / 2**20:.0f} MiB of {reply['heap'] / 2**20:.0f} MiB")
