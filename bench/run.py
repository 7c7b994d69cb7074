"""The benchmark runner.

    python -m bench.run [--data DIR] [--engines a,b] [--queries Q1,Q2] [--runs N] [--warmup N]
                        [--jar PATH] [--out DIR] [--label NAME] [--shared-jvm | --interleave]

runs every engine (bench/engines/) in its own process, one after the other: each process starts one
engine (one local[2] Spark session, a DuckDB connection, Polars, or nothing for cat), runs every query
`warmup` times untimed and `runs` times timed, checks the answers against the data's truth.json, and
records the median, the peak RSS of the process tree (the JVM included), and whether the answers were
right. An answer that is wrong is timed once only and reported as wrong; so is a timed schema discovery (Q5)
that spark-drill's discovery cache served, as an error (bench/discovery.py: Q5 is a first load(), the
cache's re-loads are Q5c and Q5c-dir). The results go to
DIR/<label>.json, DIR/<label>-<time>.json and DIR/<label>.md (see bench/report.py). With --interleave the
engines' processes all start at once and each query's runs are taken in turns (bench/interleave.py).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from bench import report
from bench.discovery import observe, summary
from bench.engines import BY_NAME, ENGINES, Engine, NotApplicable, Unavailable
from bench.queries import BY_ID, IDS
from bench.truth import Truth, check, load

RESULTS = Path(__file__).parent / "results"
# An engine's name with this suffix is the same engine on `--jar-b` (interleaved A/B of two jars).
JAR_B = "@b"


# ---------------------------------------------------------------------------------------------- memory
class PeakRss(threading.Thread):
    """Samples the RSS of this process and all its descendants (a Spark JVM, cat, ...)."""

    def __init__(self, interval: float = 0.1) -> None:
        super().__init__(daemon=True)
        self.interval = interval
        self.peak = 0
        self._stop_event = threading.Event()

    def sample(self) -> int:
        import psutil  # type: ignore[import-untyped,unused-ignore]

        me = psutil.Process()
        total = 0
        for p in [me, *me.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total

    def run(self) -> None:
        while not self._stop_event.is_set():
            self.peak = max(self.peak, self.sample())
            self._stop_event.wait(self.interval)

    def stop(self) -> int:
        self._stop_event.set()
        self.join()
        return self.peak


# ---------------------------------------------------------------------------------------------- one engine
def _plain(x: Any) -> Any:
    """Answers as JSON values: Decimal to float, tuples to lists."""
    if isinstance(x, Decimal):
        return float(x)
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    return x


def _error(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"[:300]


def measure(engine: Engine, query: str, truth: Truth, runs: int, warmup: int) -> dict[str, Any]:
    result: dict[str, Any] = {"status": "ok", "times": [], "note": ""}
    try:
        engine.setup(query)
        times: list[float] = []
        answer = None
        skip = max(warmup, 0)
        for i in range(skip + max(runs, 1)):
            t0 = time.perf_counter()
            answer = engine.run(query)
            times.append(time.perf_counter() - t0)
            # The first answer decides whether the engine is right.
            if i == 0 and not judge(engine, query, truth, answer, result):
                result.update(times=times, median=times[0])
                return result
            # A timed discovery run a cache served is no discovery (issue 30): timed once, as a wrong answer.
            if i >= skip and (why := observe(result, query, engine.last_discovery(), engine.schema_cache)):
                result.update(status="error", note=f"timed run {i - skip + 1}: {why}")
                result.update(times=times[-1:], median=times[-1])
                return result
        timed = times[skip:] or times
        result.update(times=timed, median=statistics.median(timed))
        result["note"] = summary(query, result.get("discovery", []))
    except NotApplicable as e:
        result.update(status="n/a", note=str(e))
    except Exception as e:
        result.update(status="error", note=_error(e))
    return result


def judge(engine: Engine, query: str, truth: Truth, answer: Any, result: dict[str, Any]) -> bool:
    """Whether `answer` (None: ask the engine for its check answer) is right. Notes in `result` what the
    engine inferred (Q5: reported, not checked) and, when wrong, why and what it answered."""
    if answer is None:
        answer = engine.check_answer(query)
    answer = _plain(answer)
    if "types" in answer:
        result["types"] = answer.pop("types")
    ok, note = check(truth, engine.fmt, query, answer, engine.data)
    if not ok:
        result.update(status="wrong", note=note, answer=answer)
    return ok


def worker(
    names: Sequence[str],
    data: Path,
    queries: Sequence[str],
    runs: int,
    warmup: int,
    out: Path,
    settings: dict[str, Any],
) -> None:
    """Runs engines one after the other in this process and writes their records (a JSON list) to `out`."""
    truth = load(data)
    rss = PeakRss()
    rss.start()
    recs = []
    for name in names:
        rss.peak = rss.sample()
        recs.append(run_engine(BY_NAME[name](data, **settings), truth, queries, runs, warmup))
        recs[-1]["peak_rss_mb"] = rss.peak / 2**20
        recs[-1]["shared_jvm"] = len(names) > 1
        out.write_text(json.dumps(recs, indent=1))
    if len(names) > 1:
        from pyspark.sql import SparkSession

        active = SparkSession.getActiveSession()
        if active is not None:
            active.stop()
    rss.stop()


def record(name: str) -> dict[str, Any]:
    """An engine's record before it runs: what it is, and no queries yet."""
    e = BY_NAME[name.removesuffix(JAR_B)]
    return {
        "engine": name,
        "fmt": e.fmt,
        "data": e.data,
        "family": e.family,
        "description": e.description,
        "status": "ok",
        "note": "",
        "queries": {},
    }


def start(engine: Engine, rec: dict[str, Any]) -> str:
    """Starts the engine and prepares its relation, noting in `rec` how long each took; why preparing failed,
    if it did (then the queries that read the relation fail with it)."""
    t0 = time.perf_counter()
    engine.start()
    rec["start_s"] = time.perf_counter() - t0
    prepare_error = ""
    t0 = time.perf_counter()
    try:
        engine.prepare()
    except Exception as e:
        prepare_error = _error(e)
    rec["prepare_s"] = time.perf_counter() - t0
    return prepare_error


def run_engine(
    engine: Engine, truth: Truth, queries: Sequence[str], runs: int, warmup: int
) -> dict[str, Any]:
    name = engine.name
    rec = record(name)
    try:
        prepare_error = start(engine, rec)
        for q in queries:
            if prepare_error and BY_ID[q].reads_relation:
                rec["queries"][q] = {"status": "error", "times": [], "note": prepare_error}
            else:
                rec["queries"][q] = measure(engine, q, truth, runs, warmup)
            if rec["queries"][q]["status"] != "n/a":
                print(f"  {name} {q}: {_summary(rec['queries'][q])}", file=sys.stderr, flush=True)
        engine.stop()
    except Unavailable as e:
        rec.update(status="unavailable", note=str(e))
        print(f"  {name}: not available: {e}", file=sys.stderr, flush=True)
    except Exception as e:
        rec.update(status="error", note=_error(e))
        traceback.print_exc()
    return rec


def _summary(q: dict[str, Any]) -> str:
    median = q.get("median")
    t = f"{median:.3f}s " if median is not None else ""
    return f"{t}{q['status']} {q.get('note', '')}".strip()


# ---------------------------------------------------------------------------------------------- all engines
def machine() -> dict[str, Any]:
    import psutil  # type: ignore[import-untyped,unused-ignore]

    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    versions: dict[str, str] = {"python": platform.python_version(), "java": java[0] if java else ""}
    for mod in ("pyspark", "duckdb", "polars"):
        try:
            versions[mod] = __import__(mod).__version__
        except ImportError:
            versions[mod] = "not installed"
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
        "os": platform.platform(),
        "versions": versions,
    }


def run_all(
    data: Path,
    engines: Sequence[str],
    queries: Sequence[str],
    runs: int,
    warmup: int,
    settings: dict[str, Any],
    timeout: float,
    shared_jvm: bool = False,
) -> dict[str, Any]:
    truth = load(data)
    groups: list[list[str]] = []
    spark_group: list[str] = []
    for name in engines:
        if shared_jvm and BY_NAME[name].family in ("spark", "spark-drill"):
            if not spark_group:
                groups.append(spark_group)
            spark_group.append(name)
        else:
            groups.append([name])
    results: dict[str, dict[str, Any]] = {}
    for group in groups:
        print(f"{', '.join(group)} ...", file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "result.json"
            cmd = [
                sys.executable,
                "-m",
                "bench.run",
                "--worker",
                ",".join(group),
                "--data",
                str(data),
                "--runs",
                str(runs),
                "--warmup",
                str(warmup),
                "--queries",
                ",".join(queries),
                "--result",
                str(out),
            ]
            if settings.get("jar"):
                cmd += ["--jar", str(settings["jar"])]
            t0 = time.perf_counter()
            note = ""
            try:
                proc = subprocess.run(cmd, cwd=Path(__file__).parent.parent, timeout=timeout)
                if proc.returncode != 0:
                    note = f"worker exited with {proc.returncode}"
            except subprocess.TimeoutExpired:
                note = f"timed out after {timeout:.0f}s"
            recs = json.loads(out.read_text()) if out.exists() else []
            for rec in recs:
                rec["wall_s"] = time.perf_counter() - t0 if len(group) == 1 else None
                results[rec["engine"]] = rec
            for name in group:
                if name not in results:
                    results[name] = {**record(name), "status": "error", "note": note or "no result"}
    return envelope(data, truth, runs, warmup, settings, [results[n] for n in engines], shared_jvm=shared_jvm)


def envelope(
    data: Path,
    truth: Truth,
    runs: int,
    warmup: int,
    settings: dict[str, Any],
    results: list[dict[str, Any]],
    shared_jvm: bool = False,
    interleaved: bool = False,
) -> dict[str, Any]:
    """A run's results with what they were measured on: the data, the settings and the machine."""
    return {
        "time": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "data": str(data),
        "sizes": {
            fmt: {
                "files": truth[fmt]["files"],
                "rows": truth[fmt]["rows"],
                "bytes": truth[fmt]["bytes"],
                **({"aligned_bytes": truth[fmt]["aligned_bytes"]} if fmt == "csv" else {}),
            }
            for fmt in ("csv", "json")
        },
        "truth_meta": truth.get("meta", {}),
        "runs": runs,
        "warmup": warmup,
        "jar": settings.get("jar") or os.environ.get("SPARK_DRILL_JAR") or "",
        "machine": machine(),
        "shared_jvm": shared_jvm,
        "interleaved": interleaved,
        "results": results,
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n")[0])
    p.add_argument("--data", type=Path, default=Path("bench/data/full"), help="generated data (bench.gen)")
    p.add_argument("--engines", help="comma-separated engine names (default all): " + ", ".join(BY_NAME))
    p.add_argument("--skip", default="", help="comma-separated engine names to leave out")
    p.add_argument("--queries", default=",".join(IDS), help="comma-separated query ids")
    p.add_argument("--runs", type=int, default=3, help="timed runs per query (the median is reported)")
    p.add_argument("--warmup", type=int, default=1, help="untimed runs before them")
    p.add_argument("--jar", help="the spark-drill jar (default: $SPARK_DRILL_JAR, else spark_drill's own)")
    p.add_argument("--out", type=Path, default=RESULTS, help="where the results go")
    p.add_argument("--label", help="results file name (default: the data directory's name)")
    p.add_argument("--timeout", type=float, default=3600, help="seconds per engine")
    p.add_argument(
        "--shared-jvm",
        action="store_true",
        help="run all Spark engines in one process, a session each (faster; peak RSS then shared)",
    )
    p.add_argument(
        "--interleave",
        action="store_true",
        help="start every engine at once, each in its own process, and take each query's runs in turns "
        "(bench/interleave.py); targets are then judged by the median of paired runs' ratios",
    )
    p.add_argument(
        "--jar-b",
        help=f"another spark-drill jar: an engine named <engine>{JAR_B} runs on it (with --interleave), "
        "so that two versions are timed in turns",
    )
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--serve", help=argparse.SUPPRESS)
    p.add_argument("--result", type=Path, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    ids = {q.upper(): q for q in IDS}  # Q2d: ids are matched in any case
    queries = [ids.get(q.strip().upper(), q.strip()) for q in a.queries.split(",") if q.strip()]
    if unknown_queries := [q for q in queries if q not in BY_ID]:
        p.error(f"unknown queries {unknown_queries}; known: {', '.join(IDS)}")
    settings = {"jar": a.jar} if a.jar else {}
    if a.serve:
        from bench.interleave import serve

        serve(a.serve, a.data, settings)
        return 0
    if a.worker:
        if len(a.worker.split(",")) > 1:
            from bench.engines.spark import Shared

            Shared.jvm = True
        worker(a.worker.split(","), a.data, queries, a.runs, a.warmup, a.result, settings)
        return 0
    if not (a.data / "truth.json").exists():
        p.error(f"no {a.data}/truth.json: generate the data first (python -m bench.gen)")
    if "filtered" not in load(a.data)["csv"]:
        p.error(
            f"{a.data}/truth.json predates Q6: generate the data again (the same seed gives the same files)"
        )
    names = [n.strip() for n in a.engines.split(",")] if a.engines else [e.name for e in ENGINES]
    if any(n.endswith(JAR_B) for n in names) and not (a.jar_b and a.interleave):
        p.error(f"an engine named <engine>{JAR_B} needs --jar-b and --interleave")
    unknown = [n for n in names if n.removesuffix(JAR_B) not in BY_NAME]
    if unknown:
        p.error(f"unknown engines {unknown}; known: {', '.join(BY_NAME)}")
    skip = {n.strip() for n in a.skip.split(",") if n.strip()}
    names = [n for n in names if n not in skip]
    if a.interleave and a.shared_jvm:
        p.error("--interleave runs each engine in its own process: it cannot share one JVM")
    if a.interleave:
        from bench.interleave import run_interleaved

        both = {**settings, "jar_b": a.jar_b} if a.jar_b else settings
        recs = run_interleaved(a.data, names, queries, a.runs, a.warmup, both, a.timeout)
        res = envelope(a.data, load(a.data), a.runs, a.warmup, settings, recs, interleaved=True)
    else:
        res = run_all(a.data, names, queries, a.runs, a.warmup, settings, a.timeout, a.shared_jvm)
    label = a.label or a.data.name
    a.out.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    text = json.dumps(res, indent=1)
    (a.out / f"{label}.json").write_text(text)
    (a.out / f"{label}-{stamp}.json").write_text(text)
    md = report.markdown(res)
    (a.out / f"{label}.md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
