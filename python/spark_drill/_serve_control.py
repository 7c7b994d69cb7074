"""`spark-drill serve start|stop|status`: starting the local server in a process of its own, stopping it, and
saying what runs."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import time

import pyspark

from spark_drill import __version__, _serve_state
from spark_drill._serve_state import ServerInfo

DEFAULT_IDLE = dt.timedelta(minutes=30)
# A JVM and a Spark session start in 10-30 s on a busy 2-core machine; past this something is wrong.
START_TIMEOUT = 180.0
STOP_TIMEOUT = 60.0


class ServeError(RuntimeError):
    """The server could not be started or stopped; the message is one line for stderr."""


def usable() -> tuple[ServerInfo | None, str | None]:
    """The live server this client may use, or None with why not when one runs that it may not (another
    spark-drill version or Spark line: see _serve_state.mismatch)."""
    info = _serve_state.live()
    if info is None:
        return None, None
    why = _serve_state.mismatch(info, __version__, pyspark.__version__)
    return (None, why) if why else (info, None)


def start(idle: dt.timedelta = DEFAULT_IDLE) -> tuple[ServerInfo, bool]:
    """The running server, started first when there is none; and whether this call started it. A server this
    client may not use is not replaced behind its user's back: ServeError names it."""
    if int(pyspark.__version__.split(".")[0]) < 4:
        # PySpark 3.5 ships no Connect server, and its server cannot be told to listen on loopback only.
        raise ServeError(f"spark-drill: the local server needs PySpark 4 (this is {pyspark.__version__})")
    # Longer than one start takes to fail: a call that waits for another's start sees how it ended.
    with _serve_state.start_lock(START_TIMEOUT + 30):
        info, why = usable()
        if why:
            raise ServeError(why)
        if info is not None:
            return info, False
        return _spawn(idle.total_seconds()), True


def _spawn(idle_seconds: float) -> ServerInfo:
    log = _serve_state.log_file()
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1"}
    env.pop("SPARK_REMOTE", None)
    with os.fdopen(os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "ab") as out:
        # A session of its own: the server outlives this call, and a Ctrl-C in the shell that started it
        # does not reach it.
        child = subprocess.Popen(
            [sys.executable, "-m", "spark_drill._serve_daemon", str(idle_seconds)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd="/",
            start_new_session=True,
        )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        info = _serve_state.read()
        if info is not None and info.pid == child.pid and _serve_state.answers(info.port):
            return info
        if child.poll() is not None:
            raise ServeError(f"spark-drill: the server did not start (exit {child.returncode}); see {log}")
        time.sleep(0.2)
    child.terminate()
    raise ServeError(f"spark-drill: the server did not start in {START_TIMEOUT:g} s; see {log}")


def stop() -> ServerInfo | None:
    """Stops the recorded server, whatever its version (SIGTERM, then SIGKILL after STOP_TIMEOUT); returns
    it, or None when none ran. A stale record is removed."""
    info = _serve_state.read()
    if info is None or not _serve_state.is_running(info):
        _serve_state.remove(info)
        return None
    os.kill(info.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT
    while _serve_state.is_running(info):
        if time.monotonic() > deadline:
            os.kill(info.pid, signal.SIGKILL)
        time.sleep(0.1)
    _serve_state.remove(info)
    return info


def status_lines(info: ServerInfo, now: float | None = None) -> list[str]:
    uptime = dt.timedelta(seconds=round((now if now is not None else time.time()) - info.started))
    return [
        f"running at 127.0.0.1:{info.port}",
        f"pid      {info.pid}",
        f"uptime   {uptime}",
        f"idle     stops after {dt.timedelta(seconds=round(info.idle_seconds))} without a request",
        f"version  spark-drill {info.version}, Spark {info.spark}",
        f"jar      {info.jar}",
        f"file     {_serve_state.state_file()}",
    ]
