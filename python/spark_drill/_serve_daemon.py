"""The CLI's local server process (`python -m spark_drill._serve_daemon IDLE_SECONDS`, started by
`spark-drill serve start`): a classic session as `sd.session()` makes it, with Spark Connect's plugin
listening on 127.0.0.1 behind a token, recorded in the state file until it stops.

It stops on SIGTERM or SIGINT, or after IDLE_SECONDS in which no request ran: the Connect server's execution
manager knows when the last one ended (Left(time) when none runs, Right(running) otherwise).
"""

from __future__ import annotations

import os
import secrets
import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

import pyspark

from spark_drill import __version__, _serve_state
from spark_drill._jar import jar_path

PLUGIN = "org.apache.spark.sql.connect.SparkConnectPlugin"
# The token travels in the environment, which only this user can read (/proc/<pid>/environ), not as a
# --conf, which would be on the JVM's command line for every user's `ps`.
TOKEN_ENV = "SPARK_CONNECT_AUTHENTICATE_TOKEN"
CHECK_SECONDS = 1.0


def server_conf() -> dict[str, str]:
    quiet = Path(__file__).with_name("log4j2-quiet.properties").as_uri()
    return {
        "spark.plugins": PLUGIN,
        "spark.connect.grpc.binding.address": "127.0.0.1",
        "spark.connect.grpc.binding.port": "0",  # any free port; the server says which (localPort)
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile={quiet}",
    }


def idle_for(service: Any, now_ns: int, since_ns: int) -> float:
    """Seconds since the last request ended (or since `since_ns`, the start), 0 while one runs. Times are
    the JVM's System.nanoTime, which the execution manager keeps the last request's end in."""
    executions = service.listActiveExecutions()
    if not executions.isLeft():
        return 0.0
    last = max(int(executions.left().get()), since_ns)
    return max(0.0, (now_ns - last) / 1e9)


def serve(idle_seconds: float) -> int:
    from spark_drill._session import classic_session

    os.environ[TOKEN_ENV] = secrets.token_urlsafe(32)
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    started = time.time()
    spark = classic_session("local[*]", "spark-drill-server", server_conf())
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    # The Scala object itself: its class of the same name has no static forwarders Py4J could call.
    service = getattr(getattr(jvm.org.apache.spark.sql.connect.service, "SparkConnectService$"), "MODULE$")
    start = _serve_state.process_start(os.getpid())
    assert start is not None
    info = _serve_state.ServerInfo(
        pid=os.getpid(),
        pid_start=start,
        port=int(service.localPort()),
        token=os.environ[TOKEN_ENV],
        version=__version__,
        spark=pyspark.__version__,
        jar=jar_path(),
        started=started,
        idle_seconds=idle_seconds,
    )
    _serve_state.write(info)
    print(f"serving on 127.0.0.1:{info.port}, pid {info.pid}", flush=True)
    clock = jvm.java.lang.System
    since_ns = int(clock.nanoTime())
    try:
        while not stop.wait(CHECK_SECONDS):
            if idle_for(service, int(clock.nanoTime()), since_ns) >= idle_seconds:
                print(f"idle for {idle_seconds:g} s: stopping", flush=True)
                break
    finally:
        _serve_state.remove(info)
        spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(serve(float(sys.argv[1])))
