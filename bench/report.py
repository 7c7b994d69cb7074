"""Markdown tables of a run's results (bench/run.py writes them next to the JSON)."""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.engines import BASELINE
from bench.queries import BY_ID

MB = 1e6
CACHE_QUERIES = tuple(q for q in BY_ID.values() if q.cache)  # Q5c, Q5c-dir: reported apart (cache_table)


@dataclass(frozen=True)
class Target:
    """spark-drill engine `drill` must answer `query` `need` times faster than engine `other` (None: the
    ratio is reported, with no target)."""

    query: str
    drill: str
    other: str
    need: float | None
    what: str


def _against(drill: str, other: str, needs: Mapping[str, float | None], group: str) -> tuple[Target, ...]:
    return tuple(Target(q, drill, other, need, f"{group}: {q} {BY_ID[q].title}") for q, need in needs.items())


# The speed targets of issue 15.
TARGETS = (
    *_against(
        "spark-drill-csv",
        "spark-csv-aligned",
        {"Q3": 3.5, "Q2": 3.5, "Q1": 3.0, "Q6": 4.0},
        "CSV vs Spark, explicit schema, aligned copy",
    ),
    *_against(
        "spark-drill-csv-infer",
        "spark-csv-aligned-infer",
        {"Q5": 10.0},
        "CSV typed discovery vs Spark inferSchema, aligned copy",
    ),
    *_against(
        "spark-drill-csv",
        "duckdb-csv",
        dict.fromkeys(("Q1", "Q2", "Q2d", "Q3", "Q4", "Q5", "Q6"), 1.0),
        "CSV vs DuckDB",
    ),
    *_against("spark-drill-csv", "polars-csv", {"Q3": None}, "CSV vs Polars (stretch)"),
    *_against(
        "spark-drill-json-schema",
        "spark-json-schema",
        {"Q3": 2.0, "Q2": 1.75, "Q2d": 1.75, "Q1": 1.5, "Q6": 3.0},
        "JSON vs Spark, same schema given",
    ),
    *_against(
        "spark-drill-json",
        "spark-json-infer",
        {"Q5": 2.0},
        "JSON inference vs Spark's, samplingRatio 1.0",
    ),
    *_against(
        "spark-drill-json-schema",
        "duckdb-json",
        dict.fromkeys(("Q1", "Q2", "Q2d", "Q3", "Q4", "Q6"), 1.0),
        "JSON, schema given, vs DuckDB",
    ),
)


def data_bytes(res: dict[str, Any], rec: dict[str, Any]) -> int:
    sizes = res["sizes"][rec["fmt"]]
    return int(sizes["aligned_bytes"] if rec["data"] == "csv_aligned" else sizes["bytes"])


def rows(res: dict[str, Any], fmt: str) -> list[dict[str, Any]]:
    """One row per query and engine of a format, with the figures the table shows."""
    recs = [r for r in res["results"] if r["fmt"] == fmt]
    base = next((r for r in recs if r["engine"] == BASELINE[fmt] and r["status"] == "ok"), None)
    out = []
    for qid in BY_ID:
        for rec in recs:
            q = rec["queries"].get(qid)
            if rec["status"] != "ok" or q is None or q["status"] == "n/a":
                continue
            row: dict[str, Any] = {
                "query": qid,
                "engine": rec["engine"],
                "status": q["status"],
                "seconds": q.get("median"),
                "mbps": None,
                "ratio": None,
                "rss_mb": rec.get("peak_rss_mb"),
                "note": q.get("note", ""),
            }
            # A discovery reads headers and samples, not the data; a re-load from the cache (Q5c) is compared
            # with nothing: its figure stands apart (cache_table).
            if q["status"] == "ok" and q.get("median") and not BY_ID[qid].cache:
                if qid != "Q5":
                    row["mbps"] = data_bytes(res, rec) / MB / q["median"]
                b = base["queries"].get(qid) if base else None
                if b and b["status"] == "ok" and b.get("median"):
                    row["ratio"] = q["median"] / b["median"]
            out.append(row)
    return out


def _f(x: float | None, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def table(res: dict[str, Any], fmt: str) -> str:
    lines = [
        f"| query | engine | seconds | MB/s | time / {BASELINE[fmt]} | correct | peak RSS MiB | note |",
        "|---|---|---:|---:|---:|---|---:|---|",
    ]
    for r in rows(res, fmt):
        if BY_ID[r["query"]].cache:
            continue  # the cache's figures are not a discovery speed: cache_table
        q = BY_ID[r["query"]]
        lines.append(
            f"| {r['query']} {q.title} | {r['engine']} | {_seconds(r)} | {_f(r['mbps'], '.0f')} | "
            f"{_f(r['ratio'], '.2f')} | {_correct(r['status'])} | {_f(r['rss_mb'], '.0f')} | "
            f"{_note(r['note'])} |"
        )
    return "\n".join(lines)


def _correct(status: str) -> str:
    return {"ok": "yes", "wrong": "**no**", "error": "error"}.get(status, status)


def _seconds(r: dict[str, Any]) -> str:
    secs = _f(r["seconds"], ".3f")
    if r["status"] != "ok" and r["seconds"] is not None:
        secs = f"({secs})"  # a wrong answer's time is not a result, nor a discovery a cache served
    return secs


def _note(text: str) -> str:
    text = text.replace("|", "\\|")
    return text if len(text) <= 90 else text[:87] + "..."


def cache_table(res: dict[str, Any]) -> str:
    """spark-drill's discovery cache, apart from every discovery comparison (issue 30): per engine, its first
    load() with no cache (Q5, the table above's) beside the same load() again from each cache (Q5c,
    Q5c-dir); empty when no engine ran those."""
    recs = [
        r
        for r in res["results"]
        if r["status"] == "ok"
        and any(r["queries"].get(q.id, {}).get("status", "n/a") != "n/a" for q in CACHE_QUERIES)
    ]
    if not recs:
        return ""
    queries = [BY_ID["Q5"], *CACHE_QUERIES]
    lines = [
        "| engine | " + " | ".join(f"{q.id} {q.title}, s" for q in queries) + " | note |",
        "|---|" + "---:|" * len(queries) + "---|",
    ]
    for rec in recs:
        cells, notes = [], []
        for q in queries:
            r = rec["queries"].get(q.id)
            if r is None or r["status"] == "n/a":
                cells.append("-")
                continue
            row = {"status": r["status"], "seconds": r.get("median")}
            cells.append(_seconds(row) + ("" if r["status"] == "ok" else f" {_correct(r['status'])}"))
            if r.get("note"):
                notes.append(f"{q.id}: {r['note']}".replace("|", "\\|"))
        lines.append(f"| {rec['engine']} | " + " | ".join(cells) + f" | {'; '.join(notes)} |")
    return "\n".join(lines)


def _ran(res: dict[str, Any], engine: str, query: str) -> bool:
    """Whether this run timed (or tried) `query` on `engine`."""
    rec = next((r for r in res["results"] if r["engine"] == engine), None)
    return rec is not None and query in rec.get("queries", {})


def _median(res: dict[str, Any], engine: str, query: str) -> float | None:
    rec = next((r for r in res["results"] if r["engine"] == engine and r["status"] == "ok"), None)
    q = rec["queries"].get(query) if rec else None
    return float(q["median"]) if q and q["status"] == "ok" and q.get("median") else None


def _paired(res: dict[str, Any], t: Target) -> float | None:
    """Interleaved runs (bench/interleave.py): the median over rounds of the other engine's time over
    spark-drill's in the same round; None when the two have not as many timed runs."""
    times = []
    for engine in (t.drill, t.other):
        rec = next((r for r in res["results"] if r["engine"] == engine and r["status"] == "ok"), None)
        times.append(rec["queries"][t.query]["times"] if rec else [])
    mine, theirs = times
    if not mine or len(mine) != len(theirs):
        return None
    return float(statistics.median(b / a for a, b in zip(mine, theirs, strict=True)))


def _target_row(res: dict[str, Any], t: Target) -> str:
    head = f"| {t.what} | {t.drill} | {t.other} |"
    mine, theirs = _median(res, t.drill, t.query), _median(res, t.other, t.query)
    if mine is None or theirs is None:
        engine = t.drill if mine is None else t.other
        # A run of some engines or queries only (--engines, --queries) leaves the other targets unrun.
        why = "no correct result" if _ran(res, engine, t.query) else f"{t.query} not run"
        return f"{head} - | not measured ({engine}: {why}) |"
    paired = _paired(res, t) if res.get("interleaved") else None
    ratio = paired if paired is not None else theirs / mine
    if t.need is None:
        return f"{head} {ratio:.2f}x | no target |"
    return f"{head} {ratio:.2f}x (need {t.need:g}x) | {'yes' if ratio >= t.need else '**no**'} |"


def targets(res: dict[str, Any]) -> str:
    """The speed targets, each as the measured ratio and whether it holds."""
    lines = [
        "| target | spark-drill | other | measured (other / spark-drill time) | met |",
        "|---|---|---|---:|---|",
    ]
    lines += [_target_row(res, t) for t in TARGETS]
    wrong = []
    for name in dict.fromkeys(t.drill for t in TARGETS):
        rec = next((r for r in res["results"] if r["engine"] == name), None)
        if rec is None or rec["status"] != "ok":
            continue
        wrong += [f"{name} {q}" for q, v in rec["queries"].items() if v["status"] not in ("ok", "n/a")]
    lines.append(
        "| spark-drill answers right on every query | | | "
        + ("all right" if not wrong else "wrong or failed: " + ", ".join(wrong))
        + f" | {'yes' if not wrong else '**no**'} |"
    )
    return "\n".join(lines)


def inferred(res: dict[str, Any], fmt: str) -> str:
    """The type each engine's schema discovery (Q5) gave each column, as the engine names it."""
    found = {
        r["engine"]: q["types"]
        for r in res["results"]
        if r["fmt"] == fmt and (q := r["queries"].get("Q5")) and q.get("types")
    }
    if not found:
        return ""
    names = list(dict.fromkeys(c for types in found.values() for c in types))
    lines = ["| column | " + " | ".join(found) + " |", "|---|" + "---|" * len(found)]
    for c in names:
        cells = [_cell(types.get(c, "-")) for types in found.values()]
        lines.append(f"| {c} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _cell(text: str, n: int = 40) -> str:
    """A type name for a table cell: nested types can be long."""
    text = text if len(text) <= n else text[: n - 3] + "..."
    return text.replace("|", "\\|")


def markdown(res: dict[str, Any]) -> str:
    m = res["machine"]
    v = m["versions"]
    out = [
        f"# Benchmark results ({res['time']})",
        "",
        f"Data `{res['data']}` (seed {res['truth_meta'].get('seed')}); "
        + "; ".join(
            f"{fmt}: {s['files']} files, {s['rows']:,} rows, {s['bytes'] / 2**20:.0f} MiB"
            for fmt, s in res["sizes"].items()
        )
        + ".",
        f"Machine: {m['cpus']} CPUs ({m['cpu']}), {m['memory_gib']} GiB; {m['os']}. "
        f"Python {v['python']}, PySpark {v['pyspark']}, DuckDB {v['duckdb']}, "
        f"Polars {v.get('polars', 'not recorded')}, {v['java']}.",
        f"Median of {res['runs']} timed runs after {res['warmup']} warm-up run(s); Spark in local[2], "
        "DuckDB and Polars with 2 threads. MB/s = data bytes (10^6) / seconds. A wrong answer is timed "
        "once, shown in parentheses, and not compared.",
        "",
    ]
    if res.get("interleaved"):
        out[-1:] = [
            "Interleaved (`--interleave`): every engine ran in its own process, all at once, and each "
            "query's runs were taken in turns (the order reversed each round), each once the machine was "
            "idle; a target's ratio is the "
            "median over the rounds of the two engines' paired times, not the ratio of their medians.",
            "",
        ]
    for fmt in ("csv", "json"):
        out += [f"## {fmt.upper()}", "", table(res, fmt), ""]
    out += ["## Targets", "", targets(res), ""]
    if cache := cache_table(res):
        out += [
            "## Discovery cache (spark-drill only; a re-load, not a discovery)",
            "",
            "Q5 is a first load(): spark-drill's caches off, every file discovered, as every other engine "
            "infers at every load. Q5c and Q5c-dir time the same load() again, every file's schema from the "
            "session's in-memory cache or from a `schemaCache` directory: the cache's own figure, which no "
            "target compares with another engine.",
            "",
            cache,
            "",
        ]
    for fmt in ("csv", "json"):
        if types := inferred(res, fmt):
            out += [f"## What each infers ({fmt.upper()}, Q5; not checked)", "", types, ""]
    out += [
        "## Engines",
        "",
        "| engine | reads | configuration | status | start s | wall s |",
        "|---|---|---|---|---:|---:|",
    ]
    for rec in res["results"]:
        status = rec["status"] if rec["status"] == "ok" else f"{rec['status']}: {rec.get('note', '')}"
        if rec.get("shared_jvm"):
            status += " (shared JVM)"
        out.append(
            f"| {rec['engine']} | {rec['data']}/ | {rec['description']} | {status} | "
            f"{_f(rec.get('start_s'), '.1f')} | {_f(rec.get('wall_s'), '.0f')} |"
        )
    out += ["", "Queries: " + "; ".join(f"{q.id} {q.what}" for q in BY_ID.values()) + "."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(markdown(json.loads(Path(sys.argv[1]).read_text())))
