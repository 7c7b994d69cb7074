"""The generator is deterministic and its truth.json is right (recounted by Python's csv/json and DuckDB)."""

from __future__ import annotations

import csv
import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.gen import SMALL_MB, generate
from bench.schema import FILTER_COLUMN, FILTER_VALUE, columns
from bench.tests.conftest import SIZE_MB
from bench.truth import check, expected

# sha256 of the data files of `python -m bench.gen --small` (seed 7), see _digest. The truth may gain fields,
# but the files must stay the same for a seed: results measured on them stay comparable. (A new numpy may
# draw other numbers: bench/requirements.txt pins it.)
SMALL_DIGEST = "f070a964845f3ab827127eb59de8893b852821b1b97f1ed77f05559f0c624b99"


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _digest(root: Path) -> str:
    """sha256 over every data file (not truth.json), each as its relative path, a NUL and its bytes."""
    h = hashlib.sha256()
    for rel, data in _tree(root).items():
        if rel != "truth.json":
            h.update(rel.encode() + b"\0" + data)
    return h.hexdigest()


def test_deterministic_by_seed(data: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    root, _ = data
    generate(tmp_path / "a", seed=3, size_mb=SIZE_MB, parts=2, jobs=1, newline=False, log=False)
    assert _tree(tmp_path / "a") == _tree(root)  # same seed, one process instead of two: same bytes
    generate(tmp_path / "b", seed=4, size_mb=SIZE_MB, parts=2, jobs=1, newline=False, log=False)
    assert _tree(tmp_path / "b")["csv/2023/01/part-0.csv"] != _tree(root)["csv/2023/01/part-0.csv"]


def test_small_data_unchanged(tmp_path: Path) -> None:
    generate(tmp_path, seed=7, size_mb=SMALL_MB, parts=2, jobs=2, newline=False, log=False)
    assert _digest(tmp_path) == SMALL_DIGEST


def test_tree_shape(data: tuple[Path, dict[str, Any]]) -> None:
    root, truth = data
    assert len(list((root / "csv").rglob("*.csv"))) == truth["csv"]["files"] == 48
    assert len(list((root / "json").rglob("*.json"))) == 48
    headers = {p: next(csv.reader(p.open(encoding="utf-8"))) for p in (root / "csv").rglob("*.csv")}
    assert len({tuple(h) for h in headers.values()}) > 10  # header order drifts
    assert any("city" not in h for h in headers.values())  # some files lack a column
    assert "discount" not in headers[root / "csv/2023/01/part-0.csv"]  # later months add columns
    assert "discount" in headers[root / "csv/2024/12/part-0.csv"]
    aligned = {
        tuple(next(csv.reader(p.open(encoding="utf-8")))) for p in (root / "csv_aligned").rglob("*.csv")
    }
    assert aligned == {tuple(c.name for c in columns("csv"))}
    text = "".join(p.read_text(encoding="utf-8") for p in (root / "csv").rglob("*.csv"))
    assert '""' in text and '"Washington, D.C."' in text  # fields that need quoting
    line = json.loads((root / "json/2024/12/part-0.json").read_text().splitlines()[0])
    assert isinstance(line["device"], dict | None) and isinstance(line["tags"], list | None)


class Tally:
    """Rows, non-null values per column and sums of the numeric ones, of the records added."""

    def __init__(self, fmt: str) -> None:
        self.numeric = {c.name: c.type for c in columns(fmt) if c.numeric}
        self.rows = 0
        self.non_null: Counter[str] = Counter()
        self.sums: dict[str, float] = {}

    def add(self, record: dict[str, Any]) -> None:
        self.rows += 1
        for k, v in record.items():
            if v is not None and v != "":
                self.non_null[k] += 1
                if k in self.numeric:
                    number = float(v) if self.numeric[k] == "double" else int(v)
                    self.sums[k] = self.sums.get(k, 0) + number

    def answer(self) -> dict[str, Any]:
        return {"rows": self.rows, "non_null": dict(self.non_null), "sums": self.sums}


def _recount(root: Path, fmt: str) -> dict[str, Any]:
    """The truth recounted from the files with Python's csv and json modules."""
    everything, filtered = Tally(fmt), Tally(fmt)
    users: set[str] = set()
    chars = 0
    groups: Counter[str] = Counter()
    for p in sorted((root / fmt).rglob(f"*.{fmt}")):
        with p.open(encoding="utf-8", newline="") as f:
            records = csv.DictReader(f) if fmt == "csv" else (json.loads(line) for line in f)
            for r in records:
                everything.add(r)
                if int(r[FILTER_COLUMN]) == FILTER_VALUE:
                    filtered.add(r)
                groups[f"{p.parent.parent.name}/{p.name}"] += 1
                users.add(r["user_name"])
                chars += len(r["user_name"])
    return {
        "all": everything.answer(),
        "filtered": filtered.answer(),
        "distinct": len(users),
        "chars": chars,
        "groups": groups,
    }


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_truth_matches_python_recount(data: tuple[Path, dict[str, Any]], fmt: str) -> None:
    root, truth = data
    got = _recount(root, fmt)
    assert check(truth, fmt, "Q1", {"rows": got["all"]["rows"]}) == (True, "")
    assert check(truth, fmt, "Q3", got["all"]) == (True, "")
    quantity = got["all"]["sums"]["quantity"]
    assert check(truth, fmt, "Q2", {"sum": quantity, "length": got["chars"]}) == (True, "")
    assert check(truth, fmt, "Q2d", {"sum": quantity, "distinct": got["distinct"]}) == (True, "")
    assert check(truth, fmt, "Q4", {"groups": dict(got["groups"])}) == (True, "")
    assert check(truth, fmt, "Q6", got["filtered"]) == (True, "")
    assert 0.005 < got["filtered"]["rows"] / got["all"]["rows"] < 0.02  # about 1 % pass the filter


@pytest.mark.parametrize("data_dir", ["csv", "csv_aligned", "json"])
def test_truth_matches_duckdb(data: tuple[Path, dict[str, Any]], data_dir: str) -> None:
    duckdb = pytest.importorskip("duckdb")
    root, truth = data
    fmt = "json" if data_dir == "json" else "csv"
    glob = str(root / data_dir / f"**/*.{fmt}")
    src = (
        f"read_json('{glob}', format='newline_delimited', union_by_name=true)"
        if fmt == "json"
        else f"read_csv('{glob}', header=true, union_by_name=true)"
    )
    con = duckdb.connect()
    t = truth[fmt]
    cols = t["columns"]
    counts = ", ".join(f"count({c})" for c in cols)
    row = con.execute(
        f"SELECT count(*), {counts}, sum(quantity), count(DISTINCT user_name), sum(length(user_name)), "
        f"sum(amount), sum(session_id) FROM {src}"
    ).fetchone()
    assert row[0] == t["rows"]
    assert dict(zip(cols, row[1 : 1 + len(cols)], strict=True)) == t["non_null"]
    assert list(row[1 + len(cols) :]) == pytest.approx(
        [
            t["sums"]["quantity"],
            t["distinct"]["user_name"],
            t["chars"]["user_name"],
            t["sums"]["amount"],
            t["sums"]["session_id"],
        ]
    )
    f = t["filtered"]
    row = con.execute(f"SELECT count(*), {counts}, sum(price) FROM {src} WHERE {f['predicate']}").fetchone()
    assert row[0] == f["rows"]
    assert dict(zip(cols, row[1 : 1 + len(cols)], strict=True)) == f["non_null"]
    assert row[-1] == pytest.approx(f["sums"]["price"])


def test_check_reports_wrong_answers(data: tuple[Path, dict[str, Any]]) -> None:
    _, truth = data
    want = expected(truth, "csv", "Q2")
    assert check(truth, "csv", "Q2", dict(want)) == (True, "")
    ok, note = check(truth, "csv", "Q2", {**want, "sum": want["sum"] + 1})
    assert not ok and note.startswith("sum: got")
    ok, note = check(truth, "csv", "Q5", {"columns": sorted(truth["csv"]["columns"])[1:]})
    assert not ok
    want = expected(truth, "json", "Q6")
    ok, note = check(truth, "json", "Q6", {**want, "non_null": {**want["non_null"], "tags": -1}})
    assert not ok and note.startswith("non_null.tags: got -1")
