"""bench.excel's pure parts (issue 40): the workbooks are seeded, their headers drift and their cells have the
kinds the bench is about, the result normalizer counts what it should, and the worker's script compiles.
Nothing here starts Spark."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime
from pathlib import Path

import pytest

from bench import excel


def cells(path: Path) -> list[list[object]]:
    """A workbook's values as openpyxl reads them (its bytes hold the time it was written)."""
    import openpyxl  # type: ignore[import-untyped,unused-ignore]

    book = openpyxl.load_workbook(path, read_only=True)
    try:
        assert book.sheetnames == [excel.SHEET]
        return [list(row) for row in book[excel.SHEET].iter_rows(values_only=True)]
    finally:
        book.close()


def test_the_worker_compiles() -> None:
    compile(excel.WORKER, "worker", "exec")


def test_the_workbooks_are_seeded_and_hold_what_generate_says(tmp_path: Path) -> None:
    truth = excel.generate(tmp_path / "a", files=5, rows=40)
    assert excel.generate(tmp_path / "b", files=5, rows=40) == truth
    a, b = excel.workbooks(tmp_path / "a"), excel.workbooks(tmp_path / "b")
    assert [p.name for p in a] == [f"part-0{i}.xlsx" for i in range(5)] == [p.name for p in b]
    read = [cells(p) for p in a]
    assert read == [cells(p) for p in b]
    assert excel.merge(excel.tally(sheet[0], sheet[1:]) for sheet in read) == truth
    assert truth["rows"] == 200
    assert [row[0] for sheet in read for row in sheet[1:]] == list(range(200))


def test_the_headers_drift_across_the_files(tmp_path: Path) -> None:
    excel.generate(tmp_path, files=5, rows=3)
    headers = [cells(p)[0] for p in excel.workbooks(tmp_path)]
    base = list(excel.COLUMNS)
    assert headers[0] == base and len(base) == 12
    assert headers[1] == [("quantity" if n == "qty" else n) for n in base]
    assert headers[2] == [n for n in base if n != "note"]
    assert set(headers[3]) == {*base, "region"}
    assert sorted(map(str, headers[4])) == sorted(base) and headers[4] != base
    assert len({tuple(h) for h in headers}) == 5
    assert [excel.header(i) for i in range(5, 10)] == headers


def test_every_kind_of_cell_is_there(tmp_path: Path) -> None:
    excel.generate(tmp_path, files=1, rows=400)
    sheet = cells(excel.workbooks(tmp_path)[0])
    columns = {name: [row[i] for row in sheet[1:]] for i, name in enumerate(sheet[0])}
    kinds = {name: Counter(type(v).__name__ for v in values) for name, values in columns.items()}
    assert set(kinds["id"]) == {"int"} and set(kinds["qty"]) == {"int"}
    assert set(kinds["sku"]) == {"str"} and set(kinds["city"]) == {"str"}
    assert set(kinds["amount"]) <= {"float", "int"} and kinds["weight"]["float"] > 390
    assert set(kinds["paid"]) == {"bool"}
    # openpyxl reads a date-formatted number back as a datetime: the cells carry a date format.
    assert set(kinds["ordered"]) == {"datetime"}
    assert all(isinstance(v, datetime) and v.time() == datetime.min.time() for v in columns["ordered"])
    assert {"datetime", "NoneType"} == set(kinds["shipped"])
    assert any(isinstance(v, datetime) and v.time() != datetime.min.time() for v in columns["shipped"])
    for name in ("discount", "note", "rating", "shipped"):
        assert 0 < kinds[name]["NoneType"] < 400, name
    assert all(v is not None for name in ("id", "sku", "city", "paid", "ordered") for v in columns[name])


def test_the_cache_generates_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, truth = excel.dataset(tmp_path, 2, 5)
    assert folder == tmp_path / "excel-2x5" and len(excel.workbooks(folder)) == 2
    assert not list(tmp_path.glob(".excel-*"))

    def fail(*_: object) -> None:
        raise AssertionError("generated again")

    monkeypatch.setattr(excel, "generate", fail)
    assert excel.dataset(tmp_path, 2, 5) == (folder, truth)


def test_blank_is_every_reader_s_empty_cell() -> None:
    import pandas  # type: ignore[import-untyped,unused-ignore]

    for value in (None, "", float("nan"), pandas.NaT, pandas.NA):
        assert excel.blank(value), value
    for value in (0, 0.0, False, " ", "0", date(2020, 1, 1), datetime(2020, 1, 1)):
        assert not excel.blank(value), value


def test_tally_counts_cells_and_records_as_the_readers_do() -> None:
    names = ["Id", "note", "flag"]
    rows: list[list[object]] = [
        [1, "", False],
        ["", "", ""],  # calamine's empty row: no record
        [3, "x", None, "extra"],  # a cell past the header is not counted
        [4, float("nan")],  # a short row
    ]
    assert excel.tally(names, rows) == {"rows": 3, "columns": {"flag": 1, "id": 3, "note": 1}}


def test_results_merge_by_name_whatever_the_case() -> None:
    a = excel.result(2, {"ID": 2, "qty": 2})
    b = excel.result(3, {"id": 3, "quantity": 1})
    assert excel.merge([a, b]) == {"rows": 5, "columns": {"id": 5, "qty": 2, "quantity": 1}}
    assert excel.result(1, {"A": 1, "a": 1}) == {"rows": 1, "columns": {"a": 2}}


def test_a_disagreement_is_found_and_a_column_absent_counts_zero() -> None:
    truth = excel.result(4, {"id": 4, "note": 2, "gone": 0})
    same = excel.result(4, {"ID": 4, "note": 2})
    assert excel.disagreement({"generated": truth, "engine": same}) == []
    wrong = excel.result(4, {"id": 4, "note": 4})
    assert excel.disagreement({"generated": truth, "engine": wrong}) == [
        "column note: {'generated': 2, 'engine': 4}"
    ]
    short = excel.result(3, {"id": 3, "note": 2})
    assert (
        excel.disagreement({"generated": truth, "engine": short})[0] == "rows: {'generated': 4, 'engine': 3}"
    )
