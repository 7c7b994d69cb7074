"""Helpers of the streaming tests: writing files with a chosen modification time, running a query to its end,
and reading its progress the same way on PySpark 3.5 (dicts) and 4.x (objects)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming import StreamingQuery

# Every wait on a query is bounded: a stream that hangs fails the test instead.
QUERY_TIMEOUT_S = 180


def put(root: Path, rel: str, text: str, mtime: float | None = None) -> Path:
    """Writes a file whole (to a hidden name, then renamed, as a careful producer does) and sets its time."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.parent / f".{path.name}.tmp"
    temp.write_text(text)
    os.replace(temp, path)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def csv(header: str, *rows: str) -> str:
    return "\n".join([header, *rows]) + "\n"


def progress(query: StreamingQuery) -> list[dict[str, Any]]:
    """The query's recent progress as dicts, in batch order."""
    out = []
    for p in query.recentProgress:
        out.append(p if isinstance(p, dict) else json.loads(p.json))
    return sorted(out, key=lambda p: p["batchId"])


def batches(query: StreamingQuery) -> list[dict[str, Any]]:
    """The progress of the triggers that ran a micro-batch (rows or files), in order."""
    return [p for p in progress(query) if source_metrics(p).get("numFilesInBatch", "0") != "0"]


def source_metrics(p: dict[str, Any]) -> dict[str, str]:
    return dict(p["sources"][0].get("metrics") or {})


def available_now(
    df: DataFrame, checkpoint: Path, out: Path, fmt: str = "parquet", once: bool = False
) -> StreamingQuery:
    """Runs the stream to its end into files at `out`: Trigger.AvailableNow (or Once)."""
    writer = df.writeStream.format(fmt).option("checkpointLocation", str(checkpoint)).option("path", str(out))
    writer = writer.trigger(once=True) if once else writer.trigger(availableNow=True)
    query = writer.start()
    assert query.awaitTermination(QUERY_TIMEOUT_S), "the stream did not end"
    if query.exception() is not None:
        raise AssertionError(f"the stream failed: {query.exception()}")
    return query


def to_memory(df: DataFrame, checkpoint: Path, name: str, **options: str) -> StreamingQuery:
    """Starts the stream into a memory table `name`, triggering as fast as it can."""
    writer = df.writeStream.format("memory").queryName(name).option("checkpointLocation", str(checkpoint))
    for k, v in options.items():
        writer = writer.option(k, v)
    return writer.trigger(processingTime="100 milliseconds").start()


def wait_rows(spark: SparkSession, query: StreamingQuery, table: str, count: int) -> list[Any]:
    """Processes what is there and returns the memory table's rows once it has `count` of them."""
    deadline = time.monotonic() + QUERY_TIMEOUT_S
    while True:
        query.processAllAvailable()
        rows = spark.table(table).collect()
        if len(rows) >= count or time.monotonic() > deadline:
            return rows
        time.sleep(0.2)


def failure_of(start: Any) -> BaseException:
    """What building and starting a stream (`start()`, returning the query) raised, or the error it stopped
    with; fails when it did neither."""
    try:
        query = start()
    except Exception as e:  # the error is what is tested
        return e
    try:
        query.awaitTermination(QUERY_TIMEOUT_S)
    except Exception as e:
        return e
    raise AssertionError("the stream did not fail")
