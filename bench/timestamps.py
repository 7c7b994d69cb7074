"""ISO dates and timestamps in JSON (issue 41, "ISO-8601 timestamps by hand"): what reading them costs
spark-drill's JSON reader against Spark's own, and, with `--jar-b`, against another spark-drill jar.

    python -m bench.timestamps --jar-b <jar of an older commit> --out bench/results/issue41-timestamps.md

`--files` JSON-lines files of `--rows` records each (seeded), every record an id and four temporal
members as event exports write them: `created` with microseconds and `Z`, `updated` with an offset
(`+02:00`, `-07:00`, `+05:30`, `+00:00`), `seen` with a space and no offset, and `day`, a date. Each engine
reads them with a schema of three timestamps and a date (spark-drill: `providedSchema`; Spark:
`.schema()`) and computes the maximum of each and a count, so every value is converted. Each engine runs
in a process of its own (a `local[2]` session), warms up once, then times `--passes` reads; the processes
run in turns, `--turns` times, so that a drift of the machine falls on every engine alike. The figure is
each engine's median read; the results must be equal.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SCHEMA = "id BIGINT, created TIMESTAMP, updated TIMESTAMP, seen TIMESTAMP, day DATE"
OFFSETS = ("+02:00", "-07:00", "+05:30", "+00:00")

WORKER = r"""
import json, sys, time
from pyspark.sql import SparkSession, functions as F

engine, jar, data, schema, passes = sys.argv[1:6]
spark = (SparkSession.builder.master("local[2]").config("spark.jars", jar).config("spark.ui.enabled", "false")
         .config("spark.sql.session.timeZone", "UTC").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")

def once():
    reader = spark.read.schema(schema).format("json") if engine == "spark" else (
        spark.read.format("drill").option("providedSchema", schema))
    df = reader.load(data)
    start = time.perf_counter()
    row = df.agg(F.max("created"), F.max("updated"), F.max("seen"), F.max("day"), F.count("created")).first()
    return time.perf_counter() - start, [str(v) for v in row]

once()
runs = [once() for _ in range(int(passes))]
print("@@bench " + json.dumps({"seconds": [r[0] for r in runs], "result": runs[-1][1]}), flush=True)
spark.stop()
"""


def generate(folder: Path, files: int, rows: int) -> None:
    """The seeded records, `files` files of `rows` each."""
    rng = random.Random(41)
    folder.mkdir(parents=True, exist_ok=True)
    for part in range(files):
        with open(folder / f"part-{part}.json", "w") as out:
            for i in range(rows):
                y, mo, d = 2020 + rng.randrange(6), 1 + rng.randrange(12), 1 + rng.randrange(28)
                h, mi, s, us = rng.randrange(24), rng.randrange(60), rng.randrange(60), rng.randrange(10**6)
                date = f"{y}-{mo:02d}-{d:02d}"
                time = f"{h:02d}:{mi:02d}:{s:02d}"
                out.write(
                    f'{{"id": {part * rows + i}, "created": "{date}T{time}.{us:06d}Z", '
                    f'"updated": "{date}T{time}{rng.choice(OFFSETS)}", "seen": "{date} {time}", '
                    f'"day": "{date}"}}\n'
                )


def run(engine: str, jar: str, data: Path, passes: int) -> dict[str, object]:
    """One engine's process: its timed reads and its result."""
    done = subprocess.run(
        [sys.executable, "-c", WORKER, engine, jar, str(data), SCHEMA, str(passes)],
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(x for x in done.stdout.splitlines() if x.startswith("@@bench "))
    reply: dict[str, object] = json.loads(line[len("@@bench ") :])
    return reply


def installed_jar() -> str:
    """The jar of the installed spark_drill for this PySpark."""
    import spark_drill

    return spark_drill.jar_path()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=4)
    parser.add_argument("--rows", type=int, default=250_000)
    parser.add_argument("--passes", type=int, default=3, help="timed reads per process")
    parser.add_argument("--turns", type=int, default=3, help="processes per engine, taken in turns")
    parser.add_argument("--jar", help="spark-drill's jar (default: the installed package's)")
    parser.add_argument("--jar-b", help="another spark-drill jar to compare with (an older commit's)")
    parser.add_argument("--out", default="bench/results/issue41-timestamps.md")
    args = parser.parse_args()
    jar = args.jar or installed_jar()
    engines = {
        "spark-drill": jar,
        **({"spark-drill (jar b)": args.jar_b} if args.jar_b else {}),
        "spark": jar,
    }
    with tempfile.TemporaryDirectory(prefix="bench-timestamps-") as tmp:
        data = Path(tmp) / "data"
        generate(data, args.files, args.rows)
        size = sum(f.stat().st_size for f in data.iterdir())
        seconds: dict[str, list[float]] = {name: [] for name in engines}
        results: dict[str, object] = {}
        for turn in range(args.turns):
            for name, path in engines.items():
                reply = run("spark" if name == "spark" else "drill", path, data, args.passes)
                seconds[name] += list(reply["seconds"])  # type: ignore[call-overload]
                results[name] = reply["result"]
                print(f"bench: turn {turn} {name} {reply['seconds']}", file=sys.stderr, flush=True)
    if len({json.dumps(r) for r in results.values()}) != 1:
        raise SystemExit(f"bench: the engines disagree: {results}")
    median = {name: statistics.median(s) for name, s in seconds.items()}
    mine = median["spark-drill"]
    lines = [
        "# ISO dates and timestamps in JSON (issue 41)",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. "
        f"Command: `python -m bench.timestamps {' '.join(sys.argv[1:])}`",
        "",
        f"{args.files * args.rows:,} records ({size / 2**20:.0f} MiB) of three ISO timestamps and a date, "
        f"read with a schema, `local[2]`; {args.turns} processes per engine in turns, {args.passes} timed "
        "reads each.",
        "",
        "| engine | median read, s | reads | spark-drill's speed over it |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name, s in seconds.items():
        lines.append(f"| {name} | {median[name]:.3f} | {len(s)} | {median[name] / mine:.2f}x |")
    lines += ["", f"Every engine's result: `{results['spark-drill']}`", ""]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
