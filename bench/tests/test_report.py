"""The report: its targets name engines and queries that exist, and each ratio is taken between the two
engines a target names."""

from __future__ import annotations

from typing import Any

from bench.engines import BY_NAME
from bench.queries import BY_ID
from bench.report import TARGETS, inferred, targets


def test_targets_name_known_engines_and_queries() -> None:
    for t in TARGETS:
        assert BY_NAME[t.drill].family == "spark-drill", t
        assert t.other in BY_NAME and t.query in BY_ID, t
        assert BY_NAME[t.drill].fmt == BY_NAME[t.other].fmt, t


def _rec(engine: str, medians: dict[str, float], status: str = "ok") -> dict[str, Any]:
    e = BY_NAME[engine]
    queries = {q: {"status": status, "median": m, "note": ""} for q, m in medians.items()}
    return {"engine": engine, "fmt": e.fmt, "status": "ok", "queries": queries}


def test_ratio_is_between_the_named_engines() -> None:
    res = {
        "results": [
            _rec("spark-drill-json", {"Q3": 1.0}),  # not the engine the Q3 target names
            _rec("spark-drill-json-schema", {"Q3": 2.0}),
            _rec("spark-json-schema", {"Q3": 5.0}),
            _rec("polars-csv", {"Q3": 1.0}),
        ]
    }
    lines = targets(res).splitlines()
    json_q3 = next(
        t
        for t in TARGETS
        if (t.drill, t.other, t.query) == ("spark-drill-json-schema", "spark-json-schema", "Q3")
    )
    assert (
        f"| {json_q3.what} | spark-drill-json-schema | spark-json-schema | 2.50x (need 2x) | yes |" in lines
    )
    stretch = next(line for line in lines if "| polars-csv |" in line)
    assert stretch.endswith("not measured (spark-drill-csv: no correct result) |")
    assert lines[-1].endswith("| all right | yes |")


def test_wrong_spark_drill_answers_fail_the_last_target() -> None:
    res = {"results": [_rec("spark-drill-csv-infer", {"Q5": 1.0}, status="wrong")]}
    assert targets(res).splitlines()[-1].endswith("wrong or failed: spark-drill-csv-infer Q5 | **no** |")


def test_inferred_types_table() -> None:
    rec = _rec("duckdb-csv", {"Q5": 0.1})
    long = "STRUCT(a " + "x" * 60 + ")"
    rec["queries"]["Q5"]["types"] = {"quantity": "BIGINT", "device": long}
    table = inferred({"results": [rec]}, "csv").splitlines()
    assert table == [
        "| column | duckdb-csv |",
        "|---|---|",
        "| quantity | BIGINT |",
        f"| device | {long[:37]}... |",  # long (nested) types are cut to 40 characters
    ]
    assert inferred({"results": [rec]}, "json") == ""
