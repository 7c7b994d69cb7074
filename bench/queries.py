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
    reads_relation: bool = True  # reads the relation an engine's prepare() builds (Q0 and the Q5s do not)
    # A re-load served by spark-drill's discovery cache (issue 30): the cache's own figure, not a discovery
    # speed. Only engines that keep schemas between loads run it; no target compares it with another engine,
    # and the report and the plot keep it apart from Q5.
    cache: bool = False


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
    # Q5 is what a user's first load() costs: a fresh DataFrame each run in a warm JVM, with no cache to serve
    # it (spark-drill: sessionSchemaCache=false and no schemaCache; the other engines keep no schemas between
    # loads). bench/discovery.py fails a timed run that a cache served.
    Query(
        "Q5",
        "schema discovery",
        "time to get the schema of the tree as a first load() does, no cache (column names checked)",
        False,
    ),
    # An equality on a typed column is a data filter Spark pushes to the reader; 1 % of the records pass.
    Query(
        "Q6",
        "selective filter",
        f"every column of the records where {PREDICATE} (about 1 %): filter, then "
        'write.format("noop"); checked as Q3 is, on the records that pass (check not timed)',
    ),
    # The cache's figures (issue 30), last: the queries before them run as they always have.
    Query(
        "Q5c",
        "schema re-load, session cache",
        "spark-drill only: Q5's load() again, every file's schema from the driver's in-memory cache "
        "(sessionSchemaCache, filled by an untimed load); a re-load, not a discovery",
        False,
        cache=True,
    ),
    Query(
        "Q5c-dir",
        "schema re-load, schemaCache directory",
        "spark-drill only: Q5's load() again, every file's schema from a schemaCache directory filled by an "
        "untimed load (sessionSchemaCache=false, so the directory alone serves); a re-load, not a discovery",
        False,
        cache=True,
    ),
)
BY_ID = {q.id: q for q in QUERIES}
IDS = tuple(q.id for q in QUERIES)

# dir0 (the year) and the file name, from a file path, for engines with no partition columns.
DIR0_REGEX = r"/(\d{4})/\d{2}/[^/]+$"
