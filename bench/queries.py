"""The benchmark's queries. Each engine implements them its own way (bench/engines/); the answers have
the shapes of bench.truth.expected."""

from __future__ import annotations

from dataclasses import dataclass

from bench.schema import DISTINCT_COLUMN, LENGTH_COLUMN, PREDICATE, SUM_COLUMN


@dataclass(frozen=True)
class Query:
    id: str
    title: str
    what: str
    reads_relation: bool = True  # reads the relation an engine's prepare() builds (Q0 and Q5 do not)


QUERIES: tuple[Query, ...] = (
    Query("Q0", "read all bytes", "cat of every file (the I/O floor; answer: the byte count)", False),
    Query("Q1", "count(*)", "row count of the whole tree"),
    Query(
        "Q2",
        "narrow projection",
        f"sum({SUM_COLUMN}), sum(length({LENGTH_COLUMN})): two columns read, cheap aggregates (scan-bound)",
    ),
    Query(
        "Q2d",
        "narrow projection + distinct",
        f"sum({SUM_COLUMN}), count(distinct {DISTINCT_COLUMN}): Q2's scan plus a hash aggregation of "
        "up to 2 million distinct strings (in Spark, mostly the aggregation)",
    ),
    Query(
        "Q3",
        "all columns",
        'every column materialised: write.format("noop"); checked by non-null '
        "counts of every column and sums of the numeric ones (check not timed)",
    ),
    Query("Q4", "group by dir0, filename", "count(*) grouped by the year directory and the file name"),
    Query("Q5", "schema discovery", "time to get the schema of the tree (column names checked)", False),
    # An equality on a typed column is a data filter Spark pushes to the reader; 1 % of the records pass.
    Query(
        "Q6",
        "selective filter",
        f"every column of the records where {PREDICATE} (about 1 %): filter, then "
        'write.format("noop"); checked as Q3 is, on the records that pass (check not timed)',
    ),
)
BY_ID = {q.id: q for q in QUERIES}
IDS = tuple(q.id for q in QUERIES)

# dir0 (the year) and the file name, from a file path, for engines with no partition columns.
DIR0_REGEX = r"/(\d{4})/\d{2}/[^/]+$"
