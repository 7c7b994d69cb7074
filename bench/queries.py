"""The benchmark's queries. Each engine implements them its own way (bench/engines/); the answers have
the shapes of bench.truth.expected."""

from __future__ import annotations

from dataclasses import dataclass

from bench.schema import DISTINCT_COLUMN, SUM_COLUMN


@dataclass(frozen=True)
class Query:
    id: str
    title: str
    what: str


QUERIES: tuple[Query, ...] = (
    Query("Q0", "read all bytes", "cat of every file (the I/O floor; answer: the byte count)"),
    Query("Q1", "count(*)", "row count of the whole tree"),
    Query("Q2", "narrow projection", f"sum({SUM_COLUMN}), count(distinct {DISTINCT_COLUMN})"),
    Query(
        "Q3",
        "all columns",
        'every column materialised: write.format("noop"); checked by non-null '
        "counts of every column and sums of the numeric ones (check not timed)",
    ),
    Query("Q4", "group by dir0, filename", "count(*) grouped by the year directory and the file name"),
    Query("Q5", "schema discovery", "time to get the schema of the tree (column names checked)"),
)
BY_ID = {q.id: q for q in QUERIES}
IDS = tuple(q.id for q in QUERIES)

# dir0 (the year) and the file name, from a file path, for engines with no partition columns.
DIR0_REGEX = r"/(\d{4})/\d{2}/[^/]+$"
