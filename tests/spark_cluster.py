"""A standalone Spark cluster on 127.0.0.1 for the tests (a master and workers, each a JVM of its own,
started from the wheel's PySpark), and spark-submit against it. Every wait is bounded; every server stops on
leaving."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pyspark

import spark_drill

SPARK_HOME = Path(pyspark.__file__).parent
START_TIMEOUT_S = 120  # the master up and every worker registered with it
SUBMIT_TIMEOUT_S = 300  # one spark-submit application, start to end


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spark_env() -> dict[str, str]:
    """The environment of the JVMs and Pythons the tests start: this venv's Python, Spark on 127.0.0.1."""
    env = dict(os.environ)
    env.update(
        SPARK_HOME=str(SPARK_HOME),
        PYSPARK_PYTHON=sys.executable,
        SPARK_LOCAL_IP="127.0.0.1",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
    )
    return env


@dataclass
class Worker:
    process: subprocess.Popen[bytes]  # the worker's JVM (spark-class execs java)
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid


@dataclass
class Cluster:
    master_url: str
    workers: list[Worker]


@contextlib.contextmanager
def standalone_cluster(tmp_path: Path, workers: int = 1) -> Iterator[Cluster]:
    """A master and `workers` workers (1 core, 1 GiB each, each its own JVM) on 127.0.0.1, every worker
    registered; on leaving, every server started here is stopped, and whatever a killed worker left behind."""
    port = free_port()
    master_url = f"spark://127.0.0.1:{port}"
    spark_class = str(SPARK_HOME / "bin" / "spark-class")
    logs = tmp_path / "logs"
    logs.mkdir()
    started: list[subprocess.Popen[bytes]] = []
    descendants: set[int] = set()
    try:
        master = subprocess.Popen(
            [
                spark_class,
                "org.apache.spark.deploy.master.Master",
                *("--host", "127.0.0.1", "--port", str(port), "--webui-port", str(free_port())),
            ],
            env=spark_env(),
            stdout=(logs / "master.log").open("w"),
            stderr=subprocess.STDOUT,
        )
        started.append(master)
        cluster = Cluster(master_url, [])
        for n in range(workers):
            log = logs / f"worker-{n}.log"
            process = subprocess.Popen(
                [
                    spark_class,
                    "org.apache.spark.deploy.worker.Worker",
                    master_url,
                    *("--host", "127.0.0.1", "--cores", "1", "--memory", "1g"),
                    *("--webui-port", str(free_port()), "--work-dir", str(tmp_path / f"work-{n}")),
                ],
                env=spark_env(),
                stdout=log.open("w"),
                stderr=subprocess.STDOUT,
            )
            started.append(process)
            cluster.workers.append(Worker(process, log))
        deadline = time.monotonic() + START_TIMEOUT_S
        for worker in cluster.workers:
            while "Successfully registered with master" not in worker.log.read_text():
                assert time.monotonic() < deadline, worker.log.read_text()[-3000:]
                assert worker.process.poll() is None and master.poll() is None, (
                    logs / "master.log"
                ).read_text()[-3000:] + worker.log.read_text()[-3000:]
                time.sleep(0.5)
        yield cluster
    finally:
        # The executors a worker started (and their Python workers), so that none outlives the test even when
        # its worker was killed and could not stop them.
        for process in started[1:]:
            descendants |= set(process_tree(process.pid)) - {process.pid}
        for process in reversed(started):
            process.terminate()
        for process in reversed(started):
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)
        for pid in descendants:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def submit_command(master: str, app: Path, *args: str) -> list[str]:
    """spark-submit of the Python application `app` with the jar, its driver on 127.0.0.1."""
    confs = [
        "spark.ui.enabled=false",
        "spark.ui.showConsoleProgress=false",
        "spark.driver.host=127.0.0.1",
        "spark.executor.memory=512m",
    ]
    return [
        str(SPARK_HOME / "bin" / "spark-submit"),
        *("--master", master, "--jars", spark_drill.jar_path()),
        *(a for c in confs for a in ("--conf", c)),
        str(app),
        *args,
    ]


def submit(tmp_path: Path, master: str, app_text: str, *args: str) -> str:
    """Runs the application `app_text` to its end (bounded); returns its output, stdout then stderr."""
    app = tmp_path / "app.py"
    app.write_text(app_text)
    result = subprocess.run(
        submit_command(master, app, *args),
        capture_output=True,
        text=True,
        timeout=SUBMIT_TIMEOUT_S,
        env=spark_env(),
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    return result.stdout + result.stderr


def parent(pid: int) -> int | None:
    """A live process's parent pid, None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def ancestors(pid: int) -> list[int]:
    """`pid` and its ancestors up to PID 1, nearest first."""
    chain = []
    current: int | None = pid
    while current and current not in chain:
        chain.append(current)
        current = parent(current)
    return chain


def process_tree(root: int) -> list[int]:
    """`root` and every live process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            ppid = parent(int(entry))
            if ppid is not None:
                children.setdefault(ppid, []).append(int(entry))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree
