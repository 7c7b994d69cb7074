"""JSON whose keys are data (issue 31): a directory of JSON Schema-like documents, each with `properties` and
`definitions` objects keyed by names that differ from file to file, read by spark-drill (map inference at
its default) and by DuckDB's `read_json(..., union_by_name=true)`.

    python -m bench.keyed --files 2000 --runs 3 --out bench/results/keyed.md

Targets: spark-drill's `load()` + `count(*)` (discovery included) within 2x DuckDB's `count(*)` with
`union_by_name=true` (which sniffs every file too), and spark-drill's `load()` + a one-column query ahead of
DuckDB's one-column query. With its defaults otherwise, `union_by_name=true` runs out of DuckDB's 8 GB on
these files; with `sample_size=1` as well it answers (see DUCKDB_CONFIGS), and that is the comparison the
targets are for. DuckDB also runs with its defaults, whose schema comes from a sample of the files
(`maximum_sample_files`, 32): not a discovery of every file, reported for what it is.
Each engine runs in a process of its own; spark-drill's session is warmed up on another directory first,
and its discovery cache is off, so every timed `load()` discovers every file. Figures are medians of
`--runs`.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Names as schemas spell properties; split from text, which reads better than a list of 45 literals.
_WORD_TEXT = (
    "id name title description created updated status owner tags items count total price currency amount "
    "address street city country zip email phone url version enabled type kind value label category parent "
    "children source target start end duration size width height color format locale timezone region"
)
WORDS = tuple(_WORD_TEXT.split())
TYPES = ("string", "integer", "number", "boolean", "array", "object")
_TOP_LEVEL_TEXT = (
    "$comment examples version deprecated readOnly writeOnly default const enum format pattern minLength "
    "maxLength minimum maximum multipleOf minItems maxItems uniqueItems minProperties maxProperties "
    "patternProperties dependencies if then else allOf anyOf oneOf"
)
TOP_LEVEL = tuple(_TOP_LEVEL_TEXT.split())


def name(rng: random.Random, f: int) -> str:
    """A property or type name: a common word, or one of this file's own, in the case styles schemas use."""
    base = rng.choice(WORDS) if rng.random() < 0.4 else f"{rng.choice(WORDS)}{rng.choice(WORDS).title()}{f}"
    style = rng.random()
    if style < 0.2:
        return base.upper()
    if style < 0.4:
        return base[0].upper() + base[1:]
    return base


def keyed(rng: random.Random, f: int, n: int, value: Callable[[], Any]) -> dict[str, Any]:
    """An object of up to `n` members named by `name`, no two alike but for case (as in real schemas; DuckDB
    cannot read an object whose keys differ only in case, and Spark's reader no file that has them)."""
    out: dict[str, Any] = {}
    seen: set[str] = set()
    for _ in range(n):
        key = name(rng, f)
        if key.lower() not in seen:
            seen.add(key.lower())
            out[key] = value()
    return out


def prop(rng: random.Random, f: int, depth: int) -> dict[str, Any]:
    """One property's schema: a type (sometimes a list), a description, and what its type brings."""
    t = rng.choice(TYPES)
    out: dict[str, Any] = {
        "type": t if rng.random() < 0.85 else [t, "null"],
        "description": f"The {t} of {f}.",
    }
    if t == "string" and rng.random() < 0.3:
        out["format"] = rng.choice(["date-time", "email", "uri", "uuid"])
    if t == "string" and rng.random() < 0.2:
        out["enum"] = [rng.choice(WORDS) for _ in range(3)]
    if rng.random() < 0.2:
        out["default"] = rng.choice([0, "", False, None, {"x": 1}])
    if t == "array":
        out["items"] = {"$ref": f"#/definitions/{name(rng, f)}"} if rng.random() < 0.5 else {"type": "string"}
    if t == "object" and depth < 2:
        out["properties"] = keyed(rng, f, rng.randint(1, 6), lambda: prop(rng, f, depth + 1))
    return out


def document(f: int) -> dict[str, Any]:
    rng = random.Random(f)
    doc: dict[str, Any] = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": f"https://example.com/schemas/s{f}.json",
        "title": f"Schema {f}",
        "description": f"Document {f}: " + " ".join(rng.choice(WORDS) for _ in range(12)),
        "type": "object",
        "required": [rng.choice(WORDS) for _ in range(rng.randint(0, 4))],
        "additionalProperties": rng.random() < 0.5,
        "properties": keyed(rng, f, rng.randint(5, 40), lambda: prop(rng, f, 0)),
        "definitions": keyed(
            rng,
            f,
            rng.randint(0, 8),
            lambda: {
                "type": "object",
                "properties": keyed(rng, f, rng.randint(2, 12), lambda: prop(rng, f, 1)),
                "required": [rng.choice(WORDS)],
            },
        ),
    }
    for key in rng.sample(TOP_LEVEL, rng.randint(0, 6)):
        doc[key] = rng.choice([True, 1, "x", [1, 2], {"a": "b"}])
    return doc


def generate(root: Path, files: int) -> tuple[Path, Path]:
    """`files` documents under `root/<files>`, made once and reused; and a small directory to warm up on."""
    tree = root / f"{files}-v2"  # v2: no two keys of an object alike but for case
    done = tree / "_complete"
    if not done.exists():
        tree.mkdir(parents=True, exist_ok=True)
        for f in range(files):
            (tree / f"s{f:05d}.json").write_text(json.dumps(document(f), indent=2) + "\n")
        done.write_text("")
    warm = root / "warm-v2"
    if not (warm / "_complete").exists():
        warm.mkdir(parents=True, exist_ok=True)
        for f in range(50):
            (warm / f"w{f:03d}.json").write_text(json.dumps(document(10_000 + f)) + "\n")
        (warm / "_complete").write_text("")
    return tree, warm


# One process per engine; each prints one JSON object of timings (seconds) on its last line.
SPARK_DRILL = r"""
import json, sys, time
import spark_drill as sd
tree, warm, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
spark = sd.session(master="local[2]", **{"spark.ui.enabled": "false", "spark.driver.memory": "1g"})
spark.sparkContext.setLogLevel("ERROR")
def load(path):
    return spark.read.format("drill").option("sessionSchemaCache", "false").load(path)
for _ in range(2):  # JIT and Spark's first-query costs, on other files
    w = load(warm)
    w.count(), w.select("title").collect()
out = {"load_count": [], "load_one": [], "load": []}
for _ in range(runs):
    t = time.monotonic()
    df = load(tree)
    out["load"].append(time.monotonic() - t)
    out["rows"] = df.count()
    out["load_count"].append(time.monotonic() - t)
    t = time.monotonic()
    titles = load(tree).selectExpr("count(title)").first()[0]
    out["load_one"].append(time.monotonic() - t)
out["titles"] = titles
out["types"] = {f.name: f.dataType.simpleString() for f in df.schema.fields}
print(json.dumps(out))
"""

# DuckDB's options as argv[4]: union_by_name=true (the comparison: each file's schema, then their
# union) or none (its default: a schema from a sample of the files, maximum_sample_files=32). A failure
# (DuckDB runs out of memory unioning these schemas) is reported, not raised; memory_limit bounds it.
DUCKDB = r"""
import json, sys, time
import duckdb
tree, warm, runs, options = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
con = duckdb.connect()
con.execute("SET threads = 2")
con.execute("SET memory_limit = '8GB'")
def source(path):
    return f"read_json('{path}/*.json'{options})"
out = {"count": [], "one": []}
try:
    con.execute(f"SELECT count(*) FROM {source(warm)}").fetchone()
    for _ in range(runs):
        t = time.monotonic()
        out["rows"] = con.execute(f"SELECT count(*) FROM {source(tree)}").fetchone()[0]
        out["count"].append(time.monotonic() - t)
        t = time.monotonic()
        out["titles"] = con.execute(f"SELECT count(title) FROM {source(tree)}").fetchone()[0]
        out["one"].append(time.monotonic() - t)
    types = con.execute(f"DESCRIBE SELECT * FROM {source(tree)}").fetchall()
    out["types"] = {r[0]: r[1] for r in types if r[0] in ("properties", "definitions")}
except duckdb.Error as e:
    out["error"] = f"{type(e).__name__}: {str(e).splitlines()[0]}"
print(json.dumps(out))
"""
# union_by_name=true with its defaults runs out of memory: DuckDB keeps every file's reader open between
# binding and scanning, each with a buffer of twice maximum_object_size (16 MiB, which can be raised but not
# lowered), so 8 GB holds some 230 files' buffers. None of map_inference_threshold (20; 0 fails sooner, on a
# duplicate name), field_appearance_threshold, maximum_depth, maximum_sample_files, maximum_object_size,
# records and format avoids that; sample_size = 2 or 100 does not either. sample_size = 1 is the one
# setting found under which it answers: each file is still sniffed, and as every file here is one document,
# that document is all its sample (on 200 of the files it gives the same types as the default sample_size).
DUCKDB_CONFIGS = {
    "union_by_name=true": ", union_by_name = true",
    "union_by_name=true, sample_size=1": ", union_by_name = true, sample_size = 1",
    "default (sampled files)": "",
}


def run(script: str, *args: str) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=3600
    )
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-3000:])
    out: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return out


def report(files: int, drill: dict[str, Any], ducks: dict[str, dict[str, Any]]) -> str:
    def median(xs: list[float]) -> float:
        return statistics.median(xs)

    lines = [
        f"{files:,} JSON Schema-like documents (`properties` and `definitions` keyed by names that differ "
        "from file to file); medians, seconds; ratio = spark-drill's time / DuckDB's.",
        "",
        "| | spark-drill | DuckDB | ratio | target |",
        "| --- | ---: | ---: | ---: | --- |",
    ]
    queries = (
        ("`count(*)`, discovery included", "load_count", "count", "at most 2x", 2.0),
        ("one column (`count(title)`), discovery included", "load_one", "one", "below 1x", 1.0),
    )
    for config, duck in ducks.items():
        for what, mine, theirs, target, bound in queries:
            head = f"| {what}, DuckDB {config} | {median(drill[mine]):.2f} |"
            if "error" in duck:
                lines.append(f"{head} failed: {duck['error'][:90]} | | DuckDB gave no answer |")
                continue
            ratio = median(drill[mine]) / median(duck[theirs])
            met = "met" if (ratio <= bound if bound == 2.0 else ratio < bound) else "NOT met"
            lines.append(f"{head} {median(duck[theirs]):.2f} | {ratio:.2f}x | {target}: {met} |")
    lines += [
        f"| of which spark-drill's `load()` | {median(drill['load']):.2f} | | | |",
        "",
        "DuckDB `union_by_name=true` alone keeps every file's reader open, each with a 32 MiB buffer "
        "(`maximum_object_size` can only be raised), and runs out of its 8 GB; `sample_size=1` is the "
        "setting under which it answers (each file is still sniffed; every file here is one document).",
        "",
        "Types of the keyed objects:",
        "",
        f"- spark-drill: `properties {drill['types']['properties']}`, "
        f"`definitions {drill['types']['definitions']}`",
    ]
    for config, duck in ducks.items():
        if "types" in duck:
            lines.append(
                f"- DuckDB {config}: `properties {duck['types'].get('properties')}`, "
                f"`definitions {duck['types'].get('definitions')}`"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--data", default="bench/data/keyed")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    t = time.monotonic()
    tree, warm = generate(Path(args.data), args.files)
    print(f"{args.files} documents ready in {time.monotonic() - t:.0f} s", file=sys.stderr)
    drill = run(SPARK_DRILL, str(tree), str(warm), str(args.runs))
    ducks = {c: run(DUCKDB, str(tree), str(warm), str(args.runs), o) for c, o in DUCKDB_CONFIGS.items()}
    answered = {"spark-drill": drill} | {f"DuckDB {c}": d for c, d in ducks.items() if "error" not in d}
    for engine, answers in answered.items():
        if (answers["rows"], answers["titles"]) != (args.files, args.files):
            raise AssertionError(f"{engine}: {answers['rows']} rows, {answers['titles']} titles")
    text = report(args.files, drill, ducks)
    print(text)
    if args.out:
        command = f"python -m bench.keyed --files {args.files} --runs {args.runs}"
        Path(args.out).write_text(f"Command: `{command}`\n\n{text}\n")


if __name__ == "__main__":
    main()
