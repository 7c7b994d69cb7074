"""Where a query's time goes: runs one benchmark query of one engine under Java Flight Recorder and prints
the hottest frames (self time, and inclusive time of spark-drill's own methods).

    python -m bench.profile --engine spark-drill-csv --query Q3 [--data DIR] [--jar PATH] [--runs 3]
                            [--top 25] [--out FILE.jfr]

The Spark session runs in local[2] as in bench.run, with `-XX:+DebugNonSafepoints` so that samples land on
the line that runs rather than the nearest safepoint. The recording covers the whole process: the
untimed warm-up run is one of its `runs + 1` runs, and only executor task threads' samples are counted.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.engines import BY_NAME
from bench.engines import spark as spark_engines


def record(engine_name: str, query: str, data: Path, jar: str | None, runs: int, jfr: Path) -> list[float]:
    """Runs the query `runs` times after one warm-up in a JVM recording to `jfr`; the timed runs' seconds."""
    options = (
        f"-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints "
        f"-XX:StartFlightRecording=filename={jfr},settings=profile"
    )
    spark_engines.SPARK_CONF["spark.driver.extraJavaOptions"] = options
    engine = BY_NAME[engine_name](data, jar=jar)
    engine.start()
    try:
        engine.prepare()
        engine.setup(query)
        engine.run(query)
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            engine.run(query)
            times.append(time.perf_counter() - t)
        # The recording is dumped now: the JVM outlives the session until Python exits.
        jvm: Any = engine.spark.sparkContext._jvm  # type: ignore[attr-defined]
        pid = jvm.java.lang.ProcessHandle.current().pid()
        dump = ["jcmd", str(pid), "JFR.dump", "name=1", f"filename={jfr}"]
        subprocess.run(dump, check=True, capture_output=True)
        return times
    finally:
        engine.stop()


def frames(jfr: Path) -> list[list[str]]:
    """The stack of every execution sample of an executor task thread, innermost frame first."""
    out = subprocess.run(
        # `jfr print` keeps five frames of a stack unless told: inclusive figures need them all.
        ["jfr", "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample", str(jfr)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    stacks = []
    for event in json.loads(out)["recording"]["events"]:
        thread = event["values"]["sampledThread"]["javaName"] or ""
        if "Executor task" not in thread:
            continue
        stack = event["values"]["stackTrace"]["frames"]
        stacks.append(
            [f"{f['method']['type']['name']}.{f['method']['name']}:{f['lineNumber']}" for f in stack]
        )
    return stacks


def method(frame: str) -> str:
    return frame.rsplit(":", 1)[0]


def summary(stacks: list[list[str]], top: int) -> str:
    total = len(stacks) or 1
    self_lines = collections.Counter(s[0] for s in stacks if s)
    self_methods = collections.Counter(method(s[0]) for s in stacks if s)
    inclusive: collections.Counter[str] = collections.Counter()
    for s in stacks:
        inclusive.update({method(f) for f in s if method(f).startswith("sparkdrill/")})
    lines = [f"{len(stacks)} samples of executor task threads"]
    for title, counter in (
        ("self, by method", self_methods),
        ("self, by line", self_lines),
        ("inclusive, spark-drill methods", inclusive),
    ):
        lines.append(f"\n{title}:")
        lines += [f"{100 * n / total:5.1f}%  {name}" for name, n in counter.most_common(top)]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True, choices=sorted(BY_NAME))
    ap.add_argument("--query", required=True)
    ap.add_argument("--data", type=Path, default=Path(__file__).parent / "data" / "full")
    ap.add_argument("--jar")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--out", type=Path, help="keep the recording here")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        jfr = args.out or Path(tmp) / "profile.jfr"
        times = record(args.engine, args.query, args.data, args.jar, args.runs, jfr)
        print(f"{args.engine} {args.query}: " + ", ".join(f"{t:.3f}" for t in times) + " s")
        print(summary(frames(jfr), args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
