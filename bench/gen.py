"""Seeded, deterministic generator of the benchmark data and its known truth.

    python -m bench.gen [--small] [--out DIR] [--seed N] [--size-mb MB] [--jobs N]

writes, under DIR (default bench/data/full, or bench/data/small with --small):

    csv/YYYY/MM/part-N.csv          headers in a different order per file, later months add columns,
                                    some files lack a column, quoted fields with commas and quotes
    csv_aligned/YYYY/MM/part-N.csv  the same rows, every file with all columns in one header order
    json/YYYY/MM/part-N.json        one object per line, a nested object and an array, nulls written
                                    as null in some files and left out in others
    truth.json                      row counts, non-null counts, sums, character counts, distinct counts
                                    and group counts, and the counts and sums of the rows the selective
                                    filter keeps, computed while generating (see bench/truth.py)

Every file is generated from its own random stream (seed, format, year, month, part), so the output
does not depend on the number of worker processes.
"""

from __future__ import annotations

import argparse
import calendar
import functools
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bench.schema import (
    COLUMNS,
    FILTER_COLUMN,
    FILTER_VALUE,
    LENGTH_COLUMN,
    MONTHS,
    YEARS,
    Column,
    columns,
    file_has,
)

FULL_MB = 1024
SMALL_MB = 4
N_USERS = 2_000_000
FORMAT_CODE = {"csv": 1, "json": 2}

Strs = npt.NDArray[np.str_]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


# ---------------------------------------------------------------------------------------------- vocabularies
def _csv_field(s: str) -> str:
    if any(ch in s for ch in ',"\n\r') or s != s.strip():
        return '"' + s.replace('"', '""') + '"'
    return s


def _json_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


COUNTRIES = tuple(
    "US GB FR DE BR IN JP CN CA AU ES IT NL SE NO PL MX AR ZA NG KE EG TR KR ID".split()  # noqa: SIM905
)
CITIES = (
    "Paris",
    "London",
    "Berlin",
    "São Paulo",
    "Tokyo",
    "Washington, D.C.",
    "St. John's",
    "Zürich",
    "New York",
    "Lagos",
    "Mumbai",
    "Kraków",
    "Rio de Janeiro",
    "Winston-Salem",
    "Bogotá",
    'Springfield "the capital"',
    "Portland, OR",
    "Portland, ME",
    "Reykjavík",
    "Québec",
)
STATUSES = ("ok", "pending", "failed", "cancelled", "refunded")
CATEGORIES = tuple(f"cat_{i:02d}" for i in range(20))
CHANNELS = ("web", "ios", "android", "partner", "email", "store")
OSES = ("ios", "android", "linux")
SCREENS = ((1170, 2532), (1080, 2400), (1920, 1080), (2560, 1440), (750, 1334))
TAG_WORDS = ("new", "promo", "vip", "returning", "mobile", "gift", "bulk", "test")
WORDS = (
    "great",
    "product",
    "late",
    "delivery",
    "would",
    "buy",
    "again",
    "naïve",
    "café",
    "☕",
    "ok",
    "broken",
    "box",
    "refund",
    "please",
    "fast",
    "cheap",
    "über",
    "nice",
    "size",
)


def _comments(seed: int, newline: bool) -> list[str]:
    """500 comment texts; some with commas, double quotes, apostrophes, and (if asked) newlines."""
    rng = np.random.default_rng([seed, 99])
    out = []
    for i in range(500):
        words = [WORDS[j] for j in rng.integers(0, len(WORDS), int(rng.integers(1, 9)))]
        kind = i % 5
        if kind == 1:
            words.insert(len(words) // 2, "and,")
        elif kind == 2:
            words = ["said", '"' + " ".join(words) + '"', "then", "left"]
        elif kind == 3:
            words.append("it's fine, really")
        text = " ".join(words)
        if newline and i % 7 == 0:
            text = text.replace(" ", "\n", 1)
        out.append(text)
    return out


def _tag_arrays(seed: int) -> list[list[str]]:
    rng = np.random.default_rng([seed, 98])
    return [
        [TAG_WORDS[j] for j in rng.choice(len(TAG_WORDS), int(rng.integers(0, 4)), replace=False)]
        for _ in range(64)
    ]


@dataclass
class Vocab:
    """A column's vocabulary, pre-encoded for CSV and JSON so that rows are built by indexing."""

    values: list[str]
    csv: npt.NDArray[np.object_] = field(init=False)
    json: npt.NDArray[np.object_] = field(init=False)

    def __post_init__(self) -> None:
        self.csv = np.array([_csv_field(v) for v in self.values], dtype=object)
        self.json = np.array([_json_str(v) for v in self.values], dtype=object)


# ---------------------------------------------------------------------------------------------- one file
@dataclass(frozen=True)
class FileTask:
    fmt: str  # csv or json
    year: int
    month: int
    part: int
    rows: int
    id_base: int
    seed: int
    out: str  # output root
    newline: bool = False  # some comments contain a newline (inside quotes)
    write: bool = True  # False: only measure the size (calibration)

    @property
    def rel(self) -> str:
        return f"{self.year:04d}/{self.month:02d}/part-{self.part}.{self.fmt}"


@dataclass
class Counts:
    """Of some rows of a file: how many, the non-null values per column, the sums per numeric column (at
    their generated, integer, scale)."""

    rows: int
    non_null: dict[str, int]
    sums: dict[str, int]


@dataclass
class FileStats:
    fmt: str
    rel: str
    year: int
    month: int
    part: int
    bytes: int
    aligned_bytes: int
    header: list[str]
    counts: Counts  # all rows
    filtered: Counts  # the rows schema.PREDICATE keeps
    chars: int  # characters of LENGTH_COLUMN's values
    users: Ints  # distinct user ids of the file


def _values(task: FileTask, n: int, rng: np.random.Generator) -> tuple[dict[str, Any], dict[str, Bools]]:
    """Raw column values (numbers as integers at their scale) and null masks."""
    days = calendar.monthrange(task.year, task.month)[1]
    start = np.datetime64(f"{task.year:04d}-{task.month:02d}-01T00:00:00", "s")
    v: dict[str, Any] = {
        "id": task.id_base + np.arange(n, dtype=np.int64),
        "user_id": rng.integers(1, N_USERS + 1, n),
        "event_ts": start + rng.integers(0, days * 86400, n).astype("timedelta64[s]"),
        "country": rng.integers(0, len(COUNTRIES), n),
        "city": rng.integers(0, len(CITIES), n),
        "status": rng.integers(0, len(STATUSES), n),
        "category": rng.integers(0, len(CATEGORIES), n),
        "quantity": rng.integers(1, 101, n),
        "price": rng.integers(100, 100_000, n),
        "amount": rng.integers(0, 10_000_000, n),
        "score": rng.integers(0, 100_000, n),
        "rating": rng.integers(1, 6, n),
        "latency_ms": rng.integers(1, 50_000, n),
        "session_id": rng.integers(10**11, 5 * 10**11, n),
        "is_active": rng.integers(0, 2, n),
        "is_mobile": rng.integers(0, 2, n),
        "comment": rng.integers(0, 500, n),
        "ip": rng.integers(0, 256, (4, n)),
        "discount": rng.integers(0, 5_000, n),
        "channel": rng.integers(0, len(CHANNELS), n),
        "device": (rng.integers(0, len(OSES), n), rng.integers(1, 21, n), rng.integers(0, len(SCREENS), n)),
        "tags": rng.integers(0, 64, n),
    }
    null_rate = {
        "amount": 0.1,
        "score": 0.2,
        "rating": 0.15,
        "is_mobile": 0.05,
        "discount": 0.3,
        "device": 0.1,
        "tags": 0.1,
    }
    nulls = {c: rng.random(n) < rate for c, rate in null_rate.items()}
    return v, nulls


def _num_str(a: Ints, scale: int) -> Strs:
    if scale == 1:
        return a.astype(str)
    return (a / scale).astype(str)  # shortest round-trip repr: 1234/100 -> "12.34", 100/100 -> "1.0"


def _texts(c: Column, v: dict[str, Any], vocab: dict[str, Vocab], fmt: str) -> Any:
    """The column's values as encoded text (CSV field or JSON value), without nulls applied."""
    x: Any = v.get(c.name)
    if c.name in vocab:
        voc = vocab[c.name]
        return (voc.csv if fmt == "csv" else voc.json)[x]
    if c.name == "user_name":
        s = _user_names(v)
    elif c.name == "event_ts":
        s = np.strings.replace(x.astype(str), "T", " ")
    elif c.name == "event_date":
        s = v["event_ts"].astype("datetime64[D]").astype(str)
    elif c.type == "boolean":
        return np.where(x == 1, "true", "false")  # the same text in CSV and JSON
    elif c.name == "ip":
        s = x[0].astype(str)
        for k in (1, 2, 3):
            s = np.strings.add(np.strings.add(s, "."), x[k].astype(str))
    elif c.numeric:
        return _num_str(x, c.scale)
    elif c.name == "device":
        os_, ver, scr = x
        w = np.array([str(a) for a, _ in SCREENS])[scr]
        h = np.array([str(b) for _, b in SCREENS])[scr]
        s = np.array(['{"os":"' + o + '","version":' for o in OSES])[os_]
        s = np.strings.add(np.strings.add(s, ver.astype(str)), ',"screen":{"w":')
        return np.strings.add(np.strings.add(np.strings.add(s, w), ',"h":'), np.strings.add(h, "}}"))
    else:
        raise AssertionError(c.name)
    return s if fmt == "csv" else np.strings.add(np.strings.add('"', s), '"')


def _user_names(v: dict[str, Any]) -> Strs:
    return np.strings.add("u", np.strings.zfill(v["user_id"].astype(str), 7))


@functools.lru_cache(maxsize=4)
def _vocabs(seed: int, newline: bool) -> dict[str, Vocab]:
    tags = Vocab([json.dumps(t) for t in _tag_arrays(seed)])
    tags.json = np.array(tags.values, dtype=object)  # already JSON arrays
    return {
        "country": Vocab(list(COUNTRIES)),
        "city": Vocab(list(CITIES)),
        "status": Vocab(list(STATUSES)),
        "category": Vocab(list(CATEGORIES)),
        "comment": Vocab(_comments(seed, newline)),
        "channel": Vocab(list(CHANNELS)),
        "tags": tags,
    }


def _counts(cols: Sequence[Column], v: dict[str, Any], nulls: dict[str, Bools], rows: Bools) -> Counts:
    """Counts of the rows that `rows` selects."""
    non_null: dict[str, int] = {}
    sums: dict[str, int] = {}
    for c in cols:
        has = rows & ~nulls[c.name] if c.nullable else rows
        non_null[c.name] = int(has.sum())
        if c.numeric:
            sums[c.name] = int(v[c.name][has].sum())
    return Counts(int(rows.sum()), non_null, sums)


def _chars(v: dict[str, Any]) -> int:
    """The characters of LENGTH_COLUMN's values (what Spark's length() counts; it is in every file and never
    null), rebuilt from the user ids already drawn: the truth draws no random numbers, so the files stay the
    same."""
    assert LENGTH_COLUMN == "user_name", "only user_name's lengths are counted"
    return int(np.strings.str_len(_user_names(v)).sum())


def generate_file(task: FileTask) -> FileStats:
    rng = np.random.default_rng([task.seed, FORMAT_CODE[task.fmt], task.year, task.month, task.part])
    n = task.rows
    v, nulls = _values(task, n, rng)
    vocab = _vocabs(task.seed, task.newline)
    cols = [c for c in columns(task.fmt) if file_has(c, task.year, task.month, task.part)]
    texts = {c.name: _texts(c, v, vocab, task.fmt) for c in cols}
    file_idx = (task.year, task.month, task.part)
    out = Path(task.out)
    aligned_bytes = 0
    if task.fmt == "csv":
        for c in cols:
            if c.nullable:
                texts[c.name] = np.where(nulls[c.name], "", texts[c.name].astype(str))
        lists = {name: t.tolist() for name, t in texts.items()}
        # The first file of the tree keeps the canonical order; about two in three others shuffle it.
        order = [c.name for c in cols]
        if file_idx != (YEARS[0], MONTHS[0], 0) and rng.random() < 0.67:
            order = [order[i] for i in rng.permutation(len(order))]
        text = _csv_text(order, [lists[name] for name in order], n)
        # The aligned copy: every column of the format, canonical order, blanks where the file lacks one.
        all_names = [c.name for c in columns("csv")]
        blank = [""] * n
        aligned = _csv_text(all_names, [lists.get(name, blank) for name in all_names], n)
        aligned_bytes = _write(out / "csv_aligned" / task.rel, aligned, task.write)
        header = order
    else:
        # Nulls: written as null in even parts, left out in odd ones. Every piece but the first carries
        # its leading comma, so a left-out member is an empty piece.
        omit = task.part % 2 == 1
        pieces = []
        for i, c in enumerate(cols):
            lead = ("{" if i == 0 else ",") + _json_str(c.name) + ":"
            t = np.strings.add(lead, texts[c.name].astype(str))
            if c.nullable:
                t = np.where(nulls[c.name], "" if omit else lead + "null", t)
            pieces.append(t.tolist())
        text = "".join("".join(r) + "}\n" for r in zip(*pieces, strict=True))
        header = [c.name for c in cols]
    size = _write(out / task.fmt / task.rel, text, task.write)
    return FileStats(
        task.fmt,
        task.rel,
        task.year,
        task.month,
        task.part,
        size,
        aligned_bytes,
        header,
        counts=_counts(cols, v, nulls, np.ones(n, dtype=bool)),
        filtered=_counts(cols, v, nulls, v[FILTER_COLUMN] == FILTER_VALUE),
        chars=_chars(v),
        users=np.unique(v["user_id"]),
    )


def _csv_text(header: list[str], cols: list[list[str]], n: int) -> str:
    lines = [",".join(header)]
    lines.extend(",".join(r) for r in zip(*cols, strict=True))
    return "\n".join(lines) + "\n"


def _write(path: Path, text: str, write: bool) -> int:
    data = text.encode("utf-8")
    if write:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb", buffering=1 << 20) as f:
            f.write(data)
    return len(data)


# ---------------------------------------------------------------------------------------------- the tree
def rows_per_file(fmt: str, target_bytes: int, n_files: int, seed: int) -> int:
    """Calibrates rows per file from a sample of the last (widest) month."""
    sample = 4000
    probe = FileTask(fmt, YEARS[-1], MONTHS[-1], 0, sample, 0, seed, "", write=False)
    per_row = generate_file(probe).bytes / sample
    return max(10, int(target_bytes / n_files / per_row))


def tasks(fmt: str, rows: int, parts: int, seed: int, out: str, newline: bool) -> list[FileTask]:
    result = []
    i = 0
    for year in YEARS:
        for month in MONTHS:
            for part in range(parts):
                result.append(FileTask(fmt, year, month, part, rows, i * rows, seed, out, newline))
                i += 1
    return result


def generate(
    out: Path, seed: int, size_mb: float, parts: int, jobs: int, newline: bool, log: bool = True
) -> dict[str, Any]:
    """Writes the tree and truth.json under `out`, and returns the truth."""
    from bench.truth import build_truth

    out.mkdir(parents=True, exist_ok=True)
    n_files = len(YEARS) * len(MONTHS) * parts
    stats: list[FileStats] = []
    t0 = time.monotonic()
    all_tasks: list[FileTask] = []
    for fmt in ("csv", "json"):
        rows = rows_per_file(fmt, int(size_mb * 2**20), n_files, seed)
        all_tasks += tasks(fmt, rows, parts, seed, str(out), newline)
    if jobs > 1:
        with Pool(jobs) as pool:
            stats = list(pool.imap_unordered(generate_file, all_tasks, chunksize=1))
    else:
        stats = [generate_file(t) for t in all_tasks]
    truth = build_truth(stats, seed=seed, size_mb=size_mb, parts=parts, newline=newline)
    (out / "truth.json").write_text(json.dumps(truth, indent=1, sort_keys=True) + "\n")
    if log:
        mb = sum(s.bytes + s.aligned_bytes for s in stats) / 2**20
        print(
            f"wrote {len(stats)} files + aligned copy, {mb:.0f} MiB, to {out} "
            f"in {time.monotonic() - t0:.1f}s",
            file=sys.stderr,
        )
    return truth


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.gen", description=__doc__.split("\n")[0])
    p.add_argument("--small", action="store_true", help=f"about {SMALL_MB} MiB per format, 2 files a month")
    p.add_argument("--out", type=Path, help="output directory (default bench/data/full or bench/data/small)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument(
        "--size-mb", type=float, help=f"MiB per format (default {FULL_MB}, or {SMALL_MB} with --small)"
    )
    p.add_argument("--parts", type=int, help="files per month (default 4, or 2 with --small)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument(
        "--quoted-newlines",
        action="store_true",
        help="put newlines inside some quoted comment fields (Spark's CSV reader then needs multiLine)",
    )
    a = p.parse_args(argv)
    out = a.out or Path("bench/data") / ("small" if a.small else "full")
    size = a.size_mb or (SMALL_MB if a.small else FULL_MB)
    parts = a.parts or (2 if a.small else 4)
    generate(out, a.seed, size, parts, a.jobs, a.quoted_newlines)
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["COLUMNS", "FileStats", "FileTask", "generate", "generate_file"]
