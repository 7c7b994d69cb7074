"""`spark-drill serve` and `--server` (SPEC 15): a real local Spark Connect server on 127.0.0.1, started and
stopped here.

Every server of this file keeps its record in a directory of its own (SPARK_DRILL_SERVER_DIR), so no test
touches the user's server nor another test file's; each server picks a free port itself. Every wait is
bounded.
The CLI runs as the `spark-drill` command of this virtualenv, in a child process, as a user runs it.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyspark
import pytest

from conftest import REPO, SAMPLES, write_files
from spark_drill import __version__, _serve_state

# PySpark 3.5 has no Connect server to start: `serve` refuses there (tests/test_serve_units.py).
pytestmark = [
    pytest.mark.connect,
    pytest.mark.skipif(int(pyspark.__version__.split(".")[0]) < 4, reason="the local server needs PySpark 4"),
]

CLI = str(Path(sys.executable).with_name("spark-drill"))
# A JVM and a Spark session on a busy 2-core machine: generous, never unbounded.
RUN_TIMEOUT = 300
AGGREGATE = (
    "SELECT dir0, count(*) AS events, sum(duration_ms) AS total_ms FROM drill.`samples/logs` "
    "GROUP BY dir0 ORDER BY dir0"
)


def env_for(server_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "TZ": "UTC",
        "SPARK_DRILL_SERVER_DIR": str(server_dir),
        "SPARK_LOCAL_IP": "127.0.0.1",
    }


def cli(server_dir: Path, *args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [CLI, *args],
        capture_output=True,
        timeout=RUN_TIMEOUT,
        env=env_for(server_dir),
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )


def record(server_dir: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((server_dir / _serve_state.FILE_NAME).read_text())
    return data


def wait_gone(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if _serve_state.process_start(pid) is None:
            return True
        time.sleep(0.2)
    return False


def stop_for_good(server_dir: Path) -> None:
    """Teardown: `serve stop`, and a SIGKILL should the process still run (a failed test must not leave a
    JVM behind)."""
    path = server_dir / _serve_state.FILE_NAME
    data = json.loads(path.read_text()) if path.exists() else None
    cli(server_dir, "serve", "stop")
    if data is not None and not wait_gone(int(data["pid"]), 30):
        os.kill(int(data["pid"]), 9)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A server for this file's tests (its record's directory)."""
    server_dir = tmp_path_factory.mktemp("server")
    started = cli(server_dir, "serve", "start", "--idle", "20m")
    assert started.returncode == 0, started.stderr.decode()[-3000:]
    assert started.stdout.decode().startswith("started at 127.0.0.1:")
    yield server_dir
    stop_for_good(server_dir)


def test_start_and_status(server: Path) -> None:
    data = record(server)
    again = cli(server, "serve", "start")
    assert again.returncode == 0 and again.stdout.decode() == (
        f"already running at 127.0.0.1:{data['port']} (pid {data['pid']})\n"
    )
    status = cli(server, "serve", "status")
    assert status.returncode == 0, status.stderr.decode()
    lines = status.stdout.decode().splitlines()
    assert lines[0] == f"running at 127.0.0.1:{data['port']}"
    assert lines[1] == f"pid      {data['pid']}"
    assert lines[2].startswith("uptime   0:")
    assert lines[3] == "idle     stops after 0:20:00 without a request"
    assert lines[4].startswith(f"version  spark-drill {__version__}, Spark 4.")
    assert lines[5].startswith("jar      ") and lines[5].endswith(".jar")
    assert status.stderr == b""


def test_the_record_is_private(server: Path) -> None:
    assert stat.S_IMODE(os.stat(server).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(server / _serve_state.FILE_NAME).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(server / _serve_state.LOG_NAME).st_mode) == 0o600
    data = record(server)
    assert len(str(data["token"])) >= 40
    # The token is not on the server's command line (which every user's `ps` shows).
    cmdline = Path(f"/proc/{data['pid']}/cmdline").read_bytes()
    assert str(data["token"]).encode() not in cmdline


def test_the_record_lives_in_the_runtime_or_cache_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(_serve_state.DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert _serve_state.state_file() == tmp_path / "spark-drill" / "server.json"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setenv("SPARK_DRILL_CACHE", str(tmp_path / "cache"))
    assert _serve_state.state_file() == tmp_path / "cache" / "server" / "server.json"
    monkeypatch.setenv(_serve_state.DIR_ENV, str(tmp_path / "mine"))
    assert _serve_state.state_file() == tmp_path / "mine" / "server.json"


def both_ways(server: Path, *args: str, cwd: Path = REPO) -> tuple[subprocess.CompletedProcess[bytes], ...]:
    """The command through the server (--server start: the server runs, so it is used, never started) and
    in a session of its own."""
    through = cli(server, *args, "--server", "start", cwd=cwd)
    alone = cli(server, *args, "--server", "off", cwd=cwd)
    return through, alone


@pytest.mark.parametrize(
    "args",
    [
        ("show", "samples/logs", "-o", "header=true", "-o", "inferTypes=true"),
        ("schema", "samples/logs", "-o", "header=true"),
        ("describe", "samples/logs", "-o", "header=true", "--output", "csv"),
        ("sql", "-o", "header=true", "-o", "inferTypes=true", AGGREGATE),
        (
            "sql",
            "-o",
            "header=true",
            "SELECT user, count(*) AS n FROM drill.`samples/logs` GROUP BY user ORDER BY user",
            "--output",
            "json",
        ),
        ("show", "samples/events", "--output", "json"),
    ],
    ids=["show", "schema", "describe-csv", "sql", "sql-json", "show-json"],
)
def test_a_command_prints_the_same_bytes_either_way(server: Path, args: tuple[str, ...]) -> None:
    through, alone = both_ways(server, *args)
    assert alone.returncode == 0, alone.stderr.decode()[-3000:]
    assert (through.returncode, through.stdout, through.stderr) == (
        alone.returncode,
        alone.stdout,
        alone.stderr,
    )


def test_errors_are_the_same_line_and_exit_status_either_way(server: Path, tmp_path: Path) -> None:
    write_files(tmp_path, {"bad/bad.csv": 'id,name\n1,ann\n"it\'s (odd)",fred\n'})
    failfast = ("show", "bad", "-o", "header=true", "-o", "providedSchema=id INT", "-o", "mode=FAILFAST")
    through, alone = both_ways(server, *failfast, cwd=tmp_path)
    assert alone.returncode == 1 and alone.stderr.decode().startswith("spark-drill: cannot convert the value")
    assert (through.returncode, through.stdout, through.stderr) == (
        alone.returncode,
        alone.stdout,
        alone.stderr,
    )
    # A key no format knows: a usage error (exit 2) either way, named by the JVM's option table.
    through, alone = both_ways(server, "show", "bad", "-o", "headr=true", cwd=tmp_path)
    assert alone.returncode == 2 and b"did you mean header?" in alone.stderr
    assert (through.returncode, through.stdout, through.stderr) == (
        alone.returncode,
        alone.stdout,
        alone.stderr,
    )
    # Paths go to the server absolute; the error names them as given.
    for args in (("schema", "missing dir"), ("sql", "SELECT * FROM drill.`nope`")):
        through, alone = both_ways(server, *args, cwd=tmp_path)
        assert alone.returncode == 1 and alone.stderr.count(b"\n") == 1
        assert (through.returncode, through.stdout, through.stderr) == (
            alone.returncode,
            alone.stdout,
            alone.stderr,
        )


def part_lines(directory: Path, suffix: str) -> list[str]:
    return sorted(
        line
        for part in directory.rglob(f"*{suffix}")
        for line in part.read_text().splitlines()
        if line.strip()
    )


def test_convert_writes_the_same_files_either_way(server: Path, tmp_path: Path) -> None:
    args = ("convert", str(SAMPLES), "--to", "csv", "-o", "header=true", "-o", "inferTypes=true")
    through = cli(server, *args[:2], "through", *args[2:], "--server", "start", cwd=tmp_path)
    alone = cli(server, *args[:2], "alone", *args[2:], "--server", "off", cwd=tmp_path)
    assert alone.returncode == 0, alone.stderr.decode()[-3000:]
    assert (through.returncode, through.stdout, through.stderr) == (
        alone.returncode,
        alone.stdout,
        alone.stderr,
    )
    assert part_lines(tmp_path / "through", ".csv") == part_lines(tmp_path / "alone", ".csv")
    assert len(part_lines(tmp_path / "alone", ".csv")) > 6


def test_ingest_appends_the_same_rows_either_way(server: Path, tmp_path: Path) -> None:
    shutil.copytree(SAMPLES, tmp_path / "landing")
    runs = {}
    for way in ("start", "off"):
        runs[way] = cli(
            server,
            "ingest",
            "landing",
            f"out-{way}",
            "--checkpoint",
            f"chk-{way}",
            "--to",
            "json",
            "-o",
            "header=true",
            "-o",
            "maxFilesPerTrigger=2",
            "--server",
            way,
            cwd=tmp_path,
        )
    through, alone = runs["start"], runs["off"]
    assert alone.returncode == 0, alone.stderr.decode()[-3000:]

    # One line per micro-batch, with its wall time: the same lines but for the times.
    def untimed(err: bytes) -> list[str]:
        return [line.rsplit(",", 1)[0] for line in err.decode().splitlines()]

    assert (through.returncode, through.stdout) == (alone.returncode, alone.stdout)
    assert (
        untimed(through.stderr)
        == untimed(alone.stderr)
        == ["batch 0: 2 files, 4 rows", "batch 1: 2 files, 2 rows"]
    )
    assert part_lines(tmp_path / "out-start", ".json") == part_lines(tmp_path / "out-off", ".json")


def test_verbose_says_which_way_it_ran(server: Path, tmp_path: Path) -> None:
    data = record(server)
    done = cli(server, "schema", str(SAMPLES), "-v")
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert done.stderr.decode().splitlines()[0] == (
        f"spark-drill: running through the server at 127.0.0.1:{data['port']} (pid {data['pid']})"
    )
    # --jars needs a session that starts: --server start says so, and how.
    jar = tmp_path / "plugin.jar"
    jar.write_bytes(b"")
    refused = cli(server, "schema", str(SAMPLES), "--jars", str(jar), "--server", "start")
    assert refused.returncode == 2
    assert (
        refused.stderr.decode()
        .splitlines()[-1]
        .endswith(
            "error: --jars adds to the classpath of a session that starts, so this command cannot run "
            "through the server; use --server off"
        )
    )


def test_two_calls_at_once_are_both_answered(server: Path) -> None:
    query = ("sql", "-o", "header=true", "-o", "inferTypes=true", AGGREGATE, "--server", "start")
    schema = ("schema", "samples/logs", "-o", "header=true", "--server", "start")
    with ThreadPoolExecutor(max_workers=2) as pool:
        first, second = pool.map(lambda args: cli(server, *args), [query, schema])
    assert first.returncode == 0 and second.returncode == 0, (first.stderr, second.stderr)
    assert first.stdout.decode().splitlines()[3] == "|NULL|1     |NULL    |"
    assert second.stdout.decode().splitlines()[3].startswith("|id ")


CLIENT = r"""
import sys
from pyspark.sql import SparkSession

url = sys.argv[1]
try:
    SparkSession.builder.remote(url).getOrCreate().range(1).collect()
    print("ANSWERED")
except Exception as e:
    print("REFUSED " + type(e).__name__ + " " + str(e).splitlines()[0][:300])
"""


def test_a_connection_without_the_token_is_refused(server: Path, tmp_path: Path) -> None:
    data = record(server)
    script = tmp_path / "client.py"
    script.write_text(CLIENT)
    port, token = data["port"], data["token"]
    for url in (f"sc://localhost:{port}", f"sc://localhost:{port}/;token=wrong{token}"):
        done = subprocess.run(
            [sys.executable, str(script), url],
            capture_output=True,
            text=True,
            timeout=180,
            stdin=subprocess.DEVNULL,
        )
        assert done.stdout.startswith("REFUSED"), (url, done.stdout, done.stderr[-2000:])
    done = subprocess.run(
        [sys.executable, str(script), f"sc://localhost:{port}/;token={token}"],
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )
    assert done.stdout.strip() == "ANSWERED", done.stderr[-2000:]


NOTEBOOK = r"""
import spark_drill as sd

spark = sd.session(server=True)
print(type(spark).__module__)
rows = spark.sql("SELECT count(*) AS n FROM drill.`" + sys.argv[1] + "`").collect()
print(rows[0].n)
try:
    sd.register_column_parser(spark, sd.ColumnParser())
except RuntimeError as e:
    print(e)
spark.stop()
"""


def test_sd_session_with_server_uses_the_same_server(server: Path, tmp_path: Path) -> None:
    script = tmp_path / "notebook.py"
    script.write_text("import sys\n" + NOTEBOOK)
    done = subprocess.run(
        [sys.executable, str(script), str(REPO / "samples" / "events")],
        capture_output=True,
        text=True,
        timeout=180,
        env=env_for(server),
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("pyspark.sql.connect.")
    assert lines[1] == "3"
    assert lines[2].startswith("Python column parsers need a classic SparkSession") and lines[2].endswith(
        "start one with sd.session(), not sd.session(server=True) nor SparkSession.builder.remote(...)"
    )


def test_a_server_of_another_version_is_named_and_not_used(server: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir(mode=0o700)
    data = {**record(server), "version": "0.0.1"}
    (other / _serve_state.FILE_NAME).write_text(json.dumps(data))
    message = (
        f"spark-drill: not using the server of spark-drill 0.0.1 on Spark {data['spark']} "
        f"(pid {data['pid']}, port {data['port']}): this is spark-drill {__version__} on Spark "
    )
    done = cli(other, "schema", "samples/logs", "-o", "header=true", "-v")
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    err = done.stderr.decode().splitlines()
    assert err[0].startswith(message) and err[0].endswith(
        f"stop it with `spark-drill serve stop` (or `kill {data['pid']}`)"
    )
    assert err[1] == "spark-drill: running in a Spark session of its own (no server runs)"
    refused = cli(other, "schema", "samples/logs", "--server", "start")
    assert refused.returncode == 1 and refused.stderr.decode().startswith(message)


def listening_socket() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


def dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait(timeout=30)
    return child.pid


@pytest.mark.parametrize("case", ["server gone", "pid reused", "port taken"])
def test_a_stale_record_is_found_and_removed(tmp_path: Path, case: str) -> None:
    with listening_socket() as taken:
        pid, start = dead_pid(), 1
        if case == "pid reused":
            # A live process of another start time: this test's own.
            pid, start = os.getpid(), (_serve_state.process_start(os.getpid()) or 0) + 1
        info = _serve_state.ServerInfo(
            pid=pid,
            pid_start=start,
            port=taken.getsockname()[1] if case == "port taken" else 9,
            token="t",
            version=__version__,
            spark="4.0.0",
            jar="x.jar",
            started=time.time(),
            idle_seconds=60,
        )
        os.environ[_serve_state.DIR_ENV] = str(tmp_path)
        try:
            _serve_state.write(info)
            assert _serve_state.read() == info
            status = cli(tmp_path, "serve", "status")
            assert (status.returncode, status.stdout) == (1, b"no server runs\n")
            assert not _serve_state.state_file().exists()
            _serve_state.write(info)
            stopped = cli(tmp_path, "serve", "stop")
            assert (stopped.returncode, stopped.stdout) == (0, b"no server runs\n")
            assert not _serve_state.state_file().exists()
        finally:
            del os.environ[_serve_state.DIR_ENV]


def test_idle_stop_and_first_call_with_server_start(tmp_path: Path) -> None:
    """`--server start` starts a server (then answers through it); one started with --idle 6s stops by
    itself, removing its record."""
    done = cli(tmp_path, "schema", "samples/logs", "-o", "header=true", "--server", "start", "-v")
    try:
        assert done.returncode == 0, done.stderr.decode()[-3000:]
        data = record(tmp_path)
        assert done.stderr.decode().splitlines()[0] == (
            f"spark-drill: running through the server at 127.0.0.1:{data['port']} (pid {data['pid']})"
        )
        assert done.stdout.decode().splitlines()[3].startswith("|id ")
        stopped = cli(tmp_path, "serve", "stop")
        assert stopped.stdout.decode() == f"stopped the server (pid {data['pid']})\n"
        assert wait_gone(int(data["pid"]), 5) and not (tmp_path / _serve_state.FILE_NAME).exists()
        assert cli(tmp_path, "serve", "status").returncode == 1
        started = cli(tmp_path, "serve", "start", "--idle", "6s")
        assert started.returncode == 0, started.stderr.decode()[-3000:]
        data = record(tmp_path)
        assert wait_gone(int(data["pid"]), 120), "the idle server did not stop"
        assert not (tmp_path / _serve_state.FILE_NAME).exists()
    finally:
        stop_for_good(tmp_path)
