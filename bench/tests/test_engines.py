"""The single-node engines (DuckDB, Polars) answer every query right on generated data, each run by the
runner's worker in a process of its own, as bench.run runs them (no JVM)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.queries import IDS

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("engine", "module"),
    [
        ("duckdb-csv", "duckdb"),
        ("duckdb-json", "duckdb"),
        ("polars-csv", "polars"),
        ("polars-json", "polars"),
    ],
)
def test_single_node_engine_answers_right(
    data: tuple[Path, dict[str, Any]], tmp_path: Path, engine: str, module: str
) -> None:
    pytest.importorskip(module)
    root, _ = data
    out = tmp_path / "result.json"
    env = {**os.environ, "BENCH_DUCKDB_THREADS": "1", "BENCH_POLARS_THREADS": "1"}
    args = ["--worker", engine, "--data", str(root), "--runs", "1", "--warmup", "0"]
    args += ["--queries", ",".join(IDS), "--result", str(out)]
    subprocess.run([sys.executable, "-m", "bench.run", *args], cwd=REPO, env=env, check=True)
    (rec,) = json.loads(out.read_text())
    assert rec["status"] == "ok", rec["note"]
    wrong = {q: r["note"] for q, r in rec["queries"].items() if r["status"] not in ("ok", "n/a")}
    assert not wrong
    assert rec["queries"]["Q0"]["status"] == "n/a"
    assert rec["queries"]["Q5"]["types"]["quantity"] in ("BIGINT", "Int64")  # reported beside the answer
