"""A child process of tests/s3/test_s3_stream_events_crash.py: runs one drill stream with S3 file events, in
a JVM of its own, until it is killed or its time is up.

    python events_child.py ENDPOINT JARS QUEUE_URL INPUT CHECKPOINT OUT ARCHIVE SECONDS

The stream reads the CSV objects under INPUT (an s3a:// URL; schema `id INT, v STRING`, header) with
`fileEvents=sqs` from QUEUE_URL (visibility 2 s, so a killed run's messages come back fast), two files per
micro-batch, into Parquet files at OUT, a micro-batch every 100 ms; each file is archived under ARCHIVE one
second after its micro-batch committed (`cleanSource=archive`). S3A and SQS are reached at ENDPOINT (moto);
JARS is the S3A classpath. Prints `RUNNING` once the query has started and `FAILED <error>` when it does not
start or stops with an error (then exits 1). Exits by itself after SECONDS: a bound, the test kills it sooner.
"""

from __future__ import annotations

import os
import sys

import spark_drill as sd

sys.path.insert(0, os.path.dirname(__file__))
from conftest import s3a_settings


def one_line(e: object) -> str:
    return " ".join(str(e).split())


def main() -> None:
    endpoint, jars, queue_url, src, checkpoint, out, archive, seconds = sys.argv[1:9]
    spark = sd.session(
        master="local[1]",
        app_name="spark-drill-events-child",
        **{
            "spark.jars": jars,
            "spark.ui.enabled": "false",
            "spark.ui.showConsoleProgress": "false",
            "spark.sql.shuffle.partitions": "1",
            "spark.sql.session.timeZone": "UTC",
            "spark.driver.host": "127.0.0.1",
            "spark.driver.bindAddress": "127.0.0.1",
            **s3a_settings(endpoint),
        },
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        stream = sd.read_stream(
            spark,
            src,
            schema="id INT, v STRING",
            header=True,
            file_events="sqs",
            queue_url=queue_url,
            queue_visibility_timeout="2s",
            max_files_per_trigger=2,
            clean_source="archive",
            clean_source_archive_dir=archive,
            clean_source_retention="1s",
        )
        query = (
            stream.writeStream.format("parquet")
            .option("checkpointLocation", checkpoint)
            .trigger(processingTime="100 milliseconds")
            .start(out)
        )
    except Exception as e:
        print(f"FAILED {one_line(e)}", flush=True)
        sys.exit(1)
    print("RUNNING", flush=True)
    try:
        query.awaitTermination(float(seconds))
    except Exception as e:
        print(f"FAILED {one_line(e)}", flush=True)
        sys.exit(1)
    query.stop()
    spark.stop()


# Only as a script: pytest's --doctest-modules imports every module under tests/.
if __name__ == "__main__":
    main()
