"""Interleaved runs: every engine in its own process, each query's runs taken in turns, and the targets judged
by the paired runs' ratios."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bench import run
from bench.interleave import run_queries, settle

REPO = Path(__file__).resolve().parents[2]


class Scripted:
    """An engine's process as the coordinator sees it: answers from a script, and a log of who ran when."""

    def __init__(self, name: str, log: list[tuple[str, str, bool]], wrong: bool = False) -> None:
        self.name = name
        self.log = log
        self.wrong = wrong
        self.runs = 0

    def ask(self, cmd: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.log.append((self.name, cmd["query"], cmd["first"]))
        self.runs += 1
        if self.wrong:
            return {"status": "wrong", "note": "off by one", "time": 9.0, "answer": {"rows": 1}}
        return {"status": "ok", "note": "", "time": float(self.runs)}


def test_runs_alternate_and_a_wrong_answer_is_timed_once() -> None:
    log: list[tuple[str, str, bool]] = []
    a, b, c = Scripted("a", log), Scripted("b", log), Scripted("c", log, wrong=True)
    waits: list[int] = []
    done = run_queries([a, b, c], ["Q1"], 3, 1, 5, wait=lambda: waits.append(len(log)))  # type: ignore[list-item]
    assert waits == list(range(len(log)))  # before every run
    assert [name for name, _, _ in log] == ["a", "b", "c", "b", "a", "a", "b", "b", "a"]
    assert [first for _, _, first in log] == [True, True, True] + [False] * 6
    assert done["a"]["Q1"] == {"status": "ok", "note": "", "times": [2.0, 3.0, 4.0], "median": 3.0}
    wrong = done["c"]["Q1"]
    assert (wrong["status"], wrong["times"], wrong["median"], wrong["answer"]) == (
        "wrong",
        [9.0],
        9.0,
        {"rows": 1},
    )


def test_interleaved_run_end_to_end(data: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    pytest.importorskip("polars")
    root, _ = data
    env = {**os.environ, "BENCH_DUCKDB_THREADS": "1", "BENCH_POLARS_THREADS": "1"}
    args = ["--interleave", "--engines", "duckdb-csv,polars-csv", "--data", str(root), "--queries", "Q1,Q3"]
    args += ["--runs", "2", "--warmup", "1", "--out", str(tmp_path), "--label", "t"]
    subprocess.run([sys.executable, "-m", "bench.run", *args], cwd=REPO, env=env, check=True)
    res = json.loads((tmp_path / "t.json").read_text())
    assert res["interleaved"] is True
    for rec in res["results"]:
        assert rec["status"] == "ok", rec["note"]
        assert rec["interleaved"] and rec["peak_rss_mb"] > 0 and rec["start_s"] >= 0
        for q in ("Q1", "Q3"):
            assert rec["queries"][q]["status"] == "ok", rec["queries"][q]
            assert len(rec["queries"][q]["times"]) == 2
    assert "Interleaved (`--interleave`)" in (tmp_path / "t.md").read_text()


def test_settle_waits_for_an_idle_machine_but_not_forever() -> None:
    busy = threading.Event()

    def spin() -> None:
        while not busy.is_set():
            pass

    threading.Thread(target=spin, daemon=True).start()
    t0 = time.monotonic()
    settle(window=0.1, most=1.0)  # one core of this machine is busy throughout: it gives up after a second
    waited = time.monotonic() - t0
    busy.set()
    assert 1.0 <= waited < 3.0
    t0 = time.monotonic()
    settle(idle=1.01, window=0.1, most=5.0)  # a machine is always less than 101 % busy: one window
    assert time.monotonic() - t0 < 1.0


def test_interleave_cannot_share_a_jvm(data: tuple[Path, dict[str, Any]]) -> None:
    root, _ = data
    args = ["--interleave", "--shared-jvm", "--engines", "duckdb-csv", "--data", str(root)]
    proc = subprocess.run(
        [sys.executable, "-m", "bench.run", *args], cwd=REPO, capture_output=True, text=True
    )
    assert proc.returncode != 0 and "cannot share one JVM" in proc.stderr


def test_an_engine_on_the_other_jar_is_named_with_at_b(data: tuple[Path, dict[str, Any]]) -> None:
    root, _ = data
    assert run.record("duckdb-csv@b")["engine"] == "duckdb-csv@b"
    assert run.record("duckdb-csv@b")["family"] == run.record("duckdb-csv")["family"]
    args = ["--interleave", "--engines", "duckdb-csv,duckdb-csv@b", "--data", str(root)]
    done = subprocess.run(
        [sys.executable, "-m", "bench.run", *args], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 2 and "needs --jar-b and --interleave" in done.stderr
