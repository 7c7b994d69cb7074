"""Every conformance case in ../shared/drill/cases, run end to end through PySpark (cases/README.md).

A case that spark-drill does not pass yet is listed in KNOWN_GAPS with the reason; those run as strict
xfails, so a case that starts passing fails the suite until it is taken off the list.
"""

from __future__ import annotations

import datetime as dt
import decimal
import gzip
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import DataFrame, SparkSession

pytestmark = pytest.mark.slow

CASES_DIR = Path(
    os.environ.get(
        "SPARK_DRILL_CASES", Path(__file__).resolve().parents[1].parent / "shared" / "drill" / "cases"
    )
)
CASES = sorted(CASES_DIR.glob("*.json")) if CASES_DIR.is_dir() else []

JSON_READER = "the JSON reader is not built yet"
PROVIDED = "provided schemas and typed text conversion are not built yet"
PROJECT = "the `project` option (Drill projection lists) is not built yet"
KNOWN_GAPS: dict[str, str] = {}


def _params() -> list[Any]:
    if not CASES:  # a clone without ../shared beside it: one skip that says where the cases were sought
        reason = f"no Drill cases in {CASES_DIR} (SPARK_DRILL_CASES names the directory)"
        return [pytest.param(None, id="no-cases", marks=pytest.mark.skip(reason=reason))]
    out = []
    for path in CASES:
        marks = []
        if path.stem in KNOWN_GAPS:
            marks.append(pytest.mark.xfail(reason=KNOWN_GAPS[path.stem], strict=True))
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


def _write_case(case: dict[str, Any], root: Path) -> None:
    zipped = set(case.get("gzip") or [])
    for rel, text in case["files"].items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(gzip.compress(data) if rel in zipped else data)


def _expected(value: Any, case_dir: str) -> Any:
    if isinstance(value, str):
        return value.replace("${CASE_DIR}", case_dir)
    if isinstance(value, list):
        return [_expected(v, case_dir) for v in value]
    if isinstance(value, dict):
        return {k: _expected(v, case_dir) for k, v in value.items()}
    return value


def _actual(value: Any) -> Any:
    """Collected values in the cases' JSON conventions."""
    if hasattr(value, "asDict"):
        return {k: _actual(v) for k, v in value.asDict(recursive=False).items()}
    if isinstance(value, list | tuple):
        return [_actual(v) for v in value]
    if isinstance(value, dict):
        return {k: _actual(v) for k, v in value.items()}
    if isinstance(value, dt.datetime):
        text = value.strftime("%Y-%m-%d %H:%M:%S")
        return text + (f".{value.microsecond:06d}".rstrip("0") if value.microsecond else "")
    if isinstance(value, dt.date):
        return value.strftime("%Y-%m-%d")
    return value


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(actual, decimal.Decimal):
        return expected is not None and decimal.Decimal(str(expected)) == actual
    if isinstance(expected, float) or isinstance(actual, float):
        if expected is None or actual is None:
            return expected is actual
        return math.isclose(float(expected), float(actual), rel_tol=1e-6)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(
            _same(e, a) for e, a in zip(expected, actual, strict=True)
        )
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(_same(expected[k], actual[k]) for k in expected)
    return bool(expected == actual)


def _sort_key(row: list[Any], indexes: list[int]) -> tuple[Any, ...]:
    return tuple((row[i] is None, repr(row[i]) if row[i] is not None else "") for i in indexes)


def _frame(spark: SparkSession, case: dict[str, Any], case_dir: Path) -> DataFrame:
    reader = spark.read.format("drill")
    for key, value in case.get("options", {}).items():
        reader = reader.option(key, value)
    project = case["project"]
    if isinstance(project, list) and project:
        reader = reader.option("project", ", ".join(project))
    if case.get("user_schema"):
        reader = reader.schema(case["user_schema"])
    df = reader.load(str(case_dir / case["scan_root"]))
    if case.get("where"):
        df = df.where(case["where"])
    if case.get("select"):
        df = df.selectExpr(*case["select"])
    if case.get("limit") is not None:
        df = df.limit(case["limit"])
    return df


@pytest.mark.parametrize("case_path", _params())
def test_drill_case(spark: SparkSession, tmp_path: Path, case_path: Path) -> None:
    case = json.loads(case_path.read_text())
    case_dir = Path(os.path.realpath(tmp_path))
    _write_case(case, case_dir)
    error = case.get("expect_error")
    if error:
        wanted = [error] if isinstance(error, str) else error
        with pytest.raises(Exception) as raised:
            df = _frame(spark, case, case_dir)
            df.count() if case["project"] == [] else df.collect()
        message = str(raised.value).lower()
        for part in wanted:
            assert part.lower() in message, f"error lacks {part!r}: {raised.value}"
        return

    df = _frame(spark, case, case_dir)
    if case["project"] == []:
        assert df.count() == case["expect_row_count"]
        return

    rows = [[_actual(v) for v in row] for row in df.collect()]
    schema = [[f.name, f.dataType.simpleString(), f.nullable] for f in df.schema.fields]
    expected_schema = case["expect_schema"]
    names = [s[0] for s in schema]
    expected_names = [s[0] for s in expected_schema]
    if case.get("names_ignore_case"):
        names, expected_names = [n.lower() for n in names], [n.lower() for n in expected_names]
    assert names == expected_names
    assert [s[1] for s in schema] == [s[1] for s in expected_schema]
    if case.get("check_nullable"):
        for got, want in zip(schema, expected_schema, strict=True):
            if want[2] is not None:
                assert got[2] == want[2], f"nullability of {got[0]}"

    expected_rows = _expected(case.get("expect_rows"), str(case_dir))
    if expected_rows is not None:
        order = case.get("order_by")
        if order:
            idx = [names.index(c.lower() if case.get("names_ignore_case") else c) for c in order]
            rows = sorted(rows, key=lambda r: _sort_key(r, idx))
            expected_rows = sorted(expected_rows, key=lambda r: _sort_key(r, idx))
        assert len(rows) == len(expected_rows), f"{rows} != {expected_rows}"
        for got, want in zip(rows, expected_rows, strict=True):
            assert _same(want, got), f"row {got} != {want}"
    if case.get("expect_row_count") is not None:
        assert len(rows) == case["expect_row_count"]
    if case.get("expect_batches") is not None:
        plan = df._jdf.queryExecution().executedPlan()
        batches = _input_batches(plan)
        assert batches == len(case["expect_batches"])


def _input_batches(plan: Any) -> int:
    """numInputBatches of the ColumnarToRow node in an executed plan."""
    nodes = [plan]
    while nodes:
        node = nodes.pop()
        if node.nodeName() == "ColumnarToRow":
            return int(node.metrics().apply("numInputBatches").value())
        children = node.children()
        nodes.extend(children.apply(i) for i in range(children.size()))
        if hasattr(node, "child") and node.nodeName() == "WholeStageCodegen":
            nodes.append(node.child())
    raise AssertionError("no ColumnarToRow node in the plan")
