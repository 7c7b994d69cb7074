"""The jar on a real multi-JVM standalone cluster, and no off-heap memory left behind after many queries."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pyspark

import spark_drill
from conftest import SAMPLES

SPARK_HOME = Path(pyspark.__file__).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SPARK_HOME=str(SPARK_HOME),
        PYSPARK_PYTHON=sys.executable,
        SPARK_LOCAL_IP="127.0.0.1",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
    )
    return env


APP = """
import sys
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
df = spark.read.format("drill").option("header", "true").load(sys.argv[1])
rows = sorted(tuple(r) for r in df.select("id", "user", "dir0", "filename").collect())
print("EXECUTORS", spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size())
print("RESULT", rows)
spark.stop()
"""


def _submit(tmp_path: Path, master: str) -> str:
    app = tmp_path / "app.py"
    app.write_text(APP)
    result = subprocess.run(
        [
            str(SPARK_HOME / "bin" / "spark-submit"),
            "--master",
            master,
            "--jars",
            spark_drill.jar_path(),
            "--conf",
            "spark.ui.enabled=false",
            "--conf",
            "spark.driver.host=127.0.0.1",
            "--conf",
            "spark.executor.memory=512m",
            str(app),
            str(SAMPLES),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(),
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return result.stdout


def test_standalone_cluster_matches_local_mode(tmp_path: Path) -> None:
    port = _free_port()
    master_url = f"spark://127.0.0.1:{port}"
    spark_class = str(SPARK_HOME / "bin" / "spark-class")
    logs = tmp_path / "logs"
    logs.mkdir()
    master = subprocess.Popen(
        [
            spark_class,
            "org.apache.spark.deploy.master.Master",
            *("--host", "127.0.0.1", "--port", str(port), "--webui-port", str(_free_port())),
        ],
        env=_env(),
        stdout=(logs / "master.log").open("w"),
        stderr=subprocess.STDOUT,
    )
    worker = subprocess.Popen(
        [
            spark_class,
            "org.apache.spark.deploy.worker.Worker",
            master_url,
            *("--host", "127.0.0.1", "--cores", "1", "--memory", "1g"),
            *("--webui-port", str(_free_port()), "--work-dir", str(tmp_path / "work")),
        ],
        env=_env(),
        stdout=(logs / "worker.log").open("w"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.time() + 120
        while "Successfully registered with master" not in (logs / "worker.log").read_text():
            assert time.time() < deadline, (logs / "worker.log").read_text()[-3000:]
            assert worker.poll() is None and master.poll() is None, (logs / "master.log").read_text()[-3000:]
            time.sleep(1)
        on_cluster = _submit(tmp_path, master_url)
        local = _submit(tmp_path, "local[2]")
        result = re.search(r"^RESULT (.*)$", on_cluster, re.M)
        assert result is not None, on_cluster
        assert result.group(1) == re.search(r"^RESULT (.*)$", local, re.M).group(1)  # type: ignore[union-attr]
        assert "('5', 'dee', '2025', 'events.csv')" in result.group(1)
        executors = re.search(r"^EXECUTORS (\d+)$", on_cluster, re.M)
        assert executors is not None and int(executors.group(1)) >= 2, "driver plus a worker's executor"
    finally:
        for process in (worker, master):
            process.terminate()
        for process in (worker, master):
            process.wait(timeout=60)


LEAK_APP = """
import re, subprocess, sys
import spark_drill as sd
spark = sd.session(master="local[2]", **{
    "spark.ui.enabled": "false",
    "spark.driver.extraJavaOptions": "-XX:NativeMemoryTracking=summary",
})
spark.sparkContext.setLogLevel("ERROR")
pid = spark._jvm.java.lang.ProcessHandle.current().pid()

def other_kb():
    command = ["jcmd", str(pid), "VM.native_memory", "summary"]
    out = subprocess.run(command, capture_output=True, text=True).stdout
    return int(re.search(r"Other \\(reserved=\\d+KB, committed=(\\d+)KB\\)", out).group(1))

def query(i):
    df = spark.read.format("drill").option("header", "true").load(sys.argv[1])
    assert df.where(f"n >= '{i % 7}'").count() > 0

for i in range(20):
    query(i)
baseline = other_kb()
for i in range(200):
    query(i)
after = other_kb()
print("OTHER_KB", baseline, after)
spark.stop()
"""


def test_off_heap_memory_returns_to_baseline_after_200_queries(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    for f in range(4):
        body = "".join(f"{i},{'x' * (i % 50)},{i * 7}\n" for i in range(5000))
        (data / f"part-{f}.csv").write_text("n,text,m\n" + body)
    app = tmp_path / "leak.py"
    app.write_text(LEAK_APP)
    result = subprocess.run(
        [sys.executable, str(app), str(data)], capture_output=True, text=True, timeout=600, env=_env()
    )
    assert result.returncode == 0, result.stderr[-4000:]
    found = re.search(r"OTHER_KB (\d+) (\d+)", result.stdout)
    assert found is not None, result.stdout
    baseline, after = int(found.group(1)), int(found.group(2))
    # Each query allocates several MB of vectors (4 files x 3 columns x 4096 rows); 200 leaked queries would
    # add hundreds of MB to the JVM's "Other" (Unsafe) native memory.
    assert after - baseline < 16 * 1024, f"off-heap grew from {baseline} KB to {after} KB"
