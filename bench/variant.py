"""VARIANT on Spark 4 (issue 42, "Speed"): spark-drill's `singleVariantColumn` against Spark 4's own JSON
reader with `singleVariantColumn`, and a drifting member read as a VARIANT against the same member read as a
string, on the bench's JSON data (`make bench-data`: bench/data/full/json).

    python -m bench.variant --data bench/data/full --jar <jar> --out bench/results/issue42-variant.md
    python -m bench.variant --smoke          # a tiny generated tree, one run each: that the script works

Pairs, each side a DataFrame built once (untimed), then timed by the action named:
- scan: every record's VARIANT written to Spark's `noop` sink (a full scan, nothing kept), spark-drill against
  Spark's reader; target 2x.
- count: `count(v)`, the records whose VARIANT is not null, spark-drill against Spark; target 2x.
- get2: `variant_get` of two paths of each record (a number and a string two objects deep) aggregated, over
  each reader's result; target 1.5x.
- member: the object member `device` (an object, null or absent: the member whose shape drifts in this
  data) read alone (`providedSchema` with `strictSchema`) as VARIANT against as STRING, to the `noop` sink;
  target 1x (the VARIANT no slower).

Everything runs in one JVM (one `local[2]` session with the spark-drill jar), so both sides of a pair share
its warm-up and its caches. A pair's sides run in turns, A then B in one round and B then A in the next, after
`--warmup` untimed rounds and each run once the machine is idle (`settle`), so that a drift of the machine's
speed falls on both alike. The report gives each side's median, the ratio of the medians and the median of
the rounds' paired ratios (B over A: above 1, A is faster), and checks the answers: each pair's sides agree,
and the counts and sums equal the data's truth.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

Answer = tuple[Any, ...] | None
# Two paths every record of the bench's JSON has (bench/schema.py): a number at the top and a string inside
# the `device` object (absent or null in some records: variant_get gives null there, on both readers alike).
PATHS = ("$.quantity", "$.device.os")
MEMBER = "device"


@dataclass(frozen=True)
class Side:
    """One reader of a pair: `build` makes its DataFrame (untimed), `run` is the timed action (its answer,
    or None for a sink), `check` an untimed query whose answer is compared (None: `run`'s answer is)."""

    label: str
    build: Callable[[SparkSession, str], DataFrame]
    run: Callable[[DataFrame], Answer]
    check: Callable[[DataFrame], Answer] | None = None


@dataclass(frozen=True)
class Pair:
    name: str
    what: str  # one line for the report
    target: float  # B's median over A's, at least
    a: Side  # the side the target is for (spark-drill, or the VARIANT)
    b: Side
    # What both sides' answers must equal, from the JSON section of truth.json (None: only each other).
    expect: Callable[[dict[str, Any]], Answer] | None = None


# ------------------------------------------------------------------------------------------------ the readers
def drill_variant(spark: SparkSession, path: str) -> DataFrame:
    # Only the VARIANT: the partition columns dir0 and dir1 are spark-drill's alone.
    return spark.read.format("drill").option("singleVariantColumn", "v").load(path).select("v")


def spark_variant(spark: SparkSession, path: str) -> DataFrame:
    # recursiveFileLookup: the files are under year/month directories, which are not key=value partitions.
    reader = (
        spark.read.format("json").option("singleVariantColumn", "v").option("recursiveFileLookup", "true")
    )
    return reader.load(path)


def drill_member(kind: str) -> Callable[[SparkSession, str], DataFrame]:
    def build(spark: SparkSession, path: str) -> DataFrame:
        reader = spark.read.format("drill").option("providedSchema", f"{MEMBER} {kind}")
        return reader.option("strictSchema", "true").load(path).select(MEMBER)

    return build


def noop(df: DataFrame) -> Answer:
    df.write.format("noop").mode("overwrite").save()
    return None


def first(*aggregates: str) -> Callable[[DataFrame], Answer]:
    """The action: the aggregates (SQL expressions) over the DataFrame, their one row as a tuple."""

    def action(df: DataFrame) -> Answer:
        row = df.selectExpr(*aggregates).first()
        assert row is not None
        return tuple(row)

    return action


COUNT_V = first("count(v)")
GET2 = first(f"sum(variant_get(v, '{PATHS[0]}', 'bigint'))", f"count(variant_get(v, '{PATHS[1]}', 'string'))")

PAIRS: tuple[Pair, ...] = (
    Pair(
        "scan",
        "every record's VARIANT to the noop sink",
        2.0,
        Side("spark-drill", drill_variant, noop, COUNT_V),
        Side("Spark json", spark_variant, noop, COUNT_V),
        lambda t: (t["rows"],),
    ),
    Pair(
        "count",
        "`count(v)`",
        2.0,
        Side("spark-drill", drill_variant, COUNT_V),
        Side("Spark json", spark_variant, COUNT_V),
        lambda t: (t["rows"],),
    ),
    Pair(
        "get2",
        f"`sum(variant_get(v, '{PATHS[0]}', 'bigint')), count(variant_get(v, '{PATHS[1]}', 'string'))`",
        1.5,
        Side("spark-drill", drill_variant, GET2),
        Side("Spark json", spark_variant, GET2),
    ),
    Pair(
        "member",
        f"`{MEMBER}` alone (providedSchema, strictSchema) to the noop sink",
        1.0,
        # A JSON null is a variant null inside the VARIANT (not SQL NULL): counted out, as the string's null.
        Side(
            f"{MEMBER} VARIANT",
            drill_member("VARIANT"),
            noop,
            first(f"count({MEMBER}) - count_if(is_variant_null({MEMBER}))"),
        ),
        Side(f"{MEMBER} STRING", drill_member("STRING"), noop, first(f"count({MEMBER})")),
        lambda t: (t["non_null"][MEMBER],),
    ),
)
BY_NAME = {p.name: p for p in PAIRS}


# ------------------------------------------------------------------------------------------------ measuring
def rounds(runs: int, warmup: int) -> Iterator[tuple[bool, tuple[int, int]]]:
    """Per round: whether it is timed, and the order of the sides (0: A, 1: B), reversed every round."""
    for r in range(max(warmup, 0) + max(runs, 1)):
        yield r >= max(warmup, 0), ((0, 1) if r % 2 == 0 else (1, 0))


def settle() -> None:
    from bench.interleave import settle as wait_idle

    wait_idle()


def measure(
    spark: SparkSession,
    pair: Pair,
    path: str,
    truth: dict[str, Any],
    runs: int,
    warmup: int,
    wait: Callable[[], None] = settle,
) -> dict[str, Any]:
    """One pair's runs in turns: each side's times (in round order) and answers, and the paired ratios."""
    sides = (pair.a, pair.b)
    frames = [s.build(spark, path) for s in sides]
    times: list[list[float]] = [[], []]
    answers: list[Answer] = [None, None]
    for timed, order in rounds(runs, warmup):
        for i in order:
            wait()
            t0 = time.perf_counter()
            answer = sides[i].run(frames[i])
            took = time.perf_counter() - t0
            answers[i] = answer
            print(f"bench: {pair.name} {sides[i].label} {took:.2f}s", file=sys.stderr, flush=True)
            if timed:
                times[i].append(took)
    checked = [
        s.check(f) if s.check is not None else a for s, f, a in zip(sides, frames, answers, strict=True)
    ]
    expected = pair.expect(truth) if pair.expect is not None else None
    return {
        "pair": pair.name,
        "times": {pair.a.label: times[0], pair.b.label: times[1]},
        "paired": [b / a for a, b in zip(times[0], times[1], strict=True)],
        "answers": {pair.a.label: checked[0], pair.b.label: checked[1]},
        "expected": expected,
        "problem": disagreement(checked[0], checked[1], expected),
    }


def disagreement(a: Answer, b: Answer, expected: Answer) -> str | None:
    """Why the answers are wrong (the sides differ, or differ from the truth), else None."""
    if a != b:
        return f"the sides differ: {a} against {b}"
    if expected is not None and a != expected:
        return f"{a}, the data's truth is {expected}"
    return None


# ------------------------------------------------------------------------------------------------ reporting
def markdown(result: dict[str, Any]) -> str:
    out = [
        "# VARIANT on Spark 4: spark-drill against Spark's own JSON reader (issue 42)",
        "",
        f"Data: {result['data']}: {result['rows']:,} JSON records, {result['bytes'] / 2**20:.0f} MiB in "
        f"{result['files']} files; {result['machine']}; Spark {result['spark']}; one `local[2]` session, "
        f"{result['warmup']} untimed and {result['runs']} timed rounds per pair, the sides in turns. "
        f"Command: `python -m bench.variant {' '.join(result['argv'])}`.",
        "",
        "| pair | A | B | A median (s) | B median (s) | B / A (medians) | B / A (paired, median) | target "
        "| answers |",
        "|---|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for m in result["pairs"]:
        pair = BY_NAME[m["pair"]]
        a, b = (statistics.median(t) for t in m["times"].values())
        paired = statistics.median(m["paired"])
        mark = "met" if paired >= pair.target else "MISSED"
        answers = "equal" if m["problem"] is None else f"WRONG: {m['problem']}"
        out.append(
            f"| {pair.name} | {pair.a.label} | {pair.b.label} | {a:.2f} | {b:.2f} | {b / a:.2f}x | "
            f"{paired:.2f}x | {pair.target:g}x ({mark}) | {answers} |"
        )
    out += ["", "Pairs:", ""] + [
        f"- {BY_NAME[m['pair']].name}: {BY_NAME[m['pair']].what}" for m in result["pairs"]
    ]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------------------------ running
def session(jar: str | None) -> SparkSession:
    """One local[2] session with the spark-drill jar (`--jar`, else $SPARK_DRILL_JAR, else the installed
    package's), configured as the bench's Spark engines are."""
    from pyspark.sql import SparkSession

    from bench.engines.base import Unavailable
    from bench.engines.spark import SPARK_CONF, add_drill

    builder = SparkSession.builder.master("local[2]").appName("bench-variant")
    for k, v in SPARK_CONF.items():
        builder = builder.config(k, v)
    try:
        builder = add_drill(builder, {"jar": jar} if jar else {})
    except Unavailable as e:
        raise SystemExit(f"bench.variant: {e}") from e
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def smoke_data(root: Path) -> Path:
    """A tiny tree of the bench's shape (bench/gen.py, a few hundred records) under root."""
    from bench.gen import generate

    generate(root, seed=42, size_mb=0.05, parts=1, jobs=1, newline=False, log=False)
    return root


def run(args: argparse.Namespace, data: Path, argv: Sequence[str]) -> dict[str, Any]:
    import pyspark

    json_dir = data / "json"
    if not json_dir.is_dir():
        raise SystemExit(f"bench.variant: no JSON data under {data} (make bench-data)")
    truth = json.loads((data / "truth.json").read_text())["json"]
    pairs = [BY_NAME[p] for p in args.pairs.split(",")]
    spark = session(args.jar)
    wait: Callable[[], None] = (lambda: None) if args.smoke else settle
    try:
        done = [measure(spark, p, str(json_dir), truth, args.runs, args.warmup, wait) for p in pairs]
    finally:
        spark.stop()
    return {
        "data": str(data),
        "rows": truth["rows"],
        "bytes": truth["bytes"],
        "files": truth["files"],
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}",
        "spark": pyspark.__version__,
        "runs": args.runs,
        "warmup": args.warmup,
        "argv": list(argv),
        "pairs": done,
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m bench.variant",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--data", type=Path, default=Path("bench/data/full"), help="the bench's tree (json/ in it)"
    )
    p.add_argument(
        "--jar", help="spark-drill's jar (default: $SPARK_DRILL_JAR, else the installed package's)"
    )
    p.add_argument("--runs", type=int, help="timed rounds per pair, median reported (default 3; smoke 1)")
    p.add_argument("--warmup", type=int, help="untimed rounds per pair first (default 1; smoke 0)")
    p.add_argument("--pairs", default=",".join(BY_NAME), help="comma-separated: " + ", ".join(BY_NAME))
    p.add_argument("--out", type=Path, help="also write the report here (markdown; its JSON beside it)")
    p.add_argument("--smoke", action="store_true", help="a tiny generated tree, one timed round, no warm-up")
    args = p.parse_args(argv)
    argv = list(argv if argv is not None else sys.argv[1:])
    unknown = [name for name in args.pairs.split(",") if name not in BY_NAME]
    if unknown:
        p.error(f"no pair {', '.join(unknown)}; the pairs are {', '.join(BY_NAME)}")
    import pyspark

    if int(pyspark.__version__.split(".")[0]) < 4:
        raise SystemExit(
            f"bench.variant: VARIANT needs Spark 4.0 or later; this is PySpark {pyspark.__version__}"
        )
    if args.runs is None:
        args.runs = 1 if args.smoke else 3
    if args.warmup is None:
        args.warmup = 0 if args.smoke else 1
    if args.smoke:
        with tempfile.TemporaryDirectory(prefix="bench-variant-") as tmp:
            result = run(args, smoke_data(Path(tmp)), argv)
    else:
        result = run(args, args.data, argv)
    report = markdown(result)
    print(report)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(report)
        args.out.with_suffix(".json").write_text(json.dumps(result, indent=1, default=str) + "\n")
    return 0 if all(m["problem"] is None for m in result["pairs"]) else 1


if __name__ == "__main__":
    sys.exit(main())
