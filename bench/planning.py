"""Planning at scale: how load() (listing and header discovery), count(*) and a second load() grow with the
number of small files, for spark-drill, Spark's CSV reader (with a schema, and with inferSchema) and DuckDB.

    python -m bench.planning --counts 1000,10000,100000 --out bench/results/planning.md

Each file is two lines (a header and a row) in one of 200 directories, with one of two header variants, as a
new user's tree of small dumps. Every engine runs in a fresh process (a JVM of its own for Spark), so each
figure is what a user sees from a cold start, except the rows marked "again", which reuse the session.
spark-drill's figures are medians of `--runs` processes (a cold JVM's timings vary by a second or more on a
shared 2-core machine); the others, minutes each at 100,000 files, run once.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DIRS = 200


def generate(root: Path, count: int) -> Path:
    """`count` two-line CSV files under `root/<count>`, made once and reused."""
    tree = root / str(count)
    done = tree / "_complete"
    if done.exists():
        return tree
    for i in range(count):
        d = tree / f"d{i % DIRS:03}"
        if i < DIRS:
            d.mkdir(parents=True, exist_ok=True)
        text = f"id,name\n{i},n{i}\n" if i % 2 == 0 else f"name,id,extra\nn{i},{i},e\n"
        (d / f"f{i:06}.csv").write_text(text)
    done.write_text("")
    return tree


# One process per engine. Prints one JSON object of timings (seconds) on its last line.
SPARK_DRILL = r"""
import json, re, sys, time
import spark_drill as sd
tree, cache = sys.argv[1], sys.argv[2]
spark = sd.session(master="local[2]", **{"spark.ui.enabled": "false", "spark.driver.memory": "2g"})
jvm = spark._jvm
log4j = jvm.org.apache.logging.log4j
log4j.core.config.Configurator.setLevel("sparkdrill", log4j.Level.INFO)
runtime = jvm.java.lang.Runtime.getRuntime()
def heap():
    jvm.java.lang.System.gc()
    return runtime.totalMemory() - runtime.freeMemory()
out = {}
before = heap()
t = time.monotonic()
df = spark.read.format("drill").option("header", "true").option("schemaCache", cache).load(tree)
out["load"] = time.monotonic() - t
out["driver_heap_mb"] = (heap() - before) / 2**20
t = time.monotonic()
out["rows"] = df.count()
out["count"] = time.monotonic() - t
t = time.monotonic()
again = spark.read.format("drill").option("header", "true").option("schemaCache", cache).load(tree)
out["load_again"] = time.monotonic() - t
t = time.monotonic()
again.count()
out["count_again"] = time.monotonic() - t
out["columns"] = df.columns
print(json.dumps(out))
"""

# A new JVM whose in-memory cache is empty: the schemas come from the schemaCache directory.
SPARK_DRILL_DIR_CACHE = r"""
import json, sys, time
import spark_drill as sd
tree, cache = sys.argv[1], sys.argv[2]
spark = sd.session(master="local[2]", **{"spark.ui.enabled": "false", "spark.driver.memory": "2g"})
t = time.monotonic()
df = spark.read.format("drill").option("header", "true").option("schemaCache", cache).load(tree)
load = time.monotonic() - t
print(json.dumps({"load_cache_dir": load, "columns": df.columns}))
"""

SPARK_CSV = r"""
import json, sys, time
from pyspark.sql import SparkSession
tree = sys.argv[1]
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.driver.memory", "2g").getOrCreate())
out = {}
t = time.monotonic()
reader = spark.read.option("header", "true").option("recursiveFileLookup", "true")
df = reader.schema("id STRING, name STRING").csv(tree)
out["rows"] = df.count()
out["count_schema"] = time.monotonic() - t
t = time.monotonic()
reader = spark.read.option("header", "true").option("recursiveFileLookup", "true")
inferred = reader.option("inferSchema", "true").csv(tree)
out["load_infer"] = time.monotonic() - t
print(json.dumps(out))
"""

DUCKDB = r"""
import json, resource, sys, time
import duckdb
# union_by_name opens every file: at 100,000 files the default limit of open files is too low.
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
tree = sys.argv[1]
con = duckdb.connect()
con.execute("SET threads = 2")
t = time.monotonic()
rows = con.execute(f"SELECT count(*) FROM read_csv('{tree}/*/*.csv', union_by_name = true)").fetchone()[0]
print(json.dumps({"count_duckdb": time.monotonic() - t, "rows": rows}))
"""

PHASES = {
    "listing": r"listing (\d+) ms",
    "discovery": r"discovery (\d+) ms",
    "schema": r"schema (\d+) ms",
    "query plan": r"query plan of \d+ files in \d+ tasks: (\d+) ms",
}


def run(script: str, *args: str) -> tuple[dict[str, object], str]:
    result = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=1800
    )
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-3000:])
    return json.loads(result.stdout.strip().splitlines()[-1]), result.stderr


def phases(log: str) -> dict[str, list[int]]:
    import re

    return {name: [int(m) for m in re.findall(pattern, log)] for name, pattern in PHASES.items()}


def median_run(runs: int, script: str, tree: Path) -> tuple[dict[str, object], str]:
    """`script` run `runs` times (each with a fresh cache directory, which a second script reads): each
    figure's median, and the log of the run whose load() was the median one."""
    results = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            drill, log = run(script, str(tree), cache)
            cached, _ = run(SPARK_DRILL_DIR_CACHE, str(tree), cache)
        results.append(({**drill, **cached}, log))
    results.sort(key=lambda r: float(r[0]["load"]))  # type: ignore[arg-type]
    middle, log = results[len(results) // 2]
    merged = dict(middle)
    for key, value in middle.items():
        if isinstance(value, float):
            merged[key] = statistics.median(float(r[0][key]) for r in results)  # type: ignore[arg-type]
    return merged, log


def measure(tree: Path, count: int, runs: int) -> dict[str, object]:
    drill, log = median_run(runs, SPARK_DRILL, tree)
    spark, _ = run(SPARK_CSV, str(tree))
    try:
        duck, _ = run(DUCKDB, str(tree))
    except RuntimeError as e:  # at 100,000 files: more open files than the machine's hard limit
        error = next((line for line in str(e).splitlines() if "Error:" in line), str(e).strip())
        duck = {"count_duckdb": "failed: " + error.split(": ")[-1], "rows": count}
    for name, rows in (
        ("spark-drill", drill["rows"]),
        ("Spark CSV", spark["rows"]),
        ("DuckDB", duck["rows"]),
    ):
        if rows != count:
            raise AssertionError(f"{name} counted {rows} rows of {count} files")
    if drill["columns"] != ["id", "name", "extra", "dir0"]:
        raise AssertionError(f"spark-drill's columns: {drill['columns']}")
    return {"files": count, **drill, **spark, **duck, "phases": phases(log)}


def table(results: list[dict[str, object]]) -> str:
    rows = [
        ("spark-drill load() (list + discover headers)", "load"),
        ("spark-drill count(*)", "count"),
        ("spark-drill load() again, same session (in-memory cache)", "load_again"),
        ("spark-drill count(*) again", "count_again"),
        ("spark-drill load(), new session, `schemaCache` directory", "load_cache_dir"),
        ("Spark CSV, given schema: count(*)", "count_schema"),
        ("Spark CSV, `inferSchema`: load()", "load_infer"),
        ("DuckDB `read_csv(union_by_name=true)`: count(*)", "count_duckdb"),
    ]
    head = "| seconds | " + " | ".join(f"{r['files']:,} files" for r in results) + " |"
    lines = [head, "| --- |" + " ---: |" * len(results)]
    for label, key in rows:
        cells = [f"{r[key]:.1f}" if isinstance(r[key], float) else str(r[key]) for r in results]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append(
        "| spark-drill driver heap held by the loaded table (MB) | "
        + " | ".join(f"{float(r['driver_heap_mb']):.0f}" for r in results)  # type: ignore[arg-type]
        + " |"
    )
    lines.append("")
    lines.append("Where spark-drill's first load() and count(*) spend their time (ms, from its INFO log):")
    lines.append("")
    lines.append("| phase | " + " | ".join(f"{r['files']:,} files" for r in results) + " |")
    lines.append("| --- |" + " ---: |" * len(results))
    for name in PHASES:
        values = [r["phases"][name] for r in results]  # type: ignore[index]
        lines.append(f"| {name} | " + " | ".join(" / ".join(str(v) for v in vs) for vs in values) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--counts", default="1000,10000,100000")
    parser.add_argument("--data", default="bench/data/planning")
    parser.add_argument("--out", default=None)
    parser.add_argument("--runs", type=int, default=3, help="spark-drill's runs (medians are reported)")
    args = parser.parse_args()
    results = []
    for count in (int(c) for c in args.counts.split(",")):
        t = time.monotonic()
        tree = generate(Path(args.data), count)
        print(f"{count} files ready in {time.monotonic() - t:.0f} s", file=sys.stderr)
        results.append(measure(tree, count, args.runs))
        print(json.dumps(results[-1]), file=sys.stderr)
    text = table(results)
    print(text)
    if args.out:
        command = f"python -m bench.planning --counts {args.counts} --runs {args.runs}"
        Path(args.out).write_text(f"Command: `{command}`\n\n{text}\n")


if __name__ == "__main__":
    main()
