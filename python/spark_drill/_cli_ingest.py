"""`spark-drill ingest`: an incremental conversion a cron job can call. A streaming query reads the files new
since the last run (the checkpoint remembers which were read) and appends them to OUT; one line per
micro-batch on stderr.

Progress is polled rather than heard through a StreamingQueryListener: a Python listener needs Py4J's callback
server on a classic session (another thread answering the JVM, which SIGINT handling would have to cover
too), and its events arrive on Spark's listener bus after the batch, so the last ones of a quick AvailableNow
run could come after `awaitTermination` returned anyway. Polling works alike on PySpark 3.5 and 4.x; the
lines are printed in batch order from `recentProgress` (which keeps the last
`spark.sql.streaming.numRecentProgressUpdates` batches, 100 by default, far more than run between two polls),
each once, and a last sweep after the query ends prints the ones it had not yet shown.
"""

from __future__ import annotations

import datetime as dt
import re
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from types import FrameType
from typing import Any, TextIO

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming.query import StreamingQuery

from spark_drill._cli_output import fit_format
from spark_drill._read_stream import read_stream
from spark_drill._run_stream import SchemaChange, run_stream

# The default schemaLocation: under the checkpoint, so one directory holds all of the stream's state.
SCHEMAS_DIR = "_schemas"
# Seconds between two looks at the query's progress (and at most between a signal and the stop).
POLL_SECONDS = 1  # an int: PySpark types awaitTermination's timeout so; it returns as soon as the query ends
_DURATION = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*")
_UNIT = {"ms": dt.timedelta(milliseconds=1), "s": dt.timedelta(seconds=1), "m": dt.timedelta(minutes=1)}
_UNIT["h"] = dt.timedelta(hours=1)


def parse_duration(text: str) -> dt.timedelta:
    """`500ms`, `5s`, `60s`, `2m`, `1h` (a positive amount) as a timedelta; ValueError otherwise."""
    found = _DURATION.fullmatch(text)
    if found is None:
        raise ValueError(f"expected a duration such as 5s, 60s, 2m or 1h, got {text!r}")
    delta = float(found.group(1)) * _UNIT[found.group(2)]
    if delta <= dt.timedelta(0):
        raise ValueError(f"expected a duration above zero, got {text!r}")
    return delta


def stream_options(opts: Mapping[str, str], checkpoint: str) -> dict[str, str]:
    """The reader options, with schemaLocation `<checkpoint>/_schemas` unless `-o schemaLocation=` gave one
    (`opts` is checked: every key is a JVM name)."""
    if "schemaLocation" in opts:
        return dict(opts)
    return {**opts, "schemaLocation": checkpoint.rstrip("/") + "/" + SCHEMAS_DIR}


def ingest(
    spark: SparkSession,
    src: str,
    out: str,
    *,
    checkpoint: str,
    to: str,
    every: dt.timedelta | None,
    opts: Mapping[str, str],
    err: TextIO | None = None,
) -> None:
    """Appends the files of `src` not yet read (by the query of `checkpoint`) to `out` in format `to`: what
    is there now (`every` None: Trigger.AvailableNow), or every `every` until SIGINT or SIGTERM, which stop
    the query cleanly. CSV gets a header line and nested values as JSON text, as `convert` writes it. Raises
    what the query failed with, after printing the lines of the batches it committed."""
    lines = BatchLines(err if err is not None else sys.stderr)

    def build() -> DataFrame:
        return read_stream(spark, src, options=stream_options(opts, checkpoint))

    def start(stream: DataFrame) -> StreamingQuery:
        writer = fit_format(stream, to).writeStream.format(to).option("checkpointLocation", checkpoint)
        if to == "csv":
            writer = writer.option("header", "true")
        if every is None:
            writer = writer.trigger(availableNow=True)
        else:
            writer = writer.trigger(processingTime=f"{every // dt.timedelta(milliseconds=1)} milliseconds")
        query = writer.start(out)
        watch(query, lines, stop)
        return query

    def changed(change: SchemaChange) -> None:
        # The JVM's message, class first; run_stream found the change by its class, not by this text.
        print(f"spark-drill: {change}", file=lines.out, flush=True)

    # Files with new columns stop the query after the batch before them, with a new schema version: the
    # stream is built again and goes on from the same checkpoint (one line on stderr per change).
    with stop_requested() as stop:
        run_stream(build, start, max_schema_changes=MAX_SCHEMA_CHANGES, on_schema_change=changed)


def watch(query: StreamingQuery, lines: BatchLines, stop: threading.Event) -> None:
    """Prints each batch's line while `query` runs, until it ends or `stop` is set (then stops it)."""
    try:
        while not stop.is_set():
            if query.awaitTermination(POLL_SECONDS):
                break  # ended (AvailableNow done); a failure raised instead
            lines.show(query)
        if stop.is_set():
            stop_between_batches(query)
    finally:
        # Batches that committed since the last poll, the quick ones of AvailableNow and those before a
        # failure included.
        lines.show_all(query.recentProgress)


# Schema changes one run goes through before it fails (each is a new version and a restart of the query).
MAX_SCHEMA_CHANGES = 100

# Seconds a stop request waits for the micro-batch under way to finish.
STOP_GRACE_SECONDS = 30


def stop_between_batches(query: StreamingQuery) -> None:
    """Stops `query` when no micro-batch is running, waiting up to STOP_GRACE_SECONDS for the current one: a
    stop interrupts the query's thread, and a file system call it interrupts may fail with an error Spark
    does not recognise as a stop (Hadoop's local file system wraps the interruption in a RuntimeException).
    A failure from before the stop still raises."""
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    while query.isActive and query.status["isTriggerActive"] and time.monotonic() < deadline:
        time.sleep(0.05)
    query.stop()
    query.awaitTermination()


class BatchLines:
    """One line per micro-batch, in batch order, none twice. Batch ids only grow within a run (a restart
    from the checkpoint goes on from the last id), so the last printed id is all there is to remember."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._last: int | None = None

    def show(self, query: StreamingQuery) -> None:
        """Prints what is new; looks at the whole recent progress only when the last batch is new."""
        last = query.lastProgress
        if last is not None and self._is_new(last):
            self.show_all(query.recentProgress)

    def show_all(self, progresses: Iterable[Mapping[str, Any]]) -> None:
        # A trigger that found nothing new may still report a progress (an AvailableNow run's last one): a
        # batch ran only where some source's offsets moved.
        for progress in sorted(progresses, key=lambda p: int(p["batchId"])):
            if self._is_new(progress) and ran_a_batch(progress):
                self._last = int(progress["batchId"])
                print(batch_line(progress), file=self.out, flush=True)

    def _is_new(self, progress: Mapping[str, Any]) -> bool:
        return self._last is None or int(progress["batchId"]) > self._last


def ran_a_batch(progress: Mapping[str, Any]) -> bool:
    """Whether the trigger read something: a source's end offset differs from its start."""
    return any(s.get("startOffset") != s.get("endOffset") for s in progress.get("sources") or [])


def batch_line(progress: Mapping[str, Any]) -> str:
    """`batch 3: 12 files, 48,210 rows, 1.9 s`: files from the source's `numFilesInBatch` metric (left out
    when the source does not report it), rows read, the trigger's wall time."""
    parts = []
    sources = progress.get("sources") or []
    metrics = (sources[0].get("metrics") or {}) if sources else {}
    if "numFilesInBatch" in metrics:
        parts.append(_count(int(metrics["numFilesInBatch"]), "file"))
    rows = progress.get("numInputRows")
    if rows is None:
        # A Spark Connect client builds the progress from its JSON, which has the rows per source only.
        rows = sum(int(source.get("numInputRows") or 0) for source in sources)
    parts.append(_count(int(rows), "row"))
    millis = (progress.get("durationMs") or {}).get("triggerExecution", 0)
    parts.append(f"{millis / 1000:.1f} s")
    return f"batch {progress['batchId']}: " + ", ".join(parts)


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


@contextmanager
def stop_requested() -> Iterator[threading.Event]:
    """An event that SIGINT and SIGTERM set (instead of ending the process), so the query can be stopped
    cleanly; the previous handlers come back afterwards. PySpark starts the JVM ignoring SIGINT, so a Ctrl-C
    on the terminal reaches only this process."""
    stop = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()

    if threading.current_thread() is not threading.main_thread():
        yield stop  # only the main thread may handle signals (a caller in a thread stops it by itself)
        return
    previous = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
