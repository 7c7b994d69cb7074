"""Reading Excel workbooks (issue 40, "Speed"): spark-drill's `format=excel` against pandas.read_excel with
openpyxl and against python-calamine (the Rust reader Polars uses), on the machine's cores.

    python -m bench.excel --out bench/results/issue40-excel.md

`--files` workbooks of `--rows` rows each (seeded; generated once with openpyxl and kept under
`bench/data/excel-<files>x<rows>/`), one sheet `data` of 12 columns whose headers drift across the files:
one renames a column, one drops a column, one adds one, one moves the order. The cells are integer ids,
short text, integers, floats, booleans, dates and timestamps (date-formatted numbers, as Excel stores them),
some of them blank. Every engine reads every row and every column of every file, with `--cores` workers:
spark-drill in a `local[<cores>]` session (an aggregate counting every column, so every cell is converted;
`count(*)` alone is timed too), pandas.read_excel(engine="openpyxl") and python-calamine's `to_python()`
each over a pool of `--cores` processes (pandas' frames concatenated). Each engine runs in a process of its
own, warms up once, then times `--passes` reads; the processes run in turns, `--turns` times, so that a
drift of the machine falls on every engine alike. The figure is each engine's median read. The results (the
row count and each column's non-blank cells, by name) must be equal, and equal to what was generated.

Memory: one sheet of `--big-rows` rows (the same columns, cached the same way) read by spark-drill in a
`local[1]` session whose JVM has `--big-heap` (`spark.driver.memory`); the report gives the file's size and
the heap's peak use (the sum of the heap pools' peaks, reset once the session is warm).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from datetime import date, datetime
from importlib import metadata
from pathlib import Path
from typing import Any, TypedDict

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
SHEET = "data"
COLUMNS = (
    "id",
    "sku",
    "city",
    "qty",
    "amount",
    "discount",
    "paid",
    "ordered",
    "shipped",
    "note",
    "rating",
    "weight",
)
CITIES = ("Lisbon", "Oslo", "Lagos", "Lima", "Pune", "Osaka", "Quito", "Turin", "Perth", "Cork", "Graz")
NOTES = ("fragile", "gift", "call first", "leave at door", "rush", "backorder")
REGIONS = ("north", "south", "east", "west")


class Result(TypedDict):
    """What every engine must agree on: the rows read and each column's non-blank cells, by name."""

    rows: int
    columns: dict[str, int]


def header(part: int) -> list[str]:
    """The columns of workbook `part`, drifting: of each five files, the first has COLUMNS, the second
    renames `qty` to `quantity`, the third drops `note`, the fourth adds `region` after `city`, and the
    fifth moves the order (the columns after `id` rotated by four)."""
    names = list(COLUMNS)
    kind = part % 5
    if kind == 1:
        names[names.index("qty")] = "quantity"
    elif kind == 2:
        names.remove("note")
    elif kind == 3:
        names.insert(names.index("city") + 1, "region")
    elif kind == 4:
        names = names[:1] + names[5:] + names[1:5]
    return names


def _blank_or(rng: random.Random, share: float, value: Callable[[], object]) -> object:
    return None if rng.random() < share else value()


def _day(rng: random.Random) -> date:
    return date(2020 + rng.randrange(6), 1 + rng.randrange(12), 1 + rng.randrange(28))


def _cell(name: str, rng: random.Random, row_id: int) -> object:
    """One seeded cell of column `name` (None: blank)."""
    if name == "id":
        return row_id
    if name == "sku":
        return f"SKU-{rng.randrange(2000):05d}"
    if name == "city":
        return rng.choice(CITIES)
    if name in ("qty", "quantity"):
        return 1 + rng.randrange(500)
    if name == "amount":
        return round(rng.uniform(1, 5000), 2)
    if name == "discount":
        return _blank_or(rng, 0.2, lambda: round(rng.random() * 0.3, 3))
    if name == "paid":
        return rng.random() < 0.6
    if name == "ordered":
        return _day(rng)
    if name == "shipped":
        return _blank_or(
            rng,
            0.05,
            lambda: datetime.combine(_day(rng), datetime.min.time()).replace(
                hour=rng.randrange(24), minute=rng.randrange(60), second=rng.randrange(60)
            ),
        )
    if name == "note":
        return _blank_or(rng, 0.7, lambda: rng.choice(NOTES))
    if name == "rating":
        return _blank_or(rng, 0.1, lambda: 1 + rng.randrange(5))
    if name == "weight":
        return round(rng.lognormvariate(0, 1), 4)
    if name == "region":
        return rng.choice(REGIONS)
    raise ValueError(f"no such column: {name}")


def generate(folder: Path, files: int, rows: int) -> Result:
    """The seeded workbooks, `files` of `rows` rows each (`part-NN.xlsx`, one sheet `data`, headers as
    `header` drifts them); returns what they hold, as the engines must read it."""
    import openpyxl  # type: ignore[import-untyped,unused-ignore]

    rng = random.Random(40)
    folder.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for part in range(files):
        names = header(part)
        book = openpyxl.Workbook(write_only=True)
        sheet = book.create_sheet(SHEET)
        sheet.append(names)
        filled = [0] * len(names)
        for i in range(rows):
            cells = [_cell(name, rng, part * rows + i) for name in names]
            for j, value in enumerate(cells):
                filled[j] += value is not None
            sheet.append(cells)
        book.save(folder / f"part-{part:02d}.xlsx")
        for name, n in zip(names, filled, strict=True):
            counts[name] = counts.get(name, 0) + n
    return result(files * rows, counts)


def dataset(root: Path, files: int, rows: int) -> tuple[Path, Result]:
    """The workbooks of (`files`, `rows`) under `root` and what they hold, generated on the first call and
    kept (`excel-<files>x<rows>/` and its `.json`): a folder is only renamed into place once complete."""
    folder = root / f"excel-{files}x{rows}"
    truth = root / f"excel-{files}x{rows}.json"
    if not (folder.is_dir() and truth.is_file()):
        print(
            f"bench: generating {files} workbooks of {rows:,} rows in {folder}", file=sys.stderr, flush=True
        )
        partial = root / f".excel-{files}x{rows}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)
        made = generate(partial, files, rows)
        truth.write_text(json.dumps(made, sort_keys=True))
        partial.rename(folder)
    loaded: Result = json.loads(truth.read_text())
    return folder, loaded


def workbooks(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.xlsx"))


def blank(value: object) -> bool:
    """An empty cell as each reader returns one: None (openpyxl, Spark), NaN, NaT or NA (pandas), ""
    (calamine)."""
    if value is None or (isinstance(value, str) and value == ""):
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return type(value).__name__ in ("NaTType", "NAType")


def result(rows: int, counts: Mapping[str, int]) -> Result:
    """`rows` and the non-blank cells by column, names in lower case (Spark's are not case-sensitive and a
    sheet's union of columns ignores case) and sorted."""
    columns: dict[str, int] = {}
    for name, n in counts.items():
        key = name.lower()
        columns[key] = columns.get(key, 0) + int(n)
    return {"rows": int(rows), "columns": dict(sorted(columns.items()))}


def tally(names: Sequence[object], rows: Iterable[Sequence[object]]) -> Result:
    """A sheet's result from its header and rows of cells: a row with every cell blank is no record (as
    spark-drill and pandas skip it), and cells past the header are not counted."""
    filled = [0] * len(names)
    records = 0
    for row in rows:
        seen = False
        for i, value in zip(range(len(names)), row, strict=False):
            if not blank(value):
                filled[i] += 1
                seen = True
        records += seen
    counts: dict[str, int] = {}
    for name, n in zip(names, filled, strict=True):
        counts[str(name)] = counts.get(str(name), 0) + n
    return result(records, counts)


def merge(results: Iterable[Result]) -> Result:
    """The results of several sheets as one."""
    rows, counts = 0, dict[str, int]()
    for r in results:
        rows += r["rows"]
        for name, n in r["columns"].items():
            counts[name] = counts.get(name, 0) + n
    return result(rows, counts)


def disagreement(results: Mapping[str, Result]) -> list[str]:
    """Where the results differ (none: they agree), over the union of their columns, a column a result
    lacks counting 0."""
    names = sorted({name for r in results.values() for name in r["columns"]})
    problems = []
    rows = {engine: r["rows"] for engine, r in results.items()}
    if len(set(rows.values())) != 1:
        problems.append(f"rows: {rows}")
    for name in names:
        counts = {engine: r["columns"].get(name, 0) for engine, r in results.items()}
        if len(set(counts.values())) != 1:
            problems.append(f"column {name}: {counts}")
    return problems


def read_pandas(path: Path) -> Any:
    """One workbook's first sheet as a pandas frame, read by openpyxl."""
    import pandas  # type: ignore[import-untyped,unused-ignore]

    return pandas.read_excel(path, engine="openpyxl")


def pandas_result(pool: Executor, paths: Sequence[Path]) -> Result:
    """Every workbook read by pandas over `pool`, concatenated, its non-null cells counted per column."""
    import pandas

    frame = pandas.concat(list(pool.map(read_pandas, paths)), ignore_index=True, sort=False)
    return result(len(frame), {str(k): int(v) for k, v in frame.count().items()})


def read_calamine(path: Path) -> Result:
    """One workbook's first sheet read by python-calamine into Python values, its cells counted."""
    from python_calamine import CalamineWorkbook

    with CalamineWorkbook.from_path(path) as book:
        cells = book.get_sheet_by_index(0).to_python()
    return tally(cells[0], cells[1:]) if cells else result(0, {})


def calamine_result(pool: Executor, paths: Sequence[Path]) -> Result:
    return merge(pool.map(read_calamine, paths))


WORKER = r"""
import json, sys, time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from bench import excel

engine, data, passes, options = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])

def timed(read):
    read()
    runs = []
    for _ in range(passes):
        start = time.perf_counter()
        value = read()
        runs.append(time.perf_counter() - start)
    return runs, value

if engine in ("pandas+openpyxl", "python-calamine"):
    paths = excel.workbooks(Path(data))
    with ProcessPoolExecutor(options["cores"]) as pool:
        read = excel.pandas_result if engine == "pandas+openpyxl" else excel.calamine_result
        seconds, result = timed(lambda: read(pool, paths))
    reply = {"seconds": seconds, "result": result}
else:
    from pyspark.sql import SparkSession, functions as F
    builder = (SparkSession.builder.master(options["master"]).config("spark.jars", options["jars"])
               .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC"))
    if options.get("heap"):
        builder = builder.config("spark.driver.memory", options["heap"])
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")

    def load():
        return spark.read.format("drill").option("format", "excel").load(data)

    def full():
        df = load()
        names = df.columns
        row = df.agg(F.count(F.lit(1)), *[F.count(F.col("`" + n + "`")) for n in names]).first()
        return excel.result(row[0], dict(zip(names, row[1:])))

    if engine == "spark-drill":
        seconds, result = timed(full)
        count_seconds, count = timed(lambda: load().count())
        reply = {"seconds": seconds, "result": result, "count_seconds": count_seconds, "count": count}
    else:
        jvm = spark._jvm
        spark.range(100000).selectExpr("sum(id)").collect()
        pools = [p for p in jvm.java.lang.management.ManagementFactory.getMemoryPoolMXBeans()
                 if p.getType().name() == "HEAP"]
        jvm.java.lang.System.gc()
        for p in pools:
            p.resetPeakUsage()
        start = time.perf_counter()
        result = full()
        seconds = time.perf_counter() - start
        reply = {"seconds": [seconds], "result": result,
                 "peak": sum(p.getPeakUsage().getUsed() for p in pools),
                 "pools": {p.getName(): p.getPeakUsage().getUsed() for p in pools},
                 "max_heap": jvm.java.lang.Runtime.getRuntime().maxMemory()}
    spark.stop()
print("@@bench " + json.dumps(reply), flush=True)
"""


def run(engine: str, data: Path, passes: int, options: Mapping[str, object]) -> dict[str, Any]:
    """One engine's process (`spark-drill`, `memory`, `pandas+openpyxl` or `python-calamine`): its timed
    reads and its result."""
    done = subprocess.run(
        [sys.executable, "-c", WORKER, engine, str(data), str(passes), json.dumps(options)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    lines = [x for x in done.stdout.splitlines() if x.startswith("@@bench ")]
    if done.returncode != 0 or not lines:
        tail = "\n".join(done.stderr.splitlines()[-40:])
        raise SystemExit(f"bench: {engine} failed (exit {done.returncode}):\n{tail}")
    reply: dict[str, Any] = json.loads(lines[-1][len("@@bench ") :])
    return reply


def default_jar() -> str:
    """The installed spark_drill's core jar."""
    import spark_drill  # type: ignore[import-not-found,unused-ignore]

    return str(spark_drill.jar_path())


def default_excel_jar() -> str | None:
    """The installed spark_drill's excel jar, None when it has none."""
    from spark_drill import _jar  # type: ignore[import-not-found,unused-ignore]

    extra: list[str] = getattr(_jar, "extra_jar_paths", lambda: [])()
    return next((str(p) for p in extra if "excel" in Path(p).name), None)


def _versions() -> str:
    found = []
    for name in ("pyspark", "pandas", "openpyxl", "python-calamine"):
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return ", ".join(found)


def _mib(n: float) -> str:
    return f"{n / 2**20:,.1f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--rows", type=int, default=50_000, help="rows per workbook")
    parser.add_argument("--big-rows", type=int, default=1_000_000, help="the memory sheet's rows (0: none)")
    parser.add_argument("--big-heap", default="512m", help="spark.driver.memory for the memory read")
    parser.add_argument("--cores", type=int, default=2, help="Spark's local[N] and the pools' processes")
    parser.add_argument("--passes", type=int, default=3, help="timed reads per process")
    parser.add_argument("--turns", type=int, default=3, help="processes per engine, taken in turns")
    parser.add_argument("--jar", help="spark-drill's core jar (default: the installed package's)")
    parser.add_argument("--excel-jar", help="spark-drill's excel jar (default: the installed package's)")
    parser.add_argument("--data", type=Path, default=DATA, help="where generated workbooks are kept")
    parser.add_argument("--out", default="bench/results/issue40-excel.md")
    args = parser.parse_args()
    jar, excel_jar = args.jar or default_jar(), args.excel_jar or default_excel_jar()
    if not excel_jar:
        raise SystemExit("bench: no excel jar found; build it (dev/sbt excel/assembly) or pass --excel-jar")
    jars = f"{jar},{excel_jar}"
    args.data.mkdir(parents=True, exist_ok=True)
    folder, truth = dataset(args.data, args.files, args.rows)
    size = sum(p.stat().st_size for p in workbooks(folder))
    spark = {"master": f"local[{args.cores}]", "jars": jars}
    engines: dict[str, Mapping[str, object]] = {
        "spark-drill": spark,
        "pandas+openpyxl": {"cores": args.cores},
        "python-calamine": {"cores": args.cores},
    }
    seconds: dict[str, list[float]] = {"spark-drill": [], "spark-drill count(*)": []}
    seconds |= {name: [] for name in engines}
    results: dict[str, Result] = {"generated": truth}
    counts: set[int] = set()
    for turn in range(args.turns):
        for name, options in engines.items():
            reply = run(name, folder, args.passes, options)
            seconds[name] += reply["seconds"]
            results[name] = reply["result"]
            if name == "spark-drill":
                seconds["spark-drill count(*)"] += reply["count_seconds"]
                counts.add(reply["count"])
            print(f"bench: turn {turn} {name} {reply['seconds']}", file=sys.stderr, flush=True)
    problems = disagreement(results)
    if counts != {truth["rows"]}:
        problems.append(f"spark-drill count(*): {sorted(counts)}, generated {truth['rows']}")
    if problems:
        raise SystemExit("bench: the engines disagree:\n" + "\n".join(problems))
    memory: dict[str, Any] | None = None
    if args.big_rows > 0:
        big, big_truth = dataset(args.data, 1, args.big_rows)
        big_size = sum(p.stat().st_size for p in workbooks(big))
        memory = run("memory", big, 1, {"master": "local[1]", "jars": jars, "heap": args.big_heap})
        memory["size"] = big_size
        wrong = disagreement({"generated": big_truth, "spark-drill": memory["result"]})
        if wrong:
            raise SystemExit("bench: the large sheet read wrong:\n" + "\n".join(wrong))
        print(f"bench: memory {memory['seconds']} peak {memory['peak']}", file=sys.stderr, flush=True)

    rows = truth["rows"]
    median = {name: statistics.median(s) for name, s in seconds.items()}
    mine = median["spark-drill"]
    over_pandas = median["pandas+openpyxl"] / mine
    over_calamine = mine / median["python-calamine"]
    verdict = {True: "**pass**", False: "**fail**"}
    lines = [
        "# Reading Excel workbooks (issue 40)",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"{_versions()}. Command: `python -m bench.excel {' '.join(sys.argv[1:])}`",
        "",
        f"{args.files} workbooks of {args.rows:,} rows ({rows:,} rows, {_mib(size)} of .xlsx), 12 columns "
        "whose headers drift across the files (one renamed, one dropped, one added, the order moved): ids, "
        "short text, integers, floats, booleans, dates and timestamps, some cells blank. Every engine reads "
        f"every row and every column of every file with {args.cores} cores: spark-drill in `local["
        f'{args.cores}]` (`format=excel`, a count of every column), pandas.read_excel(engine="openpyxl") and '
        f"python-calamine (`to_python()`) each over a pool of {args.cores} processes. Processes per engine, "
        f"taken in turns: {args.turns}, each timing {args.passes} reads after a warm-up.",
        "",
        "| engine | median read, s | rows/s | reads | spark-drill's speed over it |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for name, s in seconds.items():
        lines.append(
            f"| {name} | {median[name]:.3f} | {rows / median[name]:,.0f} | {len(s)} | "
            f"{median[name] / mine:.2f}x |"
        )
    lines += [
        "",
        f"- At least 3x pandas.read_excel with openpyxl: {over_pandas:.2f}x, {verdict[over_pandas >= 3]}.",
        f"- Within 2x of python-calamine: spark-drill takes {over_calamine:.2f}x its time, "
        f"{verdict[over_calamine <= 2]}.",
        "",
    ]
    if memory is not None:
        lines += [
            f"Memory: one sheet of {args.big_rows:,} rows ({_mib(memory['size'])} of .xlsx) read by "
            f"spark-drill in `local[1]` with `spark.driver.memory={args.big_heap}` (max heap "
            f"{_mib(memory['max_heap'])}): finished, {memory['result']['rows']:,} rows and every column "
            f"counted in {memory['seconds'][0]:.1f} s; peak heap used {_mib(memory['peak'])} (the sum of the "
            "heap pools' peaks, reset once the session was warm: "
            + ", ".join(f"{k} {_mib(v)}" for k, v in memory["pools"].items())
            + ").",
            "",
        ]
    lines += [
        f"Every engine's result, equal to what was generated: `{json.dumps(truth, sort_keys=True)}`",
        "",
    ]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
