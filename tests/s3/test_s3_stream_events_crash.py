"""SPEC 11.1, exactly once with file events across crashes: a stream reading S3 file events from SQS (moto on
127.0.0.1) runs in a child process (tests/s3/events_child.py, a JVM of its own) that is killed with SIGKILL at
random moments while objects keep landing, and restarted on the same checkpoint. A kill can fall between a
micro-batch's commit and the deletion of its messages, while messages are received but not yet logged, or
while a batch is logged and not yet committed: the queue then delivers those messages again (after the
2 s visibility), and the file log must drop what was read. The stream archives each file a second after
its micro-batch committed (`cleanSource=archive`), so kills also fall in the middle of cleaning. At the end a
run in this session drains the rest: the Parquet sink must hold every row exactly once, the queue must be
empty, every file must be archived (and none before its commit), the input left empty.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from pyspark.sql import SparkSession
from test_s3_stream_events import SCHEMA, start, until

from conftest import Events, Tree, s3_jars

pytestmark = pytest.mark.slow

CHILD = Path(__file__).parent / "events_child.py"
START_TIMEOUT_S = 120
CHILD_BOUND_S = 300
KILLS = 3


def land(tree: Tree, first: int, count: int) -> None:
    """Objects in/f<k>.csv holding ids 10k, 10k+1."""
    for k in range(first, first + count):
        text = f"id,v\n{10 * k},a{k}\n{10 * k + 1},b{k}\n"
        tree.s3.put_object(Bucket=tree.bucket, Key=f"in/d{k % 2}/f{k:03}.csv", Body=text.encode())


def keys(tree: Tree, prefix: str) -> list[str]:
    found = tree.s3.list_objects_v2(Bucket=tree.bucket, Prefix=prefix).get("Contents", [])
    # S3A leaves an empty directory's marker (`in/d/`) when it moves or deletes the last object under it.
    return sorted(o["Key"] for o in found if not o["Key"].endswith("/"))


def expected(files: int) -> list[int]:
    return sorted(i for k in range(files) for i in (10 * k, 10 * k + 1))


def test_kill_9_with_file_events_at_random_moments_every_row_once_and_the_queue_drained(
    spark: SparkSession, tree: Tree, events: Events, moto_endpoint: str, tmp_path: Path
) -> None:
    seed = int(os.environ.get("SPARK_DRILL_KILL_SEED") or random.randrange(1 << 32))
    print(f"kill seed {seed} (SPARK_DRILL_KILL_SEED={seed} runs these kills again)", file=sys.stderr)
    rng = random.Random(seed)
    files = 0
    land(tree, files, 4)
    files += 4
    env = {**os.environ, "TZ": "UTC", "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable}
    for round_ in range(KILLS):
        log = tmp_path / f"child-{round_}.out"
        with log.open("w") as out:
            child = subprocess.Popen(
                [
                    sys.executable,
                    str(CHILD),
                    moto_endpoint,
                    ",".join(s3_jars()),
                    events.queue_url,
                    tree.url("in/"),
                    str(tmp_path / "chk"),
                    str(tmp_path / "out"),
                    tree.url("archive/"),
                    str(CHILD_BOUND_S),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                env=env,
            )
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while "RUNNING" not in log.read_text():
                assert child.poll() is None, f"the child exited:\n{log.read_text()[-4000:]}"
                assert time.monotonic() < deadline, "the child's query did not start"
                time.sleep(0.1)
            # Objects land while it runs; it is killed a random moment later.
            for _ in range(3):
                land(tree, files, 2)
                files += 2
                time.sleep(rng.uniform(0.2, 1.5))
            assert child.poll() is None, f"the child failed:\n{log.read_text()[-4000:]}"
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
            child.wait(timeout=30)
        time.sleep(rng.uniform(0, 0.5))
    # The drain: this session, the same checkpoint and sink, until every id is there.
    run = tmp_path
    query = start(
        spark,
        tree,
        events,
        run,
        clean_source="archive",
        clean_source_archive_dir=tree.url("archive/"),
        clean_source_retention="1s",
    )
    try:
        got = until(spark, query, run, expected(files), timeout_s=120)
        counts = Counter(got)
        duplicated = {i: c for i, c in counts.items() if c > 1}
        missing = sorted(set(expected(files)) - set(got))
        assert not duplicated and not missing, f"seed {seed}: duplicated {duplicated}, missing {missing}"
        deadline = time.monotonic() + 30
        while events.counts() != (0, 0) and time.monotonic() < deadline:
            query.processAllAvailable()
            time.sleep(0.5)
        assert events.counts() == (0, 0), f"seed {seed}: messages left on the queue {events.counts()}"
        # Cleaning finishes: every file archived under the same relative path, the input empty.
        deadline = time.monotonic() + 60
        while keys(tree, "in/") and time.monotonic() < deadline:
            query.processAllAvailable()
            time.sleep(0.5)
        assert keys(tree, "in/") == [], f"seed {seed}: not archived"
        assert keys(tree, "archive/") == sorted(f"archive/d{k % 2}/f{k:03}.csv" for k in range(files))
    finally:
        query.stop()
    state = spark.read.format("drill-state").load(str(tmp_path / "chk")).collect()
    assert len({r.path for r in state}) == files
    for r in state:
        assert r.archive_mode == "archive" and r.archive_path.endswith(r.path.split("in/", 1)[-1]), r
        assert r.commit_time is not None and r.archive_time is not None, r
        # Never before its commit, and the retention passed.
        assert (r.archive_time - r.commit_time).total_seconds() >= 1, r
    assert sorted(r.id for r in spark.read.schema(SCHEMA).parquet(str(run / "out")).collect()) == expected(
        files
    )
