"""`sd.run_stream`: a stream that goes on across schema changes (SPEC 11, "A stale DataFrame").

A stream's schema is fixed when its DataFrame is built, so when files bring new columns the query stops with
the error class SPARK_DRILL_STREAM_SCHEMA_CHANGED after writing the next schema version; going on means
building the DataFrame again and starting it from the same checkpoint. This does that loop.
"""

from __future__ import annotations

from collections.abc import Callable

from pyspark.sql import DataFrame
from pyspark.sql.streaming.query import StreamingQuery

from spark_drill._errors import drill_error_of

SCHEMA_CHANGED = "SPARK_DRILL_STREAM_SCHEMA_CHANGED"


def run_stream(
    build: Callable[[], DataFrame],
    start: Callable[[DataFrame], StreamingQuery],
    *,
    max_schema_changes: int = 10,
    on_schema_change: Callable[[SchemaChange], None] | None = None,
) -> StreamingQuery:
    """Runs a drill stream until it ends for a reason other than a schema change, and returns its query.

    `build()` returns the streaming DataFrame (`sd.read_stream(...)` or `spark.readStream...load()`),
    `start(df)` starts the query (with its checkpoint) and returns it. When the query stops because the
    stream's schema changed, the DataFrame is built again (with the new version) and started again from
    the same checkpoint, at most `max_schema_changes` times; `on_schema_change` gets each change: its message,
    a str, with the file, columns, versions and location as fields (SchemaChange).
    Any other error is raised. An AvailableNow or Once query returns when it has read what was there.

    The error is recognised by its class and read from its parameters, not its wording: the class Spark
    reports for the cause, or, under Spark Connect where only the text of a running query's failure travels,
    the `[SPARK_DRILL_STREAM_SCHEMA_CHANGED]` tag Spark prints in front of a classed error's message.
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
            change = schema_change_of(e)
            if change is None or changes >= max_schema_changes:
                raise
            changes += 1
            if on_schema_change is not None:
                on_schema_change(change)


class SchemaChange(str):
    """What `on_schema_change` gets: the JVM's message (a str, as before, its class tag first), with the
    change's parameters as fields when the class and parameters reached Python (a classic session); under
    Spark Connect only the text of a running query's failure travels, and the fields are None."""

    file: str | None
    columns: list[str] | None
    from_version: int | None
    to_version: int | None
    location: str | None
    parameters: dict[str, str]

    def __new__(cls, message: str, parameters: dict[str, str] | None = None) -> SchemaChange:
        change = super().__new__(cls, message)
        p = dict(parameters or {})
        change.parameters = p
        change.file = p.get("file")
        change.columns = p["columns"].split(", ") if "columns" in p else None
        change.from_version = int(p["fromVersion"]) if "fromVersion" in p else None
        change.to_version = int(p["toVersion"]) if "toVersion" in p else None
        change.location = p.get("location")
        return change


def schema_change_of(error: BaseException) -> SchemaChange | None:
    """The schema change behind `error`: from the class SPARK_DRILL_STREAM_SCHEMA_CHANGED and its parameters
    (the Python exception's, or a Java cause's in a classic session); else, where only text travels (a
    running query's failure under Spark Connect, docs/errors.md), from the `[CLASS]` tag Spark prints in front
    of a classed error's message. None for any other error."""
    found = drill_error_of(error, SCHEMA_CHANGED)
    if found is not None:
        return SchemaChange(f"[{SCHEMA_CHANGED}] {found.message}", found.parameters)
    tag = f"[{SCHEMA_CHANGED}]"
    for line in str(error).splitlines():
        if tag in line:
            return SchemaChange(line[line.index(tag) :].strip())
    return None


def is_schema_change(error: BaseException) -> bool:
    """Whether `error` (or what it wraps) has the error class SPARK_DRILL_STREAM_SCHEMA_CHANGED."""
    return schema_change_of(error) is not None
