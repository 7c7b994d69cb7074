"""Log files (issue 29, "Speed"): spark-drill's `format=log` against what a Spark user writes today,
`spark.read.text` with one `regexp_extract` per column (and casts for the typed run), on a generated Apache
combined access log of about `--gib` GiB, both engines in the same session, run in turn, answers checked.

    python -m bench.logs --gib 1 --runs 3 --out bench/results/issue29-log.md

Queries:
- typed: every column, with `time` a timestamp and `status`, `bytes` numbers, aggregated so each is read;
- two: a two-column query, `status` and `sum(bytes)` by status.
The log is made once under `--data` (gitignored) and reused.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

FILES = 4  # the log is cut in this many files, as a rotated log would be
# What a Spark user writes for the combined format: the same expression spark-drill's preset names, its
# groups taken by number.
COMBINED = (
    r"^(\S+) (\S+) (\S+) \[([^\]]+)\] "
    r'"(?:([^ "]+) ([^ "]+)(?: ([^"]*))?|(?:[^"\\]|\\.)*)" (\S+) (\S+) '
    r'"((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)"(?: .*)?$'
)
COLUMNS = (
    "host",
    "ident",
    "user",
    "time",
    "method",
    "path",
    "protocol",
    "status",
    "bytes",
    "referer",
    "agent",
)
TIME_FORMAT = "dd/MMM/yyyy:HH:mm:ss Z"
TYPED = {"time": "TIMESTAMP", "status": "INT", "bytes": "BIGINT"}
QUERIES = {
    "typed": (
        "SELECT count(*) AS n, count(host), count(ident), count(user), min(time), max(time), count(method), "
        "count(path), count(protocol), sum(status), sum(bytes), count(referer), count(agent) FROM logs"
    ),
    "two": "SELECT status, sum(bytes) AS bytes FROM logs GROUP BY status ORDER BY status",
}
TARGETS = {"typed": 2.0, "two": 3.0}  # spark's time over spark-drill's, at least

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
AGENTS = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
    "curl/8.4.0",
    "-",
)
PATHS = ("/", "/index.html", "/static/app.js", "/api/v1/items", "/api/v1/items/42?expand=true", "/login")


def line(r: random.Random) -> str:
    """One access-log line: `-` where Apache writes one (no user, no referer, no body for a 304)."""
    status = r.choice((200, 200, 200, 200, 301, 304, 404, 500))
    size = "-" if status == 304 else str(r.randrange(0, 200_000))
    user = "-" if r.random() < 0.9 else f"user{r.randrange(1000)}"
    when = (
        f"{r.randrange(1, 29):02d}/{r.choice(MONTHS)}/2024:{r.randrange(24):02d}:{r.randrange(60):02d}:"
        f"{r.randrange(60):02d} +0000"
    )
    ref = "-" if r.random() < 0.5 else f"https://example.com{r.choice(PATHS)}"
    host = f"10.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(256)}"
    return (
        f'{host} - {user} [{when}] "{r.choice(("GET", "GET", "POST"))} {r.choice(PATHS)} HTTP/1.1" '
        f'{status} {size} "{ref}" "{r.choice(AGENTS)}"\n'
    )


def generate(directory: Path, total_bytes: int, seed: int = 29) -> list[Path]:
    """`FILES` files of about `total_bytes` in all, in `directory`/log (kept when they exist); their paths."""
    (directory / "log").mkdir(parents=True, exist_ok=True)
    done = directory / "complete"  # beside the log, not in it: Spark's text reader would read it
    paths = [directory / "log" / f"access-{i}.log" for i in range(FILES)]
    if done.exists() and done.read_text() == str(total_bytes):
        return paths
    r = random.Random(seed)
    for path in paths:
        written = 0
        with open(path, "w", encoding="ascii") as out:
            while written < total_bytes // FILES:
                chunk = "".join(line(r) for _ in range(10_000))
                out.write(chunk)
                written += len(chunk)
    done.write_text(str(total_bytes))
    return paths


def spark_columns() -> list[str]:
    """The Spark user's projection: one regexp_extract per column, `-` and a group that took no part as null,
    and the casts of the typed run."""
    out = []
    for i, name in enumerate(COLUMNS, start=1):
        text = f"nullif(nullif(regexp_extract(value, '{_sql(COMBINED)}', {i}), ''), '-')"
        if name == "time":
            text = f"to_timestamp({text}, '{TIME_FORMAT}')"
        elif name in TYPED:
            text = f"cast({text} AS {TYPED[name]})"
        out.append(f"{text} AS {name}")
    return out


def _sql(s: str) -> str:
    return s.replace("\\", "\\\\").replace("'", "\\'")


def ratios(times: dict[str, dict[str, list[float]]]) -> dict[str, float]:
    """Per query, the median of Spark's times over the median of spark-drill's."""
    return {
        q: statistics.median(t["spark"]) / statistics.median(t["spark-drill"])
        for q, t in times.items()
        if t.get("spark") and t.get("spark-drill")
    }


def markdown(result: dict[str, Any]) -> str:
    times: dict[str, dict[str, list[float]]] = result["times"]
    r = ratios(times)
    out = [
        "# Log files: format=log against spark.read.text + regexp_extract (issue 29)",
        "",
        f"Data: {result['gib']:.2f} GiB, {result['lines']:,} lines of Apache combined log in {FILES} files; "
        f"{result['machine']}; {result['runs']} timed runs each after one warm-up, the engines in turn in "
        "one session (local[2]). Command: `python -m bench.logs " + " ".join(result["argv"]) + "`.",
        "",
        "| query | spark-drill (s) | Spark (s) | Spark / spark-drill | target | answers |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for q, t in times.items():
        out.append(
            f"| {q} | {statistics.median(t['spark-drill']):.2f} | {statistics.median(t['spark']):.2f} | "
            f"{r[q]:.2f}x | {TARGETS[q]:.0f}x | {'equal' if result['equal'][q] else 'DIFFER'} |"
        )
    out += ["", "Queries:", ""] + [f"- {q}: `{sql}`" for q, sql in QUERIES.items()]
    return "\n".join(out) + "\n"


WORKER = r"""
import json, sys, time
import spark_drill as sd
data, runs = sys.argv[1], int(sys.argv[2])
column_list, time_format, typed, queries = map(json.loads, sys.argv[3:])
spark = sd.session(master="local[2]", **{"spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false",
                                         "spark.driver.memory": "4g", "spark.sql.shuffle.partitions": "2"})
spark.sparkContext.setLogLevel("ERROR")
schema = ", ".join(f"{c} {t}" for c, t in typed.items())
def view(engine):
    if engine == "spark-drill":
        df = (spark.read.format("drill").option("logPattern", "combined").option("providedSchema", schema)
              .option("format.time", time_format).load(data))
    else:
        df = spark.read.text(data).selectExpr(*column_list)
    df.createOrReplaceTempView("logs")
times, answers = {}, {}
for q, sql in queries.items():
    times[q] = {"spark-drill": [], "spark": []}
    for run in range(runs + 1):  # the first run of each engine warms it up
        for engine in ("spark-drill", "spark"):
            view(engine)
            t = time.monotonic()
            rows = [tuple(str(v) for v in r) for r in spark.sql(sql).collect()]
            took = time.monotonic() - t
            print("bench:", q, engine, run, f"{took:.2f}s", file=sys.stderr, flush=True)
            if run > 0:
                times[q][engine].append(took)
            answers.setdefault(q, {})[engine] = rows
print(json.dumps({"times": times, "equal": {q: a["spark-drill"] == a["spark"] for q, a in answers.items()},
                  "answers": answers}))
"""


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.logs", description=__doc__.split("\n")[0])
    p.add_argument("--data", type=Path, default=Path("bench/data/logs"), help="where the log is made")
    p.add_argument("--gib", type=float, default=1.0, help="size of the log")
    p.add_argument("--runs", type=int, default=3, help="timed runs per query and engine (median reported)")
    p.add_argument("--queries", default=",".join(QUERIES), help="comma-separated: " + ", ".join(QUERIES))
    p.add_argument("--out", type=Path, default=Path("bench/results/issue29-log.md"))
    args = p.parse_args(argv)
    paths = generate(args.data, int(args.gib * (1 << 30)))
    lines = 0
    for path in paths:
        with open(path, "rb") as f:
            lines += sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 24), b""))
    queries = {q: QUERIES[q] for q in args.queries.split(",")}
    proc = subprocess.run(
        [sys.executable, "-c", WORKER, str(args.data / "log"), str(args.runs)]
        + [json.dumps(x) for x in (spark_columns(), TIME_FORMAT, TYPED, queries)],
        stdout=subprocess.PIPE,
        check=True,
        text=True,
    )
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    size = sum(os.path.getsize(p) for p in paths)
    result.update(
        gib=size / (1 << 30),
        lines=lines,
        runs=args.runs,
        argv=list(argv if argv is not None else sys.argv[1:]),
        machine=f"{os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}",
    )
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=1))
    args.out.write_text(markdown(result))
    print(markdown(result))
    return 0 if all(result["equal"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
