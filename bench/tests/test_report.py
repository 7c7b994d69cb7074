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
    assert stretch.endswith("not measured (spark-drill-csv: Q3 not run) |")
    assert lines[-1].endswith("| all right | yes |")


def test_a_target_whose_query_ran_without_a_correct_result_says_so() -> None:
    res = {"results": [_rec("spark-drill-csv", {"Q3": 1.0}, status="wrong"), _rec("polars-csv", {"Q3": 1.0})]}
    stretch = next(line for line in targets(res).splitlines() if "| polars-csv |" in line)
    assert stretch.endswith("not measured (spark-drill-csv: no correct result) |")


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


def test_interleaved_targets_use_paired_ratios() -> None:
    def rec(engine: str, times: list[float]) -> dict[str, Any]:
        r = _rec(engine, {"Q3": sorted(times)[len(times) // 2]})
        r["queries"]["Q3"]["times"] = times
        return r

    def q3_row(res: dict[str, Any]) -> str:
        lines = targets(res).splitlines()
        return next(line for line in lines if "Q3 all columns" in line and "| spark-csv-aligned |" in line)

    # Medians 2 and 4: 2x. Paired by round: 4/1, 3/2, 12/3 = 4x, 1.5x, 4x: median 4x.
    drill, spark = rec("spark-drill-csv", [1.0, 2.0, 3.0]), rec("spark-csv-aligned", [4.0, 3.0, 12.0])
    assert "| 4.00x (need 3.5x) | yes |" in q3_row({"interleaved": True, "results": [drill, spark]})
    assert "| 2.00x (need 3.5x) | **no** |" in q3_row({"interleaved": False, "results": [drill, spark]})
    # Not as many timed runs (one was wrong, say): the medians' ratio.
    spark["queries"]["Q3"]["times"] = [4.0]
    assert "| 2.00x (need 3.5x) | **no** |" in q3_row({"interleaved": True, "results": [drill, spark]})
