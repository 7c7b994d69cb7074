"""`format=log` (SPEC 12) through the user's doors: sd.read with its typed keywords (the SPEC's example),
spark.read with a regex, SQL, a stream of arriving log files, and the command line."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

import spark_drill as sd
from conftest import write_files
from test_cli import spark_drill

ACCESS = (
    '192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 '
    '"http://example.com/start" "Mozilla/4.08 [en] (Win98; I ;Nav)"\n'
    '192.0.2.2 - - [10/Oct/2000:13:55:37 -0700] "-" 408 - "-" "-"\n'
    "not an access log line\n"
)
APP = "2024-01-01 12:00:00 INFO [main] started\n\n2024-01-01 12:00:01 WARN [pool-1] slow: 1200 ms\n"
APP_REGEX = r"^(?<ts>\S+ \S+) (?<level>[A-Z]+) \[(?<thread>[^\]]*)\] (?<msg>.*)$"


def test_the_spec_example_typed_by_keywords(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"httpd/access.log": ACCESS})
    df = sd.read(
        spark,
        str(tmp_path / "httpd"),
        format="log",
        log_pattern="combined",
        infer_types=True,
        provided_schema="time TIMESTAMP",
        column_formats={"time": "dd/MMM/yyyy:HH:mm:ss Z"},
        column_name_of_corrupt_record="_corrupt",
    )
    types = dict(df.dtypes)
    assert types["time"] == "timestamp" and types["status"] == "int" and types["host"] == "string"
    rows = (
        df.orderBy("_line").select("host", "user", "time", "method", "status", "bytes", "_corrupt").collect()
    )
    assert [tuple(r) for r in rows] == [
        ("192.0.2.1", "frank", dt.datetime(2000, 10, 10, 20, 55, 36), "GET", 200, 2326, None),
        ("192.0.2.2", None, dt.datetime(2000, 10, 10, 20, 55, 37), None, 408, None, None),
        (None, None, None, None, None, None, "not an access log line"),
    ]


def test_a_regex_through_spark_read_and_sql_with_modes(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"app/a.log": APP + "garbage\n"})
    path = str(tmp_path / "app")
    df = spark.read.format("drill").option("format", "log").option("regex", APP_REGEX).load(path)
    assert df.columns[:4] == ["ts", "level", "thread", "msg"]
    assert df.count() == 3  # PERMISSIVE: the blank line is skipped, the unmatched one kept as nulls
    dropped = sd.read(spark, path, format="log", regex=APP_REGEX, mode="DROPMALFORMED")
    assert [r.thread for r in dropped.orderBy("_line").collect()] == ["main", "pool-1"]
    with pytest.raises(sd.ScanError) as failed:
        sd.read(spark, path, format="log", regex=APP_REGEX, mode="FAILFAST").collect()
    assert failed.value.line == 4 and "does not match the pattern" in str(failed.value)
    # SQL's drill.`path` takes no options: without a pattern, .log files are left out like any unknown suffix.
    with pytest.raises(Exception, match="no readable files") as none:
        spark.sql(f"SELECT level FROM drill.`{path}`").collect()
    assert ".log only with format log's options" in str(none.value) and "logPattern" in str(none.value)


def test_pattern_errors_before_a_job(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.log": APP})
    with pytest.raises(Exception, match="needs the option regex"):
        sd.read(spark, str(tmp_path), format="log")
    with pytest.raises(Exception, match="near index"):
        sd.read(spark, str(tmp_path), regex="(?<ts>")
    with pytest.raises(TypeError, match="log_pattern"):
        sd.read(spark, str(tmp_path), log_patern="common")  # type: ignore[call-arg]


def test_a_stream_of_arriving_logs(spark: SparkSession, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    write_files(logs, {"1.log": APP})
    stream = sd.read_stream(spark, str(logs), regex=APP_REGEX, schema_location=str(tmp_path / "schemas"))
    out = tmp_path / "out"

    def run() -> int:
        query = (
            stream.writeStream.format("parquet")
            .option("path", str(out))
            .option("checkpointLocation", str(tmp_path / "chk"))
            .trigger(availableNow=True)
            .start()
        )
        query.awaitTermination(120)
        return sum(p["numInputRows"] for p in query.recentProgress)

    assert run() == 2
    write_files(logs, {"2.log": "2024-01-02 00:00:00 ERROR [main] boom\n"})
    assert run() == 1  # the second run reads only the file that arrived
    levels = sorted(r.level for r in spark.read.parquet(str(out)).collect())
    assert levels == ["ERROR", "INFO", "WARN"]


@pytest.mark.slow
def test_the_command_line(tmp_path: Path) -> None:
    write_files(tmp_path, {"access.log": ACCESS})
    done = spark_drill(
        "sql",
        "-o",
        "logPattern=common",
        "-o",
        "mode=DROPMALFORMED",
        f"SELECT host, status FROM drill.`{tmp_path}` ORDER BY host",
        "--output",
        "json",
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    # combined lines do not match `common` as a whole: both are malformed and dropped, with the garbage.
    assert rows == []
    combined = spark_drill(
        "sql",
        "-o",
        "logPattern=combined",
        f"SELECT host, status FROM drill.`{tmp_path}` WHERE status IS NOT NULL ORDER BY host",
        "--output",
        "json",
    )
    assert combined.returncode == 0, combined.stderr
    assert [json.loads(line) for line in combined.stdout.splitlines() if line.strip()] == [
        {"host": "192.0.2.1", "status": "200"},
        {"host": "192.0.2.2", "status": "408"},
    ]
