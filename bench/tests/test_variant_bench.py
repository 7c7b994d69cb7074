"""bench.variant (issue 42): the sides of a pair run in turns, answers are judged against each other and the
truth, the report renders, and the smoke data has the members the queries read. The last test runs the
script's `--smoke` mode in a Spark session, only when asked (BENCH_SPARK_TESTS=1) and on PySpark 4."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from bench import variant


def test_rounds_warm_up_then_alternate_the_order() -> None:
    assert list(variant.rounds(runs=3, warmup=1)) == [
        (False, (0, 1)),
        (True, (1, 0)),
        (True, (0, 1)),
        (True, (1, 0)),
    ]
    assert list(variant.rounds(runs=0, warmup=-1)) == [(True, (0, 1))]  # at least one timed round


def test_measure_runs_the_sides_in_turns_and_checks_their_answers() -> None:
    calls: list[str] = []

    def side(label: str, answer: tuple[int, ...]) -> variant.Side:
        def build(spark: Any, path: str) -> Any:
            calls.append(f"build {label} {path}")
            return label

        def run(df: Any) -> variant.Answer:
            calls.append(f"run {df}")
            return answer

        return variant.Side(label, build, run)

    spark: Any = object()  # the sides' build never uses it
    pair = variant.Pair("p", "a test", 1.0, side("A", (7,)), side("B", (7,)), lambda t: (t["rows"],))
    got = variant.measure(spark, pair, "/d", {"rows": 7}, runs=2, warmup=1, wait=lambda: None)
    assert calls == ["build A /d", "build B /d", "run A", "run B", "run B", "run A", "run A", "run B"]
    assert [len(t) for t in got["times"].values()] == [2, 2]
    assert len(got["paired"]) == 2 and got["problem"] is None
    assert got["answers"] == {"A": (7,), "B": (7,)}

    wrong = variant.Pair("p", "a test", 1.0, side("A", (7,)), side("B", (8,)))
    assert variant.measure(spark, wrong, "/d", {}, 1, 0, lambda: None)["problem"] == (
        "the sides differ: (7,) against (8,)"
    )


def test_an_answer_is_judged_against_the_other_side_and_the_truth() -> None:
    assert variant.disagreement((1,), (1,), (1,)) is None
    assert variant.disagreement((1,), (1,), None) is None
    assert variant.disagreement(None, None, None) is None
    assert variant.disagreement((1,), (2,), (1,)) == "the sides differ: (1,) against (2,)"
    assert variant.disagreement((2,), (2,), (1,)) == "(2,), the data's truth is (1,)"


def test_the_report_gives_medians_ratios_and_targets() -> None:
    result: dict[str, Any] = {
        "data": "bench/data/full",
        "rows": 1000,
        "bytes": 3 * 2**20,
        "files": 4,
        "machine": "x86_64, 2 cores, 2026-01-01",
        "spark": "4.0.0",
        "runs": 3,
        "warmup": 1,
        "argv": ["--runs", "3"],
        "pairs": [
            {
                "pair": "scan",
                "times": {"spark-drill": [1.0, 2.0, 1.0], "Spark json": [3.0, 4.0, 3.0]},
                "paired": [3.0, 2.0, 3.0],
                "problem": None,
            },
            {
                "pair": "member",
                "times": {"device VARIANT": [2.0], "device STRING": [1.0]},
                "paired": [0.5],
                "problem": "the sides differ: (1,) against (2,)",
            },
        ],
    }
    report = variant.markdown(result)
    assert "| scan | spark-drill | Spark json | 1.00 | 3.00 | 3.00x | 3.00x | 2x (met) | equal |" in report
    assert "| member | device VARIANT | device STRING | 2.00 | 1.00 | 0.50x | 0.50x | 1x (MISSED) |" in report
    assert "WRONG: the sides differ" in report
    assert "`python -m bench.variant --runs 3`" in report


def test_every_pair_has_two_sides_and_a_target() -> None:
    assert list(variant.BY_NAME) == ["scan", "count", "get2", "member"]
    for pair in variant.PAIRS:
        assert pair.target >= 1.0 and pair.a.label != pair.b.label


def test_the_smoke_data_has_the_members_the_queries_read(tmp_path: Path) -> None:
    root = variant.smoke_data(tmp_path)
    truth = json.loads((root / "truth.json").read_text())["json"]
    files = sorted((root / "json").rglob("*.json"))
    records = [json.loads(line) for f in files for line in f.read_text(encoding="utf-8").splitlines()]
    assert len(records) == truth["rows"] > 0
    assert all(isinstance(r["quantity"], int) for r in records)
    devices = [r.get(variant.MEMBER) for r in records]
    assert sum(d is not None for d in devices) == truth["non_null"][variant.MEMBER]
    assert any(d is None for d in devices) and any(isinstance(d, dict) and "os" in d for d in devices)


def test_an_unknown_pair_is_refused_before_spark_starts() -> None:
    with pytest.raises(SystemExit):
        variant.main(["--pairs", "scan,nope"])


def test_the_smoke_mode_runs_every_pair_in_spark(tmp_path: Path) -> None:
    if os.environ.get("BENCH_SPARK_TESTS") != "1":
        pytest.skip("starts Spark: set BENCH_SPARK_TESTS=1")
    pyspark = pytest.importorskip("pyspark")
    if int(pyspark.__version__.split(".")[0]) < 4:
        pytest.skip("VARIANT is Spark 4's")
    out = tmp_path / "variant.md"
    assert variant.main(["--smoke", "--out", str(out)]) == 0
    report = out.read_text()
    for name in variant.BY_NAME:
        assert f"| {name} |" in report
    assert "WRONG" not in report
    result = json.loads(out.with_suffix(".json").read_text())
    assert [m["pair"] for m in result["pairs"]] == list(variant.BY_NAME)
