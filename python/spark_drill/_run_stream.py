"""`sd.run_stream`: a stream that goes on across schema changes (SPEC 11, "A stale DataFrame").

A stream's schema is fixed when its DataFrame is built, so when files bring new columns the query stops with
the error class SPARK_DRILL_STREAM_SCHEMA_CHANGED after writing the next schema version; going on means
building the DataFrame again and starting it from the same checkpoint. This does that loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyspark.sql import DataFrame
from pyspark.sql.streaming.query import StreamingQuery

SCHEMA_CHANGED = "SPARK_DRILL_STREAM_SCHEMA_CHANGED"


def run_stream(
    build: Callable[[], DataFrame],
    start: Callable[[DataFrame], StreamingQuery],
    *,
    max_schema_changes: int = 10,
    on_schema_change: Callable[[str], None] | None = None,
) -> StreamingQuery:
    """Runs a drill stream until it ends for a reason other than a schema change, and returns its query.

    `build()` returns the streaming DataFrame (`sd.read_stream(...)` or `spark.readStream...load()`),
    `start(df)` starts the query (with its checkpoint) and returns it. When the query stops because the
    stream's schema changed, the DataFrame is built again (with the new version) and started again from
    the same checkpoint, at most `max_schema_changes` times; `on_schema_change` gets each change's message.
    Any other error is raised. An AvailableNow or Once query returns when it has read what was there.

    The error is recognised by its class, not its wording: the class Spark reports for the cause, or, under
    Spark Connect where only the text of a cause travels, the `[SPARK_DRILL_STREAM_SCHEMA_CHANGED]` tag Spark
    prints in front of a classed error's message.
    """
    if max_schema_changes < 0:
        raise ValueError(f"max_schema_changes must be at least 0, got {max_schema_changes}")
    changes = 0
    while True:
        try:
            query = start(build())
            query.awaitTermination()
            failure = query.exception()
            if failure is None:
                return query
            raise failure
        except Exception as e:
            if not is_schema_change(e) or changes >= max_schema_changes:
                raise
            changes += 1
            if on_schema_change is not None:
                on_schema_change(schema_change_message(e))


def is_schema_change(error: BaseException) -> bool:
    """Whether `error` (or what it wraps) has the error class SPARK_DRILL_STREAM_SCHEMA_CHANGED."""
    return SCHEMA_CHANGED in _error_classes(error) or f"[{SCHEMA_CHANGED}]" in str(error)


def schema_change_message(error: BaseException) -> str:
    """The JVM's text of the change (which file, which columns, which version), from the first line that has
    the class; the whole error's first line when none has."""
    for line in str(error).splitlines():
        if f"[{SCHEMA_CHANGED}]" in line:
            return line[line.index(f"[{SCHEMA_CHANGED}]") :].strip()
    return str(error).strip().splitlines()[0] if str(error).strip() else SCHEMA_CHANGED


def _error_classes(error: BaseException) -> set[str]:
    """The error classes of `error` and, on a classic session, of each Java cause behind it."""
    found: set[str] = set()
    # PySpark 4 names it getCondition (getErrorClass is deprecated there, with a warning); 3.5 getErrorClass.
    name = "getCondition" if hasattr(error, "getCondition") else "getErrorClass"
    method = getattr(error, name, None)
    if callable(method):
        try:
            value = method()
        except Exception:  # an error class PySpark's own table does not know
            value = None
        if isinstance(value, str):
            found.add(value)
    cause: Any = getattr(error, "_origin", None)  # the Py4J Java exception of a classic session
    for _ in range(20):  # a bounded walk down the cause chain
        if cause is None:
            break
        for name in ("getCondition", "getErrorClass"):
            try:
                value = getattr(cause, name)()
            except Exception:  # not a SparkThrowable, or a method this Spark lacks
                continue
            if isinstance(value, str):
                found.add(value)
        try:
            cause = cause.getCause()
        except Exception:
            break
    return found
