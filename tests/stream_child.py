"""A child process of the streaming crash tests (tests/test_stream_crash.py): runs drill streams, in a JVM of
its own, until it is killed or its time is up.

    python stream_child.py TRIGGER MAX_FILES SECONDS SRC CHECKPOINT OUT [SRC CHECKPOINT OUT ...]

Each SRC CHECKPOINT OUT is one query: the CSV files under SRC (header, inferred types, the schema versions
under CHECKPOINT/_schemas, `maxFilesPerTrigger=MAX_FILES`), a micro-batch every TRIGGER (a processingTime
interval such as `100 milliseconds`), into Parquet files at OUT. Prints `JVM <pid>` once the session is up,
`RUNNING <i>` once query i has started, and `FAILED <i> <error>` when a query does not start or stops with an
error (then exits 1). Exits by itself after SECONDS: a bound, the tests kill it long before.
"""

from __future__ import annotations

import sys

import spark_drill as sd


def one_line(e: object) -> str:
    return " ".join(str(e).split())


def main() -> None:
    trigger, max_files, seconds = sys.argv[1:4]
    streams = [sys.argv[i : i + 3] for i in range(4, len(sys.argv), 3)]
    spark = sd.session(
        master="local[1]",
        app_name="spark-drill-stream-child",
        **{
            "spark.ui.enabled": "false",
            "spark.ui.showConsoleProgress": "false",
            "spark.sql.shuffle.partitions": "1",
            "spark.sql.session.timeZone": "UTC",
            "spark.driver.host": "127.0.0.1",
            "spark.driver.bindAddress": "127.0.0.1",
        },
    )
    spark.sparkContext.setLogLevel("ERROR")
    print(f"JVM {spark._jvm.java.lang.ProcessHandle.current().pid()}", flush=True)
    queries = []
    for i, (src, checkpoint, out) in enumerate(streams):
        try:
            stream = (
                spark.readStream.format("drill")
                .option("header", "true")
                .option("inferTypes", "true")
                .option("schemaLocation", f"{checkpoint}/_schemas")
                .option("maxFilesPerTrigger", max_files)
                .load(src)
            )
            query = (
                stream.writeStream.format("parquet")
                .option("checkpointLocation", checkpoint)
                .trigger(processingTime=trigger)
                .start(out)
            )
        except Exception as e:
            print(f"FAILED {i} {one_line(e)}", flush=True)
            sys.exit(1)
        queries.append(query)
        print(f"RUNNING {i}", flush=True)
    try:
        spark.streams.awaitAnyTermination(float(seconds))
    except Exception as e:
        failed = [i for i, q in enumerate(queries) if q.exception() is not None]
        print(f"FAILED {failed[0] if failed else '?'} {one_line(e)}", flush=True)
        sys.exit(1)
    for query in queries:
        query.stop()
    spark.stop()


# Only as a script: pytest's --doctest-modules imports every module under tests/.
if __name__ == "__main__":
    main()
