"""Markdown tables of a run's results (bench/run.py writes them next to the JSON)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bench.engines import BASELINE
from bench.queries import BY_ID

MB = 1e6

# The speed targets of issues 6 and 7: (format, query, engine compared with, how many times faster the
# spark-drill baseline must be, what it is).
TARGETS = (
    ("csv", "Q2", "spark-csv-aligned", 2.5, "narrow projection: 2.5x Spark CSV, explicit schema, aligned"),
    ("csv", "Q2", "duckdb-csv", 1.0, "narrow projection: ahead of DuckDB"),
    ("csv", "Q3", "spark-csv-aligned", 2.0, "all columns typed: 2x Spark CSV, same explicit schema, aligned"),
    ("csv", "Q1", "spark-csv-aligned", 1.0, "count(*): at least as fast as Spark CSV count()"),
    ("csv", "Q5", "spark-csv-aligned-infer", 50.0, "schema discovery: 50x Spark CSV inferSchema (aligned)"),
    ("csv", "Q5", "spark-csv-infer", 50.0, "schema discovery: 50x Spark CSV inferSchema"),
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
            if q["status"] == "ok" and q.get("median"):
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
        correct = {"ok": "yes", "wrong": "**no**", "error": "error"}.get(r["status"], r["status"])
        secs = _f(r["seconds"], ".3f")
        if r["status"] != "ok" and r["seconds"] is not None:
            secs = f"({secs})"  # a wrong answer's time is not a result
        note = r["note"].replace("|", "\\|")
        note = note if len(note) <= 90 else note[:87] + "..."
        q = BY_ID[r["query"]]
        lines.append(
            f"| {r['query']} {q.title} | {r['engine']} | {secs} | {_f(r['mbps'], '.0f')} | "
            f"{_f(r['ratio'], '.2f')} | {correct} | {_f(r['rss_mb'], '.0f')} | {note} |"
        )
    return "\n".join(lines)


def _median(res: dict[str, Any], engine: str, query: str) -> float | None:
    rec = next((r for r in res["results"] if r["engine"] == engine and r["status"] == "ok"), None)
    q = rec["queries"].get(query) if rec else None
    return float(q["median"]) if q and q["status"] == "ok" and q.get("median") else None


def targets(res: dict[str, Any]) -> str:
    """The speed targets, each as the measured ratio and whether it holds."""
    lines = [
        "| target | measured (other / spark-drill time) | met |",
        "|---|---:|---|",
    ]
    for fmt, query, other, need, what in TARGETS:
        mine, theirs = _median(res, BASELINE[fmt], query), _median(res, other, query)
        if mine is None or theirs is None:
            missing = BASELINE[fmt] if mine is None else other
            lines.append(f"| {what} | - | not measured ({missing}: no correct result) |")
        else:
            ratio = theirs / mine
            lines.append(
                f"| {what} | {ratio:.2f}x (need {need:g}x) | {'yes' if ratio >= need else '**no**'} |"
            )
    wrong = []
    for fmt in ("csv", "json"):
        base = next((r for r in res["results"] if r["engine"] == BASELINE[fmt]), None)
        if base is None or base["status"] != "ok":
            continue
        bad = [q for q, v in base["queries"].items() if v["status"] not in ("ok", "n/a")]
        wrong += [f"{BASELINE[fmt]} {q}" for q in bad]
    lines.append(
        "| spark-drill answers right on every query | "
        + ("all right" if not wrong else "wrong or failed: " + ", ".join(wrong))
        + f" | {'yes' if not wrong else '**no**'} |"
    )
    return "\n".join(lines)


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
        f"Python {v['python']}, PySpark {v['pyspark']}, DuckDB {v['duckdb']}, {v['java']}.",
        f"Median of {res['runs']} timed runs after {res['warmup']} warm-up run(s); Spark in local[2], "
        "DuckDB with 2 threads. MB/s = data bytes (10^6) / seconds. A wrong answer is timed once, shown "
        "in parentheses, and not compared.",
        "",
    ]
    for fmt in ("csv", "json"):
        out += [f"## {fmt.upper()}", "", table(res, fmt), ""]
    out += ["## Targets", "", targets(res), ""]
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
