"""Spark Declarative Pipelines (PySpark 4.1+): a streaming table over `spark.readStream.format("drill")` and a
materialized view over `spark.read.format("drill")`, run by the `spark-pipelines` CLI (docs/streaming.md,
"Spark Declarative Pipelines").

Each `spark-pipelines run` is a process of its own: PySpark starts a local Spark Connect server (a JVM, on
127.0.0.1:15002) for it and stops it at the end. The jar and the static settings reach that server through
PYSPARK_SUBMIT_ARGS, the arguments PySpark gives the server's spark-submit; the spec's `configuration:` cannot
carry them (every entry is also set as a SQL conf on each flow, and a static one fails the flow). Tables live
in a Hive metastore (Derby) under tmp_path so the second run finds the first run's tables: with the default
in-memory catalog the second run fails with LOCATION_ALREADY_EXISTS.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyspark
import pytest
from pyspark.sql import SparkSession

from spark_drill import _jar
from streams import csv, put

if tuple(int(p) for p in pyspark.__version__.split(".")[:2]) < (4, 1):
    pytest.skip("Spark Declarative Pipelines need PySpark 4.1 or later", allow_module_level=True)
pytest.importorskip("pyspark.pipelines")
pytest.importorskip("yaml")  # the spark-pipelines CLI reads the spec with PyYAML

pytestmark = [pytest.mark.connect, pytest.mark.slow]

RUN_TIMEOUT_S = 300
OLD = time.time() - 3600

SPEC = """\
name: drill_landing
storage: {storage}
libraries:
  - glob:
      include: transformations/**
"""

FLOWS = """\
from pyspark import pipelines as dp
from pyspark.sql import SparkSession

spark = SparkSession.active()  # the CLI defines `spark` itself from PySpark 4.2 on, not on 4.1
LANDING = {landing!r}


@dp.table
def events():
    return (
        spark.readStream.format("drill")
        .option("header", "true")
        .option("inferTypes", "true")
        .option("schemaLocation", {schemas!r})
        .load(LANDING)
    )


@dp.materialized_view
def events_snapshot():
    return spark.read.format("drill").option("header", "true").option("inferTypes", "true").load(LANDING)
"""


def project(root: Path) -> Path:
    """A pipeline project: its spec and one Python file with a streaming table and a materialized view."""
    (root / "transformations").mkdir(parents=True)
    (root / "spark-pipeline.yml").write_text(SPEC.format(storage=(root / "storage").as_uri()))
    (root / "transformations" / "drill_flows.py").write_text(
        FLOWS.format(landing=str(root / "landing"), schemas=str(root / "schemas"))
    )
    return root


def server_args(root: Path) -> str:
    """PYSPARK_SUBMIT_ARGS for the Connect server: the jar on its classpath, a Hive metastore under root."""
    jar = _jar.jar_path()
    metastore = f"jdbc:derby:;databaseName={root / 'metastore_db'};create=true"
    args = ["--jars", jar, "--driver-class-path", jar]
    for key, value in {
        "spark.ui.enabled": "false",
        "spark.sql.session.timeZone": "UTC",
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.connect.grpc.binding.address": "127.0.0.1",
        "spark.sql.catalogImplementation": "hive",
        "spark.sql.warehouse.dir": str(root / "warehouse"),
        "spark.hadoop.javax.jdo.option.ConnectionURL": metastore,
    }.items():
        args += ["--conf", f"{key}={value}"]
    args += ["--driver-java-options", f"-Dderby.system.home={root}"]  # derby.log
    return shlex.join([*args, "pyspark-shell"])


def run_pipeline(root: Path) -> tuple[int, str]:
    """`spark-pipelines run` in root; its exit status and its output (stdout and stderr). The CLI, its Python
    and the server's JVM are one process group, killed whole should a run outlast RUN_TIMEOUT_S."""
    home = _jar._spark_home()
    assert home is not None, "no SPARK_HOME and no PySpark installation"
    env = {
        **os.environ,
        "SPARK_HOME": str(home),
        "PYSPARK_PYTHON": sys.executable,
        "PYSPARK_DRIVER_PYTHON": sys.executable,
        "PYSPARK_SUBMIT_ARGS": server_args(root),
        "SPARK_LOCAL_IP": "127.0.0.1",
        "TZ": "UTC",
    }
    cli = home / "bin" / "spark-pipelines"
    proc = subprocess.Popen(
        [str(cli), "run", "--spec", str(root / "spark-pipeline.yml")],
        cwd=root,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
        pytest.fail(f"spark-pipelines run took over {RUN_TIMEOUT_S} s\n{out[-5000:]}")
    return proc.returncode, out


def rows(spark: SparkSession, table_dir: Path) -> list[tuple]:
    """A table's rows, read from its Parquet files (a streaming table's through the sink's own log, so only
    committed files), columns in table order."""
    df = spark.read.option("mergeSchema", "true").parquet(str(table_dir))
    return sorted((tuple(r) for r in df.collect()), key=lambda r: r[0])


def test_a_streaming_table_and_a_materialized_view_over_drill(spark: SparkSession, tmp_path: Path) -> None:
    root = project(tmp_path / "pipeline")
    landing, warehouse = root / "landing", root / "warehouse"
    events, snapshot = warehouse / "events", warehouse / "events_snapshot"

    put(landing, "mon.csv", csv("id,amount", "1,10", "2,20"), OLD)
    status, out = run_pipeline(root)
    assert status == 0, out[-5000:]
    assert rows(spark, events) == [(1, 10), (2, 20)]
    assert rows(spark, snapshot) == [(1, 10), (2, 20)]

    # The second run reads only the file new since the first: each file's rows once.
    put(landing, "tue.csv", csv("id,amount", "3,30"), OLD + 1)
    status, out = run_pipeline(root)
    assert status == 0, out[-5000:]
    assert rows(spark, events) == [(1, 10), (2, 20), (3, 30)]
    assert rows(spark, snapshot) == [(1, 10), (2, 20), (3, 30)]

    # A file with a new column: the stream writes schema version 1 and stops with SCHEMA_CHANGED before
    # reading it. SDP restarts the flow from the DataFrame it analysed at the start of the run (version 0),
    # which the source refuses as stale, so this run fails; no row of wed.csv is written. The materialized
    # view, a batch read, has the column at once.
    put(landing, "wed.csv", csv("id,amount,currency", "4,40,EUR"), OLD + 2)
    status, out = run_pipeline(root)
    assert status != 0, out[-5000:]
    assert "[SPARK_DRILL_STREAM_SCHEMA_CHANGED]" in out and "[SPARK_DRILL_STREAM_STALE_SCHEMA]" in out
    assert sorted(p.name for p in (root / "schemas").glob("*.json")) == ["0.json", "1.json"]
    assert rows(spark, events) == [(1, 10), (2, 20), (3, 30)]
    assert rows(spark, snapshot) == [(1, 10, None), (2, 20, None), (3, 30, None), (4, 40, "EUR")]

    # The next run builds the DataFrame again, on version 1: SDP adds the column to the table and the stream
    # goes on from wed.csv.
    status, out = run_pipeline(root)
    assert status == 0, out[-5000:]
    assert rows(spark, events) == [(1, 10, None), (2, 20, None), (3, 30, None), (4, 40, "EUR")]
    merged = spark.read.option("mergeSchema", "true").parquet(str(events))
    assert merged.columns == ["id", "amount", "currency"]
