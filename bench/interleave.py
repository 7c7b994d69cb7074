"""Interleaved runs (`python -m bench.run --interleave`): every engine in a process of its own, all started
before the first query, and each query's runs taken in turns (A B, then B A, ...), so that every engine's
n-th run is timed within seconds of the others' n-th run.

Why: on a shared host the speed of the machine drifts from one quarter hour to the next, and each engine's
times drift with it (docs/performance.md: the same query 0.85-1.26 s in one run of the suite, 1.55-1.61 s in
another). Run one engine after the other and the ratio of their medians carries that drift; run them in
turns and the ratio of two runs taken side by side does not. Each run also waits for an idle machine
(`settle`), so that the engine before it has stopped working. The report then judges a target by the median
of those paired ratios (report.py).

The coordinator talks to each engine's process over its stdin and stdout, one JSON object per line; the
process's replies are the stdout lines that start with PREFIX (anything else an engine prints is passed on
to stderr).
"""

from __future__ import annotations

import json
import queue
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from bench.discovery import observe, summary
from bench.engines import BY_NAME, Engine, NotApplicable, Unavailable
from bench.queries import BY_ID
from bench.run import JAR_B, PeakRss, _error, _summary, judge, record, start
from bench.truth import Truth, load

PREFIX = "@@bench "


# ------------------------------------------------------------------------------------------ the engine's side
def _reply(out: IO[str], msg: dict[str, Any]) -> None:
    out.write(PREFIX + json.dumps(msg) + "\n")
    out.flush()


def one_run(engine: Engine, query: str, truth: Truth, first: bool, timed: bool = True) -> dict[str, Any]:
    """Runs `query` once, timed (after its setup, before the first run); the first run's answer is checked
    as `measure` checks it, and a timed run's discovery as `measure` checks it (bench/discovery.py)."""
    result: dict[str, Any] = {"status": "ok", "note": ""}
    try:
        if first:
            engine.setup(query)
        t0 = time.perf_counter()
        answer = engine.run(query)
        result["time"] = time.perf_counter() - t0
        if first:
            judge(engine, query, truth, answer, result)
        ok = result["status"] == "ok"
        if ok and timed and (why := observe(result, query, engine.last_discovery(), engine.schema_cache)):
            result.update(status="error", note=why)
    except NotApplicable as e:
        result.update(status="n/a", note=str(e))
    except Exception as e:
        result.update(status="error", note=_error(e))
    return result


def serve(name: str, data: Path, settings: dict[str, Any]) -> None:
    """The engine's process: starts and prepares the engine, then runs each query asked, until `stop`."""
    out = sys.stdout
    sys.stdout = sys.stderr  # whatever else prints does not reach the coordinator as a reply
    truth = load(data)
    rss = PeakRss()
    rss.start()
    engine = BY_NAME[name.removesuffix(JAR_B)](data, **settings)
    if name.endswith(JAR_B):
        engine.name = name  # its records and replies are the variant's
    hello: dict[str, Any] = {"status": "ok", "note": ""}
    prepare_error = ""
    try:
        prepare_error = start(engine, hello)
    except Unavailable as e:
        hello.update(status="unavailable", note=str(e))
    except Exception as e:
        hello.update(status="error", note=_error(e))
    _reply(out, hello)
    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd["op"] == "stop":
            break
        query = cmd["query"]
        if prepare_error and BY_ID[query].reads_relation:
            _reply(out, {"status": "error", "note": prepare_error})
        else:
            _reply(out, one_run(engine, query, truth, cmd["first"], cmd.get("timed", True)))
    if hello["status"] == "ok":
        engine.stop()
    _reply(out, {"peak_rss_mb": rss.stop() / 2**20})


# ------------------------------------------------------------------------------------------ the coordinator
class Server:
    """One engine's process, and the replies it has sent."""

    def __init__(self, name: str, data: Path, settings: dict[str, Any]) -> None:
        cmd = [sys.executable, "-m", "bench.run", "--serve", name, "--data", str(data)]
        # `<engine>@b` is the engine with the other jar (`--jar-b`): an A/B of two versions in one run.
        jar = settings.get("jar_b") if name.endswith(JAR_B) else settings.get("jar")
        if jar:
            cmd += ["--jar", str(jar)]
        self.name = name
        self.proc = subprocess.Popen(
            cmd,
            cwd=Path(__file__).parent.parent,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.replies: queue.Queue[dict[str, Any] | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith(PREFIX):
                self.replies.put(json.loads(line[len(PREFIX) :]))
            else:
                sys.stderr.write(line)
        self.replies.put(None)  # the process ended

    def reply(self, timeout: float) -> dict[str, Any]:
        """The next reply; an error when the process ends or says nothing for `timeout` seconds."""
        try:
            msg = self.replies.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            return {"status": "error", "note": f"timed out after {timeout:.0f}s"}
        if msg is None:
            return {"status": "error", "note": f"engine process exited with {self.proc.wait()}"}
        return msg

    def ask(self, cmd: dict[str, Any], timeout: float) -> dict[str, Any]:
        if self.proc.poll() is not None:
            return {"status": "error", "note": f"engine process exited with {self.proc.returncode}"}
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return self.reply(timeout)

    def stop(self, timeout: float) -> float | None:
        """Stops the engine; its process's peak RSS in MiB, when it told."""
        if self.proc.poll() is not None:
            return None
        last = self.ask({"op": "stop"}, timeout)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        return last.get("peak_rss_mb")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()


def settle(idle: float = 0.1, window: float = 0.2, most: float = 10.0) -> None:
    """Waits until the machine is idle: its CPUs less than `idle` busy over a `window` of seconds, for at most
    `most` seconds. An engine's process goes on working for a moment after it answers (a JVM's garbage
    collector and compiler, a pool's threads winding down): on two cores that slowed the next engine's run
    by a quarter (a first interleaved run: spark-drill's JSON filter 1.30 s after DuckDB's query, 1.01 s
    after Spark's)."""
    import psutil  # type: ignore[import-untyped,unused-ignore]

    deadline = time.monotonic() + most
    while psutil.cpu_percent(interval=window) >= idle * 100 and time.monotonic() < deadline:
        pass


def run_queries(
    servers: Sequence[Server],
    queries: Sequence[str],
    runs: int,
    warmup: int,
    timeout: float,
    wait: Callable[[], None] = settle,
) -> dict[str, dict[str, dict[str, Any]]]:
    """Each query's runs, in turns over the servers (the order reversed every round), each run once the
    machine is idle (`wait`): per engine, per query, a result as `measure` gives it, its `times` in round
    order."""
    done: dict[str, dict[str, dict[str, Any]]] = {s.name: {} for s in servers}
    for q in queries:
        results: dict[str, dict[str, Any]] = {
            s.name: {"status": "ok", "times": [], "note": ""} for s in servers
        }
        for r in range(max(warmup, 0) + max(runs, 1)):
            for s in servers if r % 2 == 0 else list(reversed(servers)):
                res = results[s.name]
                if res["status"] != "ok":
                    continue
                wait()
                timed = r >= max(warmup, 0)
                reply = s.ask({"op": "run", "query": q, "first": r == 0, "timed": timed}, timeout)
                if "types" in reply:
                    res["types"] = reply["types"]
                res.setdefault("discovery", []).extend(reply.get("discovery", []))
                if reply["status"] != "ok":
                    res.update(status=reply["status"], note=reply.get("note", ""))
                    if "answer" in reply:
                        res["answer"] = reply["answer"]
                    if "time" in reply:  # wrong, or a discovery a cache served: timed once
                        res.update(times=[reply["time"]], median=reply["time"])
                    continue
                res["times"].append(reply["time"])
        for s in servers:
            res = results[s.name]
            if not res.get("discovery"):
                res.pop("discovery", None)  # no discovery query, or an engine with no schema cache
            if res["status"] == "ok":
                res["times"] = res["times"][max(warmup, 0) :] or res["times"]
                res["median"] = statistics.median(res["times"])
                res["note"] = summary(q, res.get("discovery", []))
            done[s.name][q] = res
            if res["status"] != "n/a":
                print(f"  {s.name} {q}: {_summary(res)}", file=sys.stderr, flush=True)
    return done


def run_interleaved(
    data: Path,
    engines: Sequence[str],
    queries: Sequence[str],
    runs: int,
    warmup: int,
    settings: dict[str, Any],
    timeout: float,
) -> list[dict[str, Any]]:
    """Every engine's record (as run_all gives them), their queries run in turns."""
    print(f"{', '.join(engines)}, interleaved ...", file=sys.stderr, flush=True)
    started = [Server(name, data, settings) for name in engines]
    records = {name: {**record(name), "interleaved": True} for name in engines}
    live = []
    for s in started:
        hello = s.reply(timeout)
        records[s.name].update(hello)
        if hello["status"] == "ok":
            live.append(s)
        else:
            print(f"  {s.name}: {hello['status']}: {hello['note']}", file=sys.stderr, flush=True)
            s.stop(timeout)
    for name, queries_done in run_queries(live, queries, runs, warmup, timeout).items():
        records[name]["queries"] = queries_done
    for s in live:
        records[s.name]["peak_rss_mb"] = s.stop(timeout)
    return [records[name] for name in engines]
