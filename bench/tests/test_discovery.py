"""Issue 30: a timed schema discovery (Q5) that spark-drill's discovery cache served is no discovery. The
runner fails such a run (sequential and interleaved), the spark-drill engines load Q5 with the caches off and
Q5c with them on, and the cache's re-loads stay out of the discovery comparisons. Only the last two tests
start Spark, and only when asked (BENCH_SPARK_TESTS=1)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from bench.discovery import Found, observe, problem, summary
from bench.engines import BY_NAME, ENGINES, Engine, NotApplicable, Unavailable
from bench.engines import spark as spark_engines
from bench.interleave import one_run, run_queries
from bench.plot import discovery_rows
from bench.report import TARGETS, cache_table, markdown, table
from bench.run import measure
from bench.truth import Answer, Truth

COLUMNS = ["a", "b"]
TRUTH: Truth = {"csv": {"columns": COLUMNS}}
COLD = Found(files=4, memory=0, directory=0, discovered=4)
FROM_MEMORY = Found(files=4, memory=4, directory=0, discovered=0)
FROM_DIRECTORY = Found(files=4, memory=0, directory=4, discovered=0)
PARTLY = Found(files=4, memory=3, directory=0, discovered=1)


class Scripted(Engine):
    """An engine whose every load() found its schemas as the script says, one entry a run (the runner asks
    after each timed run): as spark-drill's Q5 did before issue 30, a cold warm-up and re-loads after it."""

    name = "scripted"
    schema_cache = True

    def __init__(self, script: Sequence[Found | None], schema_cache: bool = True) -> None:
        super().__init__(Path("/nonexistent"))
        self.script = list(script)
        self.schema_cache = schema_cache
        self.asked = 0
        self.setups: list[str] = []

    def setup(self, query: str) -> None:
        self.setups.append(query)

    def last_discovery(self) -> Found | None:
        self.asked += 1
        return self.script.pop(0)

    def q5(self) -> Answer:
        return {"columns": COLUMNS}

    def q5c(self) -> Answer:
        return {"columns": COLUMNS}

    def q1(self) -> Answer:
        raise NotApplicable("scripted")

    q2 = q2d = q3 = q4 = q6 = q1


# ------------------------------------------------------------------------------------------ the check itself
def test_q5_must_discover_every_file() -> None:
    assert problem("Q5", COLD) == ""
    assert problem("Q5", FROM_MEMORY).startswith("served by a discovery cache, so not a discovery (4 files:")
    assert "4 from schemaCache" in problem("Q5", FROM_DIRECTORY)
    assert "3 from the session's cache" in problem("Q5", PARTLY)  # one hit is one too many
    assert "unknown" in problem("Q5", None)  # with a cache, an unknown run could have been either
    assert problem("Q5", Found(0, 0, 0, 0)) != ""  # nothing listed: nothing measured


def test_q5c_must_be_served_whole_by_its_cache() -> None:
    assert problem("Q5c", FROM_MEMORY) == ""
    assert problem("Q5c", COLD) == "not every schema from the session's cache (4 files: 4 discovered, " + (
        "0 from the session's cache, 0 from schemaCache)"
    )
    assert problem("Q5c", FROM_DIRECTORY) != ""
    assert problem("Q5c-dir", FROM_DIRECTORY) == ""
    assert problem("Q5c-dir", FROM_MEMORY) != ""
    assert problem("Q1", FROM_MEMORY) == ""  # not a discovery query


def test_observe_records_every_timed_run_of_an_engine_with_a_cache() -> None:
    result: dict[str, Any] = {}
    assert observe(result, "Q5", COLD, has_cache=True) == ""
    assert observe(result, "Q5", FROM_MEMORY, has_cache=True) != ""
    assert result["discovery"] == [
        {"files": 4, "memory": 0, "directory": 0, "discovered": 4},
        {"files": 4, "memory": 4, "directory": 0, "discovered": 0},
    ]
    plain: dict[str, Any] = {}
    assert observe(plain, "Q5", None, has_cache=False) == ""  # DuckDB, Polars, Spark: nothing to check
    assert plain == {}
    assert summary("Q5", result["discovery"][:1]) == "every timed run: 4 files discovered, none from a cache"


# ------------------------------------------------------------------------------------------ the runner
def test_a_timed_q5_a_cache_served_fails_the_run() -> None:
    # Before issue 30: the warm-up discovered every file; each timed run found them in the session's cache.
    engine = Scripted([FROM_MEMORY, FROM_MEMORY, FROM_MEMORY])
    result = measure(engine, "Q5", TRUTH, runs=3, warmup=1)
    assert result["status"] == "error"
    assert result["note"].startswith("timed run 1: served by a discovery cache, so not a discovery")
    assert len(result["times"]) == 1 and result["median"] == result["times"][0]  # shown in parentheses
    assert result["discovery"] == [{"files": 4, "memory": 4, "directory": 0, "discovered": 0}]
    assert engine.setups == ["Q5"]


def test_a_hit_in_any_timed_run_fails_it() -> None:
    engine = Scripted([COLD, PARTLY, COLD])
    result = measure(engine, "Q5", TRUTH, runs=3, warmup=0)
    assert (result["status"], result["note"][:12]) == ("error", "timed run 2:")


def test_cold_timed_runs_pass_and_say_so() -> None:
    engine = Scripted([COLD, COLD, COLD])
    result = measure(engine, "Q5", TRUTH, runs=3, warmup=1)
    assert result["status"] == "ok", result["note"]
    assert len(result["times"]) == 3 and len(result["discovery"]) == 3
    assert engine.asked == 3  # timed runs only: the warm-up may have been anything
    assert result["note"] == "every timed run: 4 files discovered, none from a cache"


def test_an_engine_with_a_cache_must_tell_how_it_found_the_schemas() -> None:
    result = measure(Scripted([None]), "Q5", TRUTH, runs=1, warmup=0)
    assert result["status"] == "error" and "unknown" in result["note"]


def test_an_engine_with_no_cache_is_not_checked() -> None:
    result = measure(Scripted([None, None], schema_cache=False), "Q5", TRUTH, runs=1, warmup=1)
    assert result["status"] == "ok" and "discovery" not in result


def test_q5c_is_timed_from_the_cache_its_setup_filled() -> None:
    engine = Scripted([FROM_MEMORY, FROM_MEMORY])
    result = measure(engine, "Q5c", TRUTH, runs=2, warmup=0)
    assert result["status"] == "ok" and engine.setups == ["Q5c"]
    assert result["note"] == "every timed run: 4 files from the session's cache, none discovered"
    result = measure(Scripted([COLD]), "Q5c", TRUTH, runs=1, warmup=0)
    assert result["status"] == "error" and "not every schema from the session's cache" in result["note"]


def test_interleaved_runs_are_checked_too() -> None:
    engine = Scripted([FROM_MEMORY])
    reply = one_run(engine, "Q5", TRUTH, first=True, timed=True)
    assert reply["status"] == "error" and reply["note"].startswith("served by a discovery cache")
    assert reply["discovery"] == [{"files": 4, "memory": 4, "directory": 0, "discovered": 0}]
    assert "time" in reply and engine.setups == ["Q5"]
    warm = Scripted([])  # a warm-up run is not asked
    assert one_run(warm, "Q5", TRUTH, first=True, timed=False)["status"] == "ok"


class Server:
    """An engine's process as the coordinator sees it, replying as one_run would."""

    def __init__(self, name: str, replies: list[dict[str, Any]]) -> None:
        self.name = name
        self.replies = replies
        self.timed: list[bool] = []

    def ask(self, cmd: dict[str, Any], timeout: float) -> dict[str, Any]:
        self.timed.append(cmd["timed"])
        return self.replies.pop(0)


def test_the_coordinator_keeps_the_error_and_each_timed_run_s_discovery() -> None:
    cold = {"files": 4, "memory": 0, "directory": 0, "discovered": 4}
    hit = {"files": 4, "memory": 4, "directory": 0, "discovered": 0}
    good = Server(
        "good", [{"status": "ok", "time": 1.0}] + [{"status": "ok", "time": 1.0, "discovery": [cold]}] * 2
    )
    bad = Server(
        "bad",
        [
            {"status": "ok", "time": 1.0},
            {"status": "error", "time": 0.02, "note": "served by a discovery cache", "discovery": [hit]},
        ],
    )
    done = run_queries([good, bad], ["Q5"], 2, 1, 5, wait=lambda: None)  # type: ignore[list-item]
    assert good.timed == [False, True, True]
    assert done["good"]["Q5"]["status"] == "ok" and done["good"]["Q5"]["discovery"] == [cold, cold]
    assert done["good"]["Q5"]["note"] == "every timed run: 4 files discovered, none from a cache"
    assert done["bad"]["Q5"] == {
        "status": "error",
        "note": "served by a discovery cache",
        "times": [0.02],
        "median": 0.02,
        "discovery": [hit],
    }


# ------------------------------------------------------------------------------------------ the engines
DRILL = [e for e in ENGINES if e.family == "spark-drill"]


def test_only_spark_drill_keeps_schemas_between_loads() -> None:
    assert DRILL
    for e in ENGINES:
        assert e.schema_cache == (e.family == "spark-drill"), e.name
        if not e.schema_cache:
            with pytest.raises(NotApplicable, match="no schema cache"):
                e(Path("/nonexistent")).run("Q5c-dir")


@pytest.mark.parametrize("engine", [e.name for e in DRILL])
def test_spark_drill_loads_q5_with_its_caches_off(engine: str, tmp_path: Path) -> None:
    e = BY_NAME[engine](tmp_path / "data")
    assert isinstance(e, spark_engines.Drill)
    q5 = e.discovery("Q5")
    assert q5["sessionSchemaCache"] == "false" and "schemaCache" not in q5
    assert {k: v for k, v in q5.items() if k != "sessionSchemaCache"} == e.discovery_options
    assert e.discovery("Q5c")["sessionSchemaCache"] == "true"
    with pytest.raises(RuntimeError, match="before its setup"):
        e.discovery("Q5c-dir")
    e._cache_dir = tempfile.TemporaryDirectory(dir=tmp_path)
    try:
        q5c_dir = e.discovery("Q5c-dir")
        assert q5c_dir["sessionSchemaCache"] == "false"  # the directory alone serves
        assert not Path(q5c_dir["schemaCache"]).is_relative_to(e.root)
    finally:
        e._cache_dir.cleanup()


class Java:
    """A stand-in for a Py4J object: attribute calls answer from a dict."""

    def __init__(self, class_name: str = "", **members: Any) -> None:
        self.class_name = class_name
        self.members = members

    def getClass(self) -> Java:  # Java's name
        name = self.class_name
        return Java(getName=name, getSimpleName=name.rsplit(".", 1)[-1])

    def __getattr__(self, name: str) -> Any:
        value = self.members[name]
        return lambda *args: value(*args) if callable(value) else value


def _seq(*items: Any) -> Java:
    return Java(size=len(items), apply=lambda i: items[i])


def _dataframe(table: Java) -> Any:
    relation = Java("org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation", table=table)
    project = Java("org.apache.spark.sql.catalyst.plans.logical.Project", children=_seq(relation))
    execution = Java(analyzed=project)
    return type("DataFrame", (), {"_jdf": Java(queryExecution=execution)})()


def test_found_reads_the_discovery_stats_of_the_loaded_table() -> None:
    stats = Java(files=96, fromMemory=96, fromDirectory=0, discovered=0)
    table = Java(spark_engines.DRILL_TABLE, scan=Java(discoveryStats=stats))
    assert spark_engines.found(_dataframe(table)) == Found(files=96, memory=96, directory=0, discovered=0)
    with pytest.raises(RuntimeError, match="cannot tell how spark-drill found the schemas"):
        spark_engines.found(_dataframe(Java("org.apache.spark.sql.execution.datasources.v2.csv.CSVTable")))


# ------------------------------------------------------------------------------------------ the report
def test_no_target_compares_a_re_load_from_the_cache() -> None:
    assert {"Q5c", "Q5c-dir"}.isdisjoint(t.query for t in TARGETS)
    assert any(t.query == "Q5" for t in TARGETS)  # the cold discovery is what the targets compare


def _result(engine: str, medians: dict[str, float]) -> dict[str, Any]:
    e = BY_NAME[engine]
    queries = {
        q: {"status": "ok", "median": m, "times": [m], "note": f"{q} note"} for q, m in medians.items()
    }
    return {
        "engine": engine,
        "fmt": e.fmt,
        "data": e.data,
        "status": "ok",
        "description": e.description,
        "queries": queries,
    }


def _res() -> dict[str, Any]:
    sizes = {"files": 4, "rows": 10, "bytes": 1000, "aligned_bytes": 1000}
    return {
        "time": "2026-11-28T00:00:00+00:00",
        "data": "d",
        "truth_meta": {},
        "sizes": {"csv": sizes, "json": sizes},
        "machine": {
            "cpus": 2,
            "cpu": "x",
            "memory_gib": 1,
            "os": "o",
            "versions": {"python": "3", "pyspark": "4", "duckdb": "2", "java": "17"},
        },
        "runs": 3,
        "warmup": 1,
        "results": [
            _result("spark-drill-csv", {"Q1": 1.0, "Q5": 0.6, "Q5c": 0.02, "Q5c-dir": 0.1}),
            _result("spark-csv-aligned-infer", {"Q5": 8.6}),
        ],
    }


def test_the_report_keeps_the_cache_apart_from_discovery() -> None:
    res = _res()
    csv = table(res, "csv")
    assert "| Q5 schema discovery | spark-drill-csv | 0.600 |" in csv
    assert "Q5c" not in csv  # no re-load in the discovery table, nor a ratio of one
    cache = cache_table(res).splitlines()
    assert cache[0].startswith("| engine | Q5 schema discovery, s | Q5c schema re-load, session cache, s |")
    assert cache[2].startswith("| spark-drill-csv | 0.600 | 0.020 | 0.100 |")
    assert len(cache) == 3  # Spark's reader keeps no schemas: no row
    md = markdown(res)
    assert "## Discovery cache (spark-drill only; a re-load, not a discovery)" in md
    assert md.index("## Discovery cache") > md.index("## Targets")


def test_the_plot_s_discovery_panel_has_q5_alone() -> None:
    assert {(r["engine"], r["query"]) for r in discovery_rows(_res())} == {
        ("spark-drill-csv", "Q5"),
        ("spark-csv-aligned-infer", "Q5"),
    }


# ------------------------------------------------------------------------------------------ with Spark
@pytest.fixture(scope="module")
def drill(request: pytest.FixtureRequest) -> Iterator[spark_engines.Drill]:
    """spark-drill-csv-infer on the generated data, in this process (a Spark session: BENCH_SPARK_TESTS=1,
    the jar from $SPARK_DRILL_JAR or the installed spark_drill)."""
    if os.environ.get("BENCH_SPARK_TESTS") != "1":
        pytest.skip("starts Spark: set BENCH_SPARK_TESTS=1")
    pytest.importorskip("pyspark")
    root, _ = request.getfixturevalue("data")
    engine = BY_NAME["spark-drill-csv-infer"](root)
    assert isinstance(engine, spark_engines.Drill)
    try:
        engine.start()
    except Unavailable as e:
        pytest.skip(str(e))
    engine.prepare()  # as the runner does: the session's cache is full of this tree's schemas
    yield engine
    engine.stop()


def test_with_spark_q5_is_cold_and_q5c_is_served_by_each_cache(
    drill: spark_engines.Drill, data: tuple[Path, dict[str, Any]]
) -> None:
    _, truth = data
    files = truth["csv"]["files"]
    for query, source in (("Q5", "discovered"), ("Q5c", "memory"), ("Q5c-dir", "directory")):
        result = measure(drill, query, truth, runs=2, warmup=1)
        assert result["status"] == "ok", (query, result["note"])
        assert [r[source] for r in result["discovery"]] == [files, files], query


def test_with_spark_a_q5_with_the_session_cache_on_fails(
    drill: spark_engines.Drill, data: tuple[Path, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Q5 as it was before issue 30: the cache's default left on. The warm-up (or prepare()) fills it, and the
    # DiscoveryStats read over Py4J show every timed run served by it.
    _, truth = data
    on = {**drill.discovery_options, "sessionSchemaCache": "true"}
    monkeypatch.setattr(drill, "discovery", lambda query: on)
    result = measure(drill, "Q5", truth, runs=2, warmup=1)
    assert result["status"] == "error"
    assert result["note"].startswith("timed run 1: served by a discovery cache, so not a discovery")
