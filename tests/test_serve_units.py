"""The parts of the CLI's local server that need no Spark: paths sent absolute and named back as given, which
commands need a session of their own, the record's mismatch message (tests/test_serve.py runs the server)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pyspark
import pytest

from spark_drill import _serve_client, _serve_state


def test_relative_paths_go_absolute_and_uris_stay() -> None:
    assert _serve_client.absolute("samples/logs", "/home/u") == "/home/u/samples/logs"
    assert _serve_client.absolute("/data/x", "/home/u") == "/data/x"
    assert _serve_client.absolute("s3a://bucket/logs", "/home/u") == "s3a://bucket/logs"
    assert _serve_client.absolute("file:/data/x", "/home/u") == "file:/data/x"
    query = "SELECT * FROM drill.`logs/a``b` JOIN Drill . `/abs` JOIN drill.`s3a://b/k` JOIN other.`rel`"
    assert _serve_client.absolute_query(query, "/w") == (
        "SELECT * FROM drill.`/w/logs/a``b` JOIN Drill . `/abs` JOIN drill.`s3a://b/k` JOIN other.`rel`"
    )


def test_an_error_names_the_paths_as_given() -> None:
    args = argparse.Namespace(path="bad", out=None, query=None)
    opts, given = _serve_client.for_server(args, {"header": "true", "schemaLocation": "chk"}, "/w")
    assert args.path == "/w/bad" and opts == {"header": "true", "schemaLocation": "/w/chk"}
    assert given == {"/w/bad": "bad", "/w/chk": "chk"}
    line = "spark-drill: path does not exist: /w/bad (option ...); file /w/bad/bad.csv, /w/badder"
    assert _serve_client.as_given(line, given) == (
        "spark-drill: path does not exist: bad (option ...); file /w/bad/bad.csv, /w/badder"
    )
    args = argparse.Namespace(path=None, query="SELECT * FROM drill.`nope`")
    _, given = _serve_client.for_server(args, {}, "/w")
    assert args.query == "SELECT * FROM drill.`/w/nope`" and given == {"/w/nope": "nope"}


def settings(**changes: object) -> argparse.Namespace:
    base: dict[str, object] = {"jars": [], "master": "local[*]", "conf": [], "verbose": 0}
    return argparse.Namespace(**{**base, **changes})


def test_what_needs_a_session_of_its_own() -> None:
    assert _serve_client.own_session_reason(settings()) is None
    assert _serve_client.own_session_reason(settings(conf=[("spark.sql.shuffle.partitions", "4")])) is None
    assert _serve_client.own_session_reason(settings(jars=["p.jar"])) == (
        "--jars adds to the classpath of a session that starts"
    )
    assert _serve_client.own_session_reason(settings(master="local[2]")) is not None
    assert _serve_client.own_session_reason(settings(conf=[("spark.driver.memory", "4g")])) == (
        "--conf spark.driver.memory is read when a session starts"
    )
    assert _serve_client.own_session_reason(settings(conf=[("spark.sql.extensions", "x")])) is not None
    assert _serve_client.own_session_reason(settings(verbose=2)) is not None


def test_a_server_of_another_version_or_spark_line_is_not_used() -> None:
    info = _serve_state.ServerInfo(
        pid=12,
        pid_start=3,
        port=4567,
        token="t",
        version="0.1.0",
        spark="4.3.0",
        jar="j",
        started=0.0,
        idle_seconds=60.0,
    )
    assert _serve_state.mismatch(info, "0.1.0", "4.3.1") is None
    assert _serve_state.mismatch(info, "0.1.0", "4.2.0") == (
        "spark-drill: not using the server of spark-drill 0.1.0 on Spark 4.3.0 (pid 12, port 4567): this is "
        "spark-drill 0.1.0 on Spark 4.2.0; stop it with `spark-drill serve stop` (or `kill 12`)"
    )
    assert _serve_state.mismatch(info, "0.2.0", "4.3.0") is not None
    assert info.url() == "sc://localhost:4567/;token=t"


@pytest.mark.skipif(int(pyspark.__version__.split(".")[0]) >= 4, reason="PySpark 4 has a Connect server")
def test_serve_on_pyspark_35_refuses_naming_pyspark_4(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(Path(sys.executable).with_name("spark-drill")), "serve", "start"],
        capture_output=True,
        timeout=120,
        env={**os.environ, "SPARK_DRILL_SERVER_DIR": str(tmp_path)},
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    assert f"the local server needs PySpark 4 (this is {pyspark.__version__})" in done.stderr.decode()
