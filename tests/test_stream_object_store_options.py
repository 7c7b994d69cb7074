"""SPEC 11.1's options where no object store is needed: their errors (each with its class and the options it
names), and `allowOverwrites` on a listed local input (file events are tested on a real S3 and SQS in
tests/s3/test_s3_stream_events.py)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession

from spark_drill._errors import drill_error_of
from streams import available_now, csv, failure_of, put, source_metrics

OLD = time.time() - 3600
QUEUE = "https://sqs.us-east-1.amazonaws.com/123456789012/events"


@pytest.mark.parametrize(
    ("options", "condition", "named"),
    [
        ({"fileEvents": "sqs"}, "SPARK_DRILL_STREAM_FILE_EVENTS", "queueUrl"),
        ({"queueUrl": QUEUE}, "SPARK_DRILL_STREAM_FILE_EVENTS", "queueUrl"),
        ({"backfillInterval": "1h"}, "SPARK_DRILL_STREAM_FILE_EVENTS", "backfillInterval"),
        ({"fileEvents": "sqs", "queueUrl": "not a url"}, "SPARK_DRILL_STREAM_FILE_EVENTS", "queueUrl"),
        ({"fileEvents": "sqs", "queueUrl": QUEUE}, "SPARK_DRILL_STREAM_FILE_EVENTS", "fileEvents"),
        (
            {"fileEvents": "sqs", "queueUrl": QUEUE, "queueVisibilityTimeout": "13h"},
            "SPARK_DRILL_BAD_OPTION_VALUE",
            "queueVisibilityTimeout",
        ),
        (
            {"fileEvents": "sqs", "queueUrl": QUEUE, "backfillInterval": "0s"},
            "SPARK_DRILL_BAD_OPTION_VALUE",
            "backfillInterval",
        ),
        ({"fileEvents": "kafka", "queueUrl": QUEUE}, "SPARK_DRILL_BAD_OPTION_VALUE", "fileEvents"),
    ],
)
def test_file_event_options_that_cannot_work_fail_naming_them(
    spark: SparkSession, tmp_path: Path, options: dict[str, str], condition: str, named: str
) -> None:
    src = tmp_path / "in"
    put(src, "a.csv", csv("id", "1"), OLD)

    def start() -> Any:
        df = (
            spark.readStream.format("drill")
            .schema("id INT")
            .option("header", "true")
            .options(**options)
            .load(str(src))
        )
        return df.writeStream.format("noop").option("checkpointLocation", str(tmp_path / "chk")).start()

    found = drill_error_of(failure_of(start))
    assert found is not None, "no spark-drill error class"
    assert found.condition == condition, found.message
    assert named in found.message
    if condition == "SPARK_DRILL_STREAM_FILE_EVENTS":
        assert named in found.parameters["options"]
    if "kafka" in options.values():
        assert "off" in found.message and "sqs" in found.message
    if options.get("fileEvents") == "sqs" and options.get("queueUrl") == QUEUE and len(options) == 2:
        # A local input: bucket notifications name objects of S3 only.
        assert str(src) in found.message


def test_file_event_options_on_a_batch_read_fail_at_load(spark: SparkSession, tmp_path: Path) -> None:
    put(tmp_path / "in", "a.csv", csv("id", "1"), OLD)
    with pytest.raises(Exception) as raised:
        spark.read.format("drill").option("fileEvents", "sqs").option("queueUrl", QUEUE).load(
            str(tmp_path / "in")
        )
    found = drill_error_of(raised.value)
    assert found is not None and found.condition == "SPARK_DRILL_UNSUPPORTED_OPTION"
    assert "fileEvents" in found.message and "queueUrl" in found.message


@pytest.mark.parametrize("allow", [False, True])
def test_allow_overwrites_on_a_listed_input(spark: SparkSession, tmp_path: Path, allow: bool) -> None:
    src, chk, out = tmp_path / "in", tmp_path / "chk", tmp_path / "out"
    put(src, "a.csv", csv("id,v", "1,old"), OLD)
    put(src, "b.csv", csv("id,v", "2,b"), OLD + 1)

    def run() -> dict[str, str]:
        df = (
            spark.readStream.format("drill")
            .schema("id INT, v STRING")
            .option("header", "true")
            .option("allowOverwrites", str(allow).lower())
            .load(str(src))
        )
        query = available_now(df, chk, out)
        return source_metrics(
            query.lastProgress
            if isinstance(query.lastProgress, dict)
            else __import__("json").loads(query.lastProgress.json)
        )

    run()
    # a.csv is rewritten (new length and time); b.csv is touched to a new time only.
    put(src, "a.csv", csv("id,v", "1,new", "3,new"), OLD + 10)
    os.utime(src / "b.csv", (OLD + 11, OLD + 11))
    put(src, "c.csv", csv("id,v", "4,c"), OLD + 12)
    metrics = run()
    rows = sorted(tuple(r) for r in spark.read.parquet(str(out)).collect())
    if allow:
        assert rows == [(1, "new"), (1, "old"), (2, "b"), (2, "b"), (3, "new"), (4, "c")]
        assert metrics["numFilesReadAgain"] == "2"
        assert metrics["numFilesChangedAfterRead"] == "0"
    else:
        assert rows == [(1, "old"), (2, "b"), (4, "c")]
        assert metrics["numFilesReadAgain"] == "0"
        assert metrics["numFilesChangedAfterRead"] == "2"
    # drill-state lists a file read again once per version.
    state = spark.read.format("drill-state").load(str(chk)).where("path like '%a.csv'")
    assert state.count() == (2 if allow else 1)
