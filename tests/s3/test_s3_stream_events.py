"""SPEC 11.1 on a real S3 and SQS (moto's server on 127.0.0.1, which sends the bucket's object-created
notifications to a queue): `fileEvents=sqs` lists the input once, at the first start, then reads only the
queue; repeated, foreign, hidden and test events read nothing twice and nothing outside the input; a lost
event is found by the backfill; `allowOverwrites` reads a rewritten object again.

LIST requests are counted by S3A's own statistics (`object_list_request` of the bucket's file system, which
the stream shares with this session through Hadoop's file system cache).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus

from pyspark.sql import SparkSession
from pyspark.sql.streaming import StreamingQuery

import spark_drill as sd
from conftest import Events, Tree
from streams import QUERY_TIMEOUT_S, progress, source_metrics

SCHEMA = "id INT, v STRING"


def body(bucket: str, key: str, size: int = 1, name: str = "ObjectCreated:Put") -> str:
    """An S3 notification as S3 sends it (its key encoded as a form value)."""
    record = {
        "eventVersion": "2.1",
        "eventSource": "aws:s3",
        "awsRegion": "us-east-1",
        "eventTime": "2026-12-02T10:00:00.000Z",
        "eventName": name,
        "s3": {"bucket": {"name": bucket}, "object": {"key": quote_plus(key), "size": size}},
    }
    return json.dumps({"Records": [record]})


def sns(message: str) -> str:
    """The same, as an SNS topic delivers it to a queue it feeds."""
    return json.dumps(
        {"Type": "Notification", "TopicArn": "arn:aws:sns:us-east-1:123456789012:t", "Message": message}
    )


def put(tree: Tree, key: str, *ids: int) -> None:
    text = "id,v\n" + "".join(f"{i},v{i}\n" for i in ids)
    tree.s3.put_object(Bucket=tree.bucket, Key=key, Body=text.encode())


def list_requests(spark: SparkSession, tree: Tree) -> int:
    """LIST requests S3A has sent to the bucket so far."""
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    path = jvm.org.apache.hadoop.fs.Path(tree.url())
    fs = path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    value = fs.getIOStatistics().counters().get("object_list_request")
    return int(value) if value is not None else 0


def start(spark: SparkSession, tree: Tree, events: Events, run: Path, **keywords: Any) -> StreamingQuery:
    """The stream of `in/` with file events, into a Parquet sink under `run` (checkpoint beside it)."""
    df = sd.read_stream(
        spark,
        tree.url("in/"),
        schema=SCHEMA,
        header=True,
        file_events="sqs",
        queue_url=events.queue_url,
        queue_visibility_timeout="2s",
        **keywords,
    )
    return (
        df.writeStream.format("parquet")
        .option("checkpointLocation", str(run / "chk"))
        .option("path", str(run / "out"))
        .trigger(processingTime="200 milliseconds")
        .start()
    )


def ids(spark: SparkSession, run: Path) -> list[int]:
    if not (run / "out" / "_spark_metadata").exists():
        return []
    return sorted(r.id for r in spark.read.schema(SCHEMA).parquet(str(run / "out")).collect())


def until(
    spark: SparkSession, query: StreamingQuery, run: Path, want: list[int], timeout_s: float = 60
) -> list[int]:
    """Processes what is there until the sink holds `want` (sorted), or the timeout passes."""
    deadline = time.monotonic() + min(timeout_s, QUERY_TIMEOUT_S)
    while True:
        query.processAllAvailable()
        got = ids(spark, run)
        if got == want or time.monotonic() > deadline:
            return got
        time.sleep(0.2)


def total(query: StreamingQuery, metric: str) -> int:
    """A metric counted since the previous progress report, over the run."""
    return sum(int(source_metrics(p).get(metric, "0")) for p in progress(query))


def newest(query: StreamingQuery, metric: str) -> int:
    """A metric counted over the run (numFilesChangedAfterRead, numFilesReadAgain): its last report."""
    return int(source_metrics(progress(query)[-1]).get(metric, "0"))


def test_after_the_first_listing_new_files_come_from_events_with_no_listing(
    spark: SparkSession, tree: Tree, events: Events, tmp_path: Path
) -> None:
    put(tree, "in/a.csv", 1, 2)
    put(tree, "in/d/b.csv", 3)
    query = start(spark, tree, events, tmp_path)
    try:
        assert until(spark, query, tmp_path, [1, 2, 3]) == [1, 2, 3]
        lists_before = list_requests(spark, tree)
        put(tree, "in/c.csv", 4)
        put(tree, "in/d/e/f.csv", 5, 6)
        assert until(spark, query, tmp_path, [1, 2, 3, 4, 5, 6]) == [1, 2, 3, 4, 5, 6]
        assert list_requests(spark, tree) == lists_before, "a trigger listed the bucket"
        metrics = [source_metrics(p) for p in progress(query)]
        assert {
            "numEventsReceived",
            "numEventsIgnored",
            "numFilesFoundByBackfill",
            "approximateQueueSize",
        } <= set(metrics[-1])
        assert total(query, "numEventsReceived") >= 4  # the test event and the four puts
        # Every message is deleted once its file's micro-batch committed.
        assert wait_for(lambda: events.counts() == (0, 0)), events.counts()
    finally:
        query.stop()


def wait_for(condition: Any, timeout_s: float = 30) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def test_repeated_foreign_hidden_test_and_wrapped_events_read_each_file_once(
    spark: SparkSession, tree: Tree, events: Events, tmp_path: Path
) -> None:
    put(tree, "in/first.csv", 1)
    query = start(spark, tree, events, tmp_path)
    try:
        assert until(spark, query, tmp_path, [1]) == [1]
        put(tree, "in/x.csv", 2)
        put(tree, "in/a b+c.csv", 3)  # a key S3 sends encoded: in%2Fa+b%2Bc.csv
        put(tree, "other/y.csv", 90)  # outside the input
        put(tree, "in/.hidden.csv", 91)
        put(tree, "in/_tmp/z.csv", 92)
        put(tree, "in/x.csv._COPYING_", 93)
        events.send(body(tree.bucket, "in/x.csv"))  # the same event again
        events.send(body(tree.bucket, "in/first.csv"))  # a late event for a file read long ago
        events.send(body(tree.bucket, "in/gone.csv"))  # an object deleted since
        events.send(json.dumps({"Service": "Amazon S3", "Event": "s3:TestEvent", "Bucket": tree.bucket}))
        events.send("not an event")
        events.send(body(tree.bucket, "in/x.csv", name="ObjectRemoved:Delete"))
        # A file only an SNS-wrapped event announces (the bucket's own notification off while it lands).
        events.notify(False)
        put(tree, "in/sns.csv", 4)
        events.notify(True)
        events.send(sns(body(tree.bucket, "in/sns.csv")))
        assert until(spark, query, tmp_path, [1, 2, 3, 4]) == [1, 2, 3, 4]
        # Nothing more comes of the rest, however long it runs.
        time.sleep(1)
        assert until(spark, query, tmp_path, [1, 2, 3, 4], timeout_s=2) == [1, 2, 3, 4]
        # other/y, .hidden, _tmp/z, ._COPYING_, gone, the two test events, "not an event", the removal.
        assert total(query, "numEventsIgnored") >= 9
        assert wait_for(lambda: events.counts() == (0, 0)), events.counts()
    finally:
        query.stop()


def test_a_lost_event_is_read_by_the_backfill(
    spark: SparkSession, tree: Tree, events: Events, tmp_path: Path
) -> None:
    put(tree, "in/a.csv", 1)
    query = start(spark, tree, events, tmp_path, backfill_interval="2s")
    try:
        assert until(spark, query, tmp_path, [1]) == [1]
    finally:
        query.stop()
    # While the stream is stopped, a file lands and its event is lost: taken off the queue and deleted.
    put(tree, "in/lost.csv", 2)
    taken = []
    for _ in range(10):
        for m in events.sqs.receive_message(QueueUrl=events.queue_url, MaxNumberOfMessages=10).get(
            "Messages", []
        ):
            events.sqs.delete_message(QueueUrl=events.queue_url, ReceiptHandle=m["ReceiptHandle"])
            taken.append(m["Body"])
    assert any("lost.csv" in b for b in taken), taken
    time.sleep(2)  # the backfill is due
    again = start(spark, tree, events, tmp_path, backfill_interval="2s")
    try:
        assert until(spark, again, tmp_path, [1, 2], timeout_s=30) == [1, 2]
        assert total(again, "numFilesFoundByBackfill") == 1
    finally:
        again.stop()


def test_no_backfill_without_backfill_interval_a_lost_event_is_not_read(
    spark: SparkSession, tree: Tree, events: Events, tmp_path: Path
) -> None:
    put(tree, "in/a.csv", 1)
    query = start(spark, tree, events, tmp_path)
    try:
        assert until(spark, query, tmp_path, [1]) == [1]
        events.notify(False)
        put(tree, "in/lost.csv", 2)
        time.sleep(3)
        assert until(spark, query, tmp_path, [1, 2], timeout_s=3) == [1]
        assert total(query, "numFilesFoundByBackfill") == 0
    finally:
        query.stop()


def test_a_restart_lists_nothing_and_reads_events_that_came_while_stopped(
    spark: SparkSession, tree: Tree, events: Events, tmp_path: Path
) -> None:
    put(tree, "in/a.csv", 1)
    query = start(spark, tree, events, tmp_path)
    try:
        assert until(spark, query, tmp_path, [1]) == [1]
    finally:
        query.stop()
    put(tree, "in/b.csv", 2)
    lists_before = list_requests(spark, tree)
    again = start(spark, tree, events, tmp_path)
    try:
        assert until(spark, again, tmp_path, [1, 2]) == [1, 2]
        assert list_requests(spark, tree) == lists_before, "the restart listed the bucket"
    finally:
        again.stop()


def test_allow_overwrites_reads_a_rewritten_object_again_else_counts_it(
    spark: SparkSession, tree: Tree, events: Events, tmp_path: Path
) -> None:
    for allow in (False, True):
        run = tmp_path / f"allow-{allow}"
        key = f"in/{allow}.csv"
        put(tree, key, 1)
        query = start(spark, tree, events, run, allow_overwrites=allow)
        try:
            assert until(spark, query, run, [1]) == [1]
            time.sleep(1.1)  # a new LastModified second
            put(tree, key, 1, 2)
            want = [1, 1, 2] if allow else [1]
            assert until(spark, query, run, want, timeout_s=60 if allow else 3) == want
            # One more file makes a micro-batch, whose progress carries the counts so far.
            put(tree, f"in/{allow}-more.csv", 7)
            assert until(spark, query, run, sorted([*want, 7])) == sorted([*want, 7])
            assert newest(query, "numFilesReadAgain") == (1 if allow else 0)
            assert newest(query, "numFilesChangedAfterRead") == (0 if allow else 1)
        finally:
            query.stop()
        for k in (key, f"in/{allow}-more.csv"):
            tree.s3.delete_object(Bucket=tree.bucket, Key=k)


def object_keys(tree: Tree, prefix: str) -> list[str]:
    found = tree.s3.list_objects_v2(Bucket=tree.bucket, Prefix=prefix).get("Contents", [])
    # S3A leaves an empty directory's marker (`in/d/`) when it moves or deletes the last object under it.
    return sorted(o["Key"] for o in found if not o["Key"].endswith("/"))


def test_clean_source_delete_removes_each_object_after_its_commit_and_the_retention(
    spark: SparkSession, tree: Tree, events: Events, tmp_path: Path
) -> None:
    put(tree, "in/a.csv", 1)
    query = start(spark, tree, events, tmp_path, clean_source="delete", clean_source_retention="1s")
    try:
        assert until(spark, query, tmp_path, [1]) == [1]
        put(tree, "in/d/b.csv", 2)
        assert until(spark, query, tmp_path, [1, 2]) == [1, 2]
        deadline = time.monotonic() + 30
        while object_keys(tree, "in/") and time.monotonic() < deadline:
            query.processAllAvailable()
            time.sleep(0.3)
        assert object_keys(tree, "in/") == []
    finally:
        query.stop()
    state = spark.read.format("drill-state").load(str(tmp_path / "chk")).collect()
    assert sorted(r.path for r in state) == [tree.url("in/a.csv"), tree.url("in/d/b.csv")]
    for r in state:
        assert r.archive_mode == "delete" and r.archive_path is None, r
        assert (r.archive_time - r.commit_time).total_seconds() >= 1, r
        assert r.discovery_time is not None and r.discovery_time <= r.readAt, r


def test_an_archive_directory_under_the_input_is_refused_at_start(
    spark: SparkSession, tree: Tree, events: Events, tmp_path: Path
) -> None:
    from spark_drill._errors import drill_error_of

    put(tree, "in/a.csv", 1)
    query = None
    try:
        query = start(
            spark,
            tree,
            events,
            tmp_path,
            clean_source="archive",
            clean_source_archive_dir=tree.url("in/archive/"),
        )
        query.awaitTermination(QUERY_TIMEOUT_S)
        raise AssertionError("the stream did not fail")
    except Exception as e:
        found = drill_error_of(e)
        assert found is not None and found.condition == "SPARK_DRILL_STREAM_ARCHIVE_DIR_INSIDE", e
        assert tree.url("in/archive") in found.message and tree.url("in") in found.message
    finally:
        if query is not None:
            query.stop()
    assert object_keys(tree, "in/") == ["in/a.csv"]
