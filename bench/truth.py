"""The known truth of the generated data, the answers each query must give, and answer checking.

truth.json has one section per format (`csv`, `json`):
    files, rows, bytes (and aligned_bytes for csv): the size of the tree
    columns, types: every column some file has, in canonical order, and its type
    non_null: per column, the number of rows with a value (a file lacking the column counts none)
    sums: per numeric column, the sum of its non-null values (doubles are generated as integers over a
          power of ten, so sums_scaled holds them exactly)
    chars: the total length in characters of the column Q2 measures
    distinct: distinct counts of the columns the queries count
    dir0: rows per year directory; dir0_filename: rows per (year directory, file name)
    filtered: the rows the selective filter (Q6) keeps: its predicate, rows, non_null, sums_scaled, sums
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from bench.schema import (
    DISTINCT_COLUMN,
    LENGTH_COLUMN,
    PREDICATE,
    SUM_COLUMN,
    Column,
    column_type,
    columns,
)

if TYPE_CHECKING:
    from bench.gen import Counts, FileStats

Truth = dict[str, Any]
Answer = dict[str, Any]

REL_TOL = 1e-9


def build_truth(stats: Iterable[FileStats], **meta: Any) -> Truth:
    truth: Truth = {"meta": meta}
    by_fmt: dict[str, list[FileStats]] = {}
    for s in stats:
        by_fmt.setdefault(s.fmt, []).append(s)
    for fmt, files in sorted(by_fmt.items()):
        files.sort(key=lambda s: s.rel)
        cols = [c for c in columns(fmt) if any(c.name in s.counts.non_null for s in files)]
        dir0: Counter[str] = Counter()
        dir0_filename: Counter[str] = Counter()
        for s in files:
            dir0[f"{s.year:04d}"] += s.counts.rows
            dir0_filename[f"{s.year:04d}/{s.rel.rsplit('/', 1)[1]}"] += s.counts.rows
        users = np.unique(np.concatenate([s.users for s in files]))
        section: dict[str, Any] = {
            "files": len(files),
            "bytes": sum(s.bytes for s in files),
            "columns": [c.name for c in cols],
            "types": {c.name: column_type(c, fmt) for c in cols},
            **_totals(cols, [s.counts for s in files]),
            "chars": {LENGTH_COLUMN: sum(s.chars for s in files)},
            "distinct": {DISTINCT_COLUMN: len(users)},
            "dir0": dict(sorted(dir0.items())),
            "dir0_filename": dict(sorted(dir0_filename.items())),
            "header_orders": len({tuple(s.header) for s in files}),
            "filtered": {"predicate": PREDICATE, **_totals(cols, [s.filtered for s in files])},
        }
        if fmt == "csv":
            section["aligned_bytes"] = sum(s.aligned_bytes for s in files)
        truth[fmt] = section
    return truth


def _totals(cols: list[Column], files: list[Counts]) -> dict[str, Any]:
    """rows, non_null, sums_scaled and sums over the files' counts."""
    non_null: Counter[str] = Counter()
    scaled: Counter[str] = Counter()
    for f in files:
        non_null.update(f.non_null)
        scaled.update(f.sums)
    numeric = [c for c in cols if c.numeric]
    return {
        "rows": sum(f.rows for f in files),
        "non_null": {c.name: non_null[c.name] for c in cols},
        "sums_scaled": {c.name: [scaled[c.name], c.scale] for c in numeric},
        "sums": {c.name: scaled[c.name] / c.scale if c.scale != 1 else scaled[c.name] for c in numeric},
    }


def load(data_dir: Path) -> Truth:
    result: Truth = json.loads((Path(data_dir) / "truth.json").read_text())
    return result


# ---------------------------------------------------------------------------------------------- answers
def expected(truth: Truth, fmt: str, query: str, data: str = "") -> Answer:
    """The answer query `query` must give on the `fmt` data (see bench/queries.py for the queries)."""
    t = truth[fmt]
    if query == "Q0":
        return {"bytes": t["bytes"] if data != "csv_aligned" else t["aligned_bytes"]}
    if query == "Q1":
        return {"rows": t["rows"]}
    if query == "Q2":
        return {"sum": t["sums"][SUM_COLUMN], "length": t["chars"][LENGTH_COLUMN]}
    if query == "Q2d":
        return {"sum": t["sums"][SUM_COLUMN], "distinct": t["distinct"][DISTINCT_COLUMN]}
    if query == "Q3":
        return {"rows": t["rows"], "non_null": t["non_null"], "sums": t["sums"]}
    if query == "Q4":
        return {"groups": t["dir0_filename"]}
    if query in ("Q5", "Q5c", "Q5c-dir"):  # a discovery, or a re-load from the cache: the same columns
        return {"columns": sorted(t["columns"])}
    if query == "Q6":
        f = t["filtered"]
        return {"rows": f["rows"], "non_null": f["non_null"], "sums": f["sums"]}
    raise ValueError(query)


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return math.isclose(float(a), float(b), rel_tol=REL_TOL, abs_tol=1e-6)
    return bool(a == b)


def diff(got: Any, want: Any, path: str = "") -> list[str]:
    """Differences between an answer and the expected one, as readable lines (empty when they agree)."""
    if isinstance(want, Mapping):
        if not isinstance(got, Mapping):
            return [f"{path or 'answer'}: got {_short(got)}, want a mapping"]
        out: list[str] = []
        for k in want:
            if k not in got:
                out.append(f"{path}{k}: missing")
            else:
                out += diff(got[k], want[k], f"{path}{k}.")
        out += [f"{path}{k}: unexpected ({_short(got[k])})" for k in got if k not in want]
        return out
    if not _close(got, want):
        return [f"{path.rstrip('.')}: got {_short(got)}, want {_short(want)}"]
    return []


def _short(x: Any, n: int = 80) -> str:
    s = repr(x)
    return s if len(s) <= n else s[: n - 3] + "..."


def check(truth: Truth, fmt: str, query: str, answer: Answer, data: str = "") -> tuple[bool, str]:
    """Whether the answer is right, and a short note of what is wrong (first differences)."""
    d = diff(answer, expected(truth, fmt, query, data))
    if not d:
        return True, ""
    more = f" (+{len(d) - 3} more)" if len(d) > 3 else ""
    return False, "; ".join(d[:3]) + more
