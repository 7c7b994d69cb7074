"""The generator is deterministic and its truth.json is right (recounted by Python's csv/json and DuckDB)."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.gen import generate
from bench.schema import columns
from bench.truth import check, expected

SIZE_MB = 0.4


@pytest.fixture(scope="session")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("data")
    return out, generate(out, seed=3, size_mb=SIZE_MB, parts=2, jobs=2, newline=False, log=False)


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_deterministic_by_seed(data: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    root, _ = data
    generate(tmp_path / "a", seed=3, size_mb=SIZE_MB, parts=2, jobs=1, newline=False, log=False)
    assert _tree(tmp_path / "a") == _tree(root)  # same seed, one process instead of two: same bytes
    generate(tmp_path / "b", seed=4, size_mb=SIZE_MB, parts=2, jobs=1, newline=False, log=False)
    assert _tree(tmp_path / "b")["csv/2023/01/part-0.csv"] != _tree(root)["csv/2023/01/part-0.csv"]


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


def _recount(root: Path, fmt: str) -> dict[str, Any]:
    """The truth recounted from the files with Python's csv and json modules."""
    rows = 0
    non_null: Counter[str] = Counter()
    sums: dict[str, float] = {}
    users: set[str] = set()
    groups: Counter[str] = Counter()
    numeric = {c.name: c.type for c in columns(fmt) if c.numeric}
    for p in sorted((root / fmt).rglob(f"*.{fmt}")):
        with p.open(encoding="utf-8", newline="") as f:
            records = csv.DictReader(f) if fmt == "csv" else (json.loads(line) for line in f)
            for r in records:
                rows += 1
                groups[f"{p.parent.parent.name}/{p.name}"] += 1
                for k, v in r.items():
                    if v is not None and v != "":
                        non_null[k] += 1
                        if k in numeric:
                            sums[k] = sums.get(k, 0) + (float(v) if numeric[k] == "double" else int(v))
                users.add(r["user_name"])
    return {
        "rows": rows,
        "non_null": dict(non_null),
        "sums": sums,
        "distinct": len(users),
        "groups": groups,
    }


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_truth_matches_python_recount(data: tuple[Path, dict[str, Any]], fmt: str) -> None:
    root, truth = data
    got = _recount(root, fmt)
    assert check(truth, fmt, "Q1", {"rows": got["rows"]}) == (True, "")
    ok, note = check(
        truth, fmt, "Q3", {"rows": got["rows"], "non_null": got["non_null"], "sums": got["sums"]}
    )
    assert ok, note
    assert got["distinct"] == truth[fmt]["distinct"]["user_name"]
    assert check(truth, fmt, "Q4", {"groups": dict(got["groups"])}) == (True, "")


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
    row = con.execute(
        f"SELECT count(*), {', '.join(f'count({c})' for c in cols)}, sum(quantity), "
        f"count(DISTINCT user_name), sum(amount), sum(session_id) FROM {src}"
    ).fetchone()
    assert row[0] == t["rows"]
    assert dict(zip(cols, row[1 : 1 + len(cols)], strict=True)) == t["non_null"]
    assert list(row[1 + len(cols) :]) == pytest.approx(
        [t["sums"]["quantity"], t["distinct"]["user_name"], t["sums"]["amount"], t["sums"]["session_id"]]
    )


def test_check_reports_wrong_answers(data: tuple[Path, dict[str, Any]]) -> None:
    _, truth = data
    want = expected(truth, "csv", "Q2")
    assert check(truth, "csv", "Q2", dict(want)) == (True, "")
    ok, note = check(truth, "csv", "Q2", {**want, "sum": want["sum"] + 1})
    assert not ok and note.startswith("sum: got")
    ok, note = check(truth, "csv", "Q5", {"columns": sorted(truth["csv"]["columns"])[1:]})
    assert not ok
