"""Whether a timed schema-discovery run measured what its query says (issue 30).

spark-drill keeps each file's discovered schema between loads: in the driver's memory (`sessionSchemaCache`,
on by default) and, when asked, in a `schemaCache` directory. A load() the cache serves lists the files and
reads no file: until issue 30 every timed Q5 of spark-drill was such a re-load (the warm-up run had filled
the cache), 0.02-0.05 s against the 0.6 s a first load() takes, and the discovery ratios quoted from it were
a cache's. So each timed run of a discovery query by an engine with a schema cache reports how its load()
found its files' schemas (`Found`: spark-drill's DiscoveryStats of the table it planned), and the run counts
only when that is what the query measures: Q5 every file discovered, Q5c every file from the session's
cache, Q5c-dir every file from the directory. An engine with no schema cache (Spark's readers, DuckDB,
Polars: each load infers again) reports nothing and is not checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

COLD = "Q5"


@dataclass(frozen=True)
class Found:
    """How one load() found its files' schemas (spark-drill's `DiscoveryStats`)."""

    files: int  # listed
    memory: int  # from the driver's in-memory cache (sessionSchemaCache)
    directory: int  # from the schemaCache directory
    discovered: int  # read from the files: no cache had them, or the caches were off


# Where every file's schema must come from in each timed run of a discovery query, and how to say it.
SOURCE = {COLD: "discovered", "Q5c": "memory", "Q5c-dir": "directory"}
SAID = {"discovered": "discovered", "memory": "from the session's cache", "directory": "from schemaCache"}


def describe(found: Found) -> str:
    """'96 files: 96 discovered, 0 from the session's cache, 0 from schemaCache' (the words of the JVM's
    log line)."""
    counts = ", ".join(f"{getattr(found, source)} {said}" for source, said in SAID.items())
    return f"{found.files} files: {counts}"


def problem(query: str, found: Found | None) -> str:
    """Why a timed run of `query` by an engine with a schema cache did not measure what the query says, ''
    when it did. A run whose discovery is unknown is a problem too: with a cache it could have been either."""
    want = SOURCE.get(query)
    if want is None:
        return ""
    if found is None:
        return "how its load() found the files' schemas is unknown"
    if found.files > 0 and getattr(found, want) == found.files:
        return ""
    if query == COLD:
        return f"served by a discovery cache, so not a discovery ({describe(found)})"
    return f"not every schema {SAID[want]} ({describe(found)})"


def observe(result: dict[str, Any], query: str, found: Found | None, has_cache: bool) -> str:
    """Untimed, after a timed run: notes how its load() found the schemas in `result["discovery"]` (one entry
    a run) and returns why the run does not measure what `query` says ('' when it does, and always for an
    engine with no schema cache or a query that is no discovery)."""
    if not has_cache or query not in SOURCE:
        return ""
    result.setdefault("discovery", []).append(None if found is None else asdict(found))
    return problem(query, found)


def summary(query: str, runs: Sequence[dict[str, Any] | None]) -> str:
    """The note of a discovery query whose timed runs all measured what it says, e.g. 'every timed run: 96
    files discovered, none from a cache' ('' when there is nothing to say)."""
    want = SOURCE.get(query)
    if want is None or not runs or any(r is None for r in runs):
        return ""
    files = {r["files"] for r in runs if r is not None}
    count = "/".join(str(n) for n in sorted(files))
    if query == COLD:
        return f"every timed run: {count} files discovered, none from a cache"
    return f"every timed run: {count} files {SAID[want]}, none discovered"
