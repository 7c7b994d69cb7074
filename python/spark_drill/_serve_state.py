"""The record of the CLI's local server (SPEC 15): where it is kept, how it is written so that only its user
can read the token in it, and whether a record still names a live server this client may use.

A record outlives its server when the server is killed (SIGKILL, a machine's reboot with a cache directory):
it is trusted only while its pid runs and is the same process (its start time, from /proc, is kept with the
pid: a pid is reused after the server is gone, possibly by a program that now holds the port).
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# Tests (and a user who wants a second, separate server) point this at a directory of their own.
DIR_ENV = "SPARK_DRILL_SERVER_DIR"
FILE_NAME = "server.json"
LOG_NAME = "server.log"
LOCK_NAME = "start.lock"


@dataclasses.dataclass(frozen=True)
class ServerInfo:
    """What a running server wrote about itself."""

    pid: int
    pid_start: int  # the process's start time in clock ticks since boot (/proc/<pid>/stat, field 22)
    port: int
    token: str
    version: str  # spark-drill's
    spark: str  # the Spark version the server runs
    jar: str
    started: float  # seconds since the epoch
    idle_seconds: float

    def url(self) -> str:
        # "localhost", not 127.0.0.1: PySpark's client sends a token without TLS only to a host of that name
        # (over gRPC's local credentials, which refuse anything but loopback).
        return f"sc://localhost:{self.port}/;token={self.token}"

    def named(self) -> str:
        return f"spark-drill {self.version} on Spark {self.spark} (pid {self.pid}, port {self.port})"


def state_dir() -> Path:
    """$SPARK_DRILL_SERVER_DIR, else $XDG_RUNTIME_DIR/spark-drill (a tmpfs only this user reads, emptied at
    logout), else the cache directory ($SPARK_DRILL_CACHE or ~/.cache/spark-drill)/server."""
    if os.environ.get(DIR_ENV):
        return Path(os.environ[DIR_ENV])
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return Path(runtime) / "spark-drill"
    cache = os.environ.get("SPARK_DRILL_CACHE") or os.path.join(Path.home(), ".cache", "spark-drill")
    return Path(cache) / "server"


def state_file() -> Path:
    return state_dir() / FILE_NAME


def log_file() -> Path:
    return state_dir() / LOG_NAME


def _private_dir() -> Path:
    directory = state_dir()
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    return directory


def write(info: ServerInfo) -> None:
    """Writes the record readable by its user only (0600 from its creation, not chmod'ed after: the token is
    never in a file others can open), then renames it into place so a reader sees all of it or nothing."""
    directory = _private_dir()
    temporary = directory / f".{FILE_NAME}.{os.getpid()}"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(dataclasses.asdict(info), f)
    os.replace(temporary, directory / FILE_NAME)


def read() -> ServerInfo | None:
    """The record as written, or None when there is none or it cannot be read as one."""
    try:
        data: dict[str, Any] = json.loads(state_file().read_text(encoding="utf-8"))
        return ServerInfo(**data)
    except (OSError, ValueError, TypeError):
        return None


def remove(info: ServerInfo | None) -> None:
    """Removes the record if it is still `info`'s (a new server may have replaced it meanwhile); None removes
    an unreadable one."""
    if read() == info:
        with contextlib.suppress(FileNotFoundError):
            state_file().unlink()


def process_start(pid: int) -> int | None:
    """The start time of process `pid` in clock ticks since boot, or None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may hold spaces: fields are counted after its end.
    return int(stat[stat.rindex(")") + 2 :].split()[19])


def is_running(info: ServerInfo) -> bool:
    return process_start(info.pid) == info.pid_start


def answers(port: int, timeout: float = 1.0) -> bool:
    """Whether something accepts connections on 127.0.0.1:`port`."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def live() -> ServerInfo | None:
    """The recorded server if its process still runs (the same process, not a reused pid) and listens on its
    port; a record that fails either is stale and removed."""
    info = read()
    if info is None:
        if state_file().exists():
            remove(None)
        return None
    if is_running(info) and answers(info.port):
        return info
    remove(info)
    return None


def spark_line(version: str) -> str:
    return ".".join(version.split(".")[:2])


def mismatch(info: ServerInfo, version: str, spark: str) -> str | None:
    """Why this client (spark-drill `version`, PySpark `spark`) must not use the server, or None: another
    spark-drill may read differently, and another Spark line's client and server may not speak alike."""
    if info.version != version or spark_line(info.spark) != spark_line(spark):
        return (
            f"spark-drill: not using the server of {info.named()}: this is spark-drill {version} on Spark "
            f"{spark}; stop it with `spark-drill serve stop` (or `kill {info.pid}`)"
        )
    return None


@contextlib.contextmanager
def start_lock(timeout: float) -> Iterator[None]:
    """Held while a server is started, so two calls at once start one server, not two."""
    path = _private_dir() / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError("another call has been starting the server for too long") from None
                time.sleep(0.1)
        yield
    finally:
        os.close(fd)
