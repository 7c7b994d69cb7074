"""SPEC 11, exactly once across crashes: drill streams in child processes (each a JVM of its own, started by
tests/stream_child.py) are killed with SIGKILL at chosen and at random moments and restarted on the same
checkpoint while files keep landing; a final Trigger.AvailableNow run in this session drains what is left.
The Parquet sink (exactly-once by its `_spark_metadata` log) must then hold every row exactly once, as a batch
read of the landing directory gives them. And a second query on a running checkpoint fails, naming the lease,
until the process holding it is killed (and, test_..._zombie, should not wait for that process to be reaped).

A micro-batch n goes through these phases, told apart by the files of the checkpoint and of the sink:

    a        the source has logged batch n (<checkpoint>/sources/0/drill/batches/n), Spark's offsets/n is not
             written yet
    planned  offsets/n is written, the sink has written no file of batch n
    b        the sink is writing: a file under out/ that no _spark_metadata entry lists
    c        the sink has committed (out/_spark_metadata/n), Spark's commits/n is not written yet
    idle     commits/n is written (between batches; `startup` when the query had not started)
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pyspark
import pytest
from pyspark.sql import DataFrame, SparkSession

import spark_drill
from streams import QUERY_TIMEOUT_S, available_now, csv, put

pytestmark = pytest.mark.slow

CHILD = Path(__file__).parent / "stream_child.py"
START_TIMEOUT_S = 120  # a child's JVM up and its queries started
CHILD_BOUND_S = 300  # a child left alone exits by itself after this
CSV = {"header": "true", "inferTypes": "true"}


class Stream:
    """One stream's landing directory, checkpoint and Parquet sink, and the files landed so far."""

    def __init__(self, root: Path) -> None:
        self.src, self.chk, self.out = root / "landing", root / "chk", root / "out"
        self.src.mkdir(parents=True)
        self.files = 0

    def land(self, count: int) -> None:
        """Adds `count` CSV files of three rows each; file k holds ids 10k, 10k+1, 10k+2."""
        for _ in range(count):
            k = self.files
            put(self.src, f"d{k % 3}/f{k:04}.csv", csv("id,v", *(f"{k * 10 + j},s{k}" for j in range(3))))
            self.files += 1

    def expected(self) -> set[int]:
        return {k * 10 + j for k in range(self.files) for j in range(3)}

    @property
    def args(self) -> list[str]:
        return [str(self.src), str(self.chk), str(self.out)]

    # --- the checkpoint's and the sink's files -------------------------------------------------------------

    @property
    def source_log(self) -> Path:
        return self.chk / "sources" / "0" / "drill"

    def source_batch(self, n: int) -> Path:
        return self.source_log / "batches" / str(n)

    def last_source_batch(self) -> int:
        """The newest batch id in the source's log: its batch files, its merged tiers (level-first-last)."""
        last = _max_id(self.source_log / "batches")
        for name in _names(self.source_log / "tiers"):
            parts = name.split("-")
            if len(parts) == 3 and parts[2].isdigit():
                last = max(last, int(parts[2]))
        return last

    def sink_committed(self, n: int) -> bool:
        meta = self.out / "_spark_metadata"
        return (meta / str(n)).exists() or (meta / f"{n}.compact").exists()

    def parts(self) -> set[str]:
        return {n for n in _names(self.out) if n.startswith("part-")}

    def listed_parts(self) -> set[str]:
        """The files the sink's log lists (every entry of every _spark_metadata file)."""
        listed = set()
        for name in _names(self.out / "_spark_metadata"):
            for line in (self.out / "_spark_metadata" / name).read_text().splitlines():
                if line.startswith("{"):
                    listed.add(json.loads(line)["path"].rsplit("/", 1)[-1])
        return listed

    def orphans(self) -> set[str]:
        """Files a killed sink wrote that its log never listed (readers of the sink ignore them)."""
        return self.parts() - self.listed_parts()

    def phase(self, orphans_before: set[str]) -> str:
        """Where the stream's newest micro-batch stood when its process died (module docstring)."""
        offsets, commits = _max_id(self.chk / "offsets"), _max_id(self.chk / "commits")
        if self.last_source_batch() > offsets:
            return "a"
        if offsets > commits:
            if self.sink_committed(offsets):
                return "c"
            return "b" if self.orphans() - orphans_before else "planned"
        return "idle"

    def tree(self) -> str:
        """The checkpoint's and the sink's files, for failure messages."""
        lines = []
        for root in (self.chk, self.out):
            for path in sorted(root.rglob("*")):
                if path.is_file() and not path.name.endswith(".crc"):
                    lines.append(f"  {path.relative_to(root.parent)} ({path.stat().st_size} B)")
        return "\n".join(lines)


def _names(directory: Path) -> list[str]:
    try:
        return [n for n in os.listdir(directory) if not n.startswith(".")]
    except FileNotFoundError:
        return []


def _max_id(directory: Path) -> int:
    """The largest batch id named by a file of `directory` (`7`, `9.compact`), or -1."""
    ids = [int(n.split(".")[0]) for n in _names(directory) if n.split(".")[0].isdigit()]
    return max(ids, default=-1)


class Child:
    """A stream_child.py process in a process group of its own (its JVM included), killed as a whole.

    By default it is `python stream_child.py`, whose JVM is PySpark's child; with `submit=True` it is
    `spark-submit stream_child.py`, whose JVM is this process's own child (spark-submit execs java, which runs
    the Python driver), so that a killed JVM stays a zombie until this process reaps it.
    """

    count = 0

    def __init__(
        self,
        streams: list[Stream],
        logs: Path,
        trigger: str = "100 milliseconds",
        max_files: int = 1,
        submit: bool = False,
    ):
        Child.count += 1
        self.log = logs / f"child-{Child.count}.out"
        self.err = logs / f"child-{Child.count}.err"
        args = [
            str(CHILD),
            trigger,
            str(max_files),
            str(CHILD_BOUND_S),
            *(a for s in streams for a in s.args),
        ]
        if submit:
            confs = [
                "spark.ui.enabled=false",
                "spark.ui.showConsoleProgress=false",
                "spark.driver.host=127.0.0.1",
                "spark.driver.bindAddress=127.0.0.1",
            ]
            command = [
                str(Path(pyspark.__file__).parent / "bin" / "spark-submit"),
                *("--master", "local[1]", "--jars", spark_drill.jar_path()),
                *(a for c in confs for a in ("--conf", c)),
                *args,
            ]
        else:
            command = [sys.executable, *args]
        env = {**os.environ, "TZ": "UTC", "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable}
        with self.log.open("w") as out, self.err.open("w") as err:
            self.proc = subprocess.Popen(
                command, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True, env=env
            )

    def output(self) -> str:
        return self.log.read_text()

    def running(self) -> int:
        """How many of its queries have started."""
        return self.output().count("RUNNING ")

    def jvm_pid(self) -> int | None:
        for line in self.output().splitlines():
            if line.startswith("JVM "):
                return int(line.split()[1])
        return None

    def check_alive(self) -> None:
        """Fails, with what the child said, when it has exited (a query that failed to start or restart)."""
        if self.proc.poll() is not None:
            raise AssertionError(
                f"the child exited ({self.proc.returncode}) before it was killed:\n{self.output()}\n"
                f"{self.err.read_text()[-4000:]}"
            )

    def sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.check_alive()
            time.sleep(min(0.05, max(0.0, deadline - time.monotonic())))

    def wait_running(self, queries: int) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while self.running() < queries:
            self.check_alive()
            assert time.monotonic() < deadline, f"the child's queries did not start:\n{self.output()}"
            time.sleep(0.05)

    def kill(self, reap: bool = True) -> None:
        """SIGKILL to the whole group. Returns once no process of it runs and, with `reap`, once every one is
        reaped too: a killed JVM whose parent has not reaped it yet is a zombie, and the source's lease takes
        a zombie for a live holder (test_..._zombie below), so a restart waits for the reaping. Here the
        orphaned JVM is reaped by PID 1, which takes a second or two. Idempotent."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        if reap:
            self.proc.wait(timeout=30)
        deadline = time.monotonic() + 30
        while _group(self.proc.pid, zombies=reap):
            assert time.monotonic() < deadline, (
                f"process group {self.proc.pid}: {_group(self.proc.pid, True)}"
            )
            time.sleep(0.02)


def _group(pgid: int, zombies: bool) -> list[tuple[int, str]]:
    """The processes of group `pgid` (pid, state), zombies (killed, not yet reaped) only if asked."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            state = _state(int(entry))
            if state is not None and state[1] == pgid and (zombies or state[0] != "Z"):
                found.append((int(entry), state[0]))
    return found


def _state(pid: int) -> tuple[str, int] | None:
    """A process's state letter (`Z` for a zombie) and process group, or None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()  # state ppid pgrp ...
    return fields[0], int(fields[2])


def drill_stream(spark: SparkSession, s: Stream, max_files: int = 10) -> DataFrame:
    return (
        spark.readStream.format("drill")
        .options(**CSV)
        .option("schemaLocation", str(s.chk / "_schemas"))
        .option("maxFilesPerTrigger", str(max_files))
        .load(str(s.src))
    )


def assert_exactly_once(spark: SparkSession, s: Stream, context: str) -> None:
    """Drains the stream (AvailableNow in this session, on the same checkpoint), then compares the sink with
    the ids landed and with a batch read of the landing directory."""
    try:
        available_now(drill_stream(spark, s), s.chk, s.out)
    except Exception as e:
        message = " ".join(str(e).split())
        raise AssertionError(f"{context}: the restart failed: {message}\nthe checkpoint:\n{s.tree()}") from e
    rows = [(r.id, r.v) for r in spark.read.parquet(str(s.out)).select("id", "v").collect()]
    counts = Counter(i for i, _ in rows)
    duplicated = {i: c for i, c in counts.items() if c > 1}
    missing = sorted(s.expected() - counts.keys())
    unknown = sorted(counts.keys() - s.expected())
    assert not (duplicated or missing or unknown), (
        f"{context}: {len(rows)} rows for {len(s.expected())} ids; duplicated (id: times) {duplicated}, "
        f"missing {missing}, unknown {unknown}\nthe checkpoint and the sink:\n{s.tree()}"
    )
    batch = spark.read.format("drill").options(**CSV).load(str(s.src)).select("id", "v")
    assert sorted(rows) == sorted(tuple(r) for r in batch.collect()), context


# --- kills at chosen moments --------------------------------------------------------------------------------


def _kill_in_window(child: Child, s: Stream, target: str) -> bool:
    """Polls the checkpoint and the sink until the stream's next micro-batch is in phase `target` (a, b or c),
    then kills the child at once. Returns False when no batch reached it in time (the child is killed then
    too). Only a batch planned by this child counts: a state left by the previous kill is not a new hit."""
    first = max(_max_id(s.chk / "offsets"), s.last_source_batch()) + 1  # the first batch this run logs
    known = s.parts()
    deadline = time.monotonic() + START_TIMEOUT_S
    jvm_up = False
    while time.monotonic() < deadline:
        if not jvm_up:  # the JVM is starting: no batch yet, spare the CPU
            jvm_up = child.jvm_pid() is not None
            child.sleep(0.05)
            continue
        if child.proc.poll() is not None:
            child.check_alive()
        offsets = _max_id(s.chk / "offsets")
        if target == "a":
            # Not batch 0: killed while it writes its first offset file, Spark 4.3 itself refuses the restart
            # (STATE_STORE_CHECKPOINT_LOCATION_NOT_EMPTY: the temporary file left in offsets/ makes the
            # checkpoint of a query with no batch yet look used), whatever the source did.
            n = max(first, offsets + 1, 1)
            if s.source_batch(n).exists() and not (s.chk / "offsets" / str(n)).exists():
                child.kill()
                return True
        elif target == "b":
            if offsets >= 0 and s.sink_committed(offsets):
                known = s.parts()  # its files are listed now: only files of a later batch count
            elif s.parts() - known:
                child.kill()
                return True
        elif (
            offsets >= first and s.sink_committed(offsets) and not (s.chk / "commits" / str(offsets)).exists()
        ):
            child.kill()
            return True
    child.kill()
    return False


def test_kill_9_at_each_phase_of_a_micro_batch_and_restart_every_row_exactly_once(
    spark: SparkSession, tmp_path: Path
) -> None:
    s = Stream(tmp_path / "s")
    s.land(4)
    # Each try restarts on the state the previous kill left, and is killed in its window.
    attempts = 2
    hits: dict[str, int] = {"a": 0, "b": 0, "c": 0}
    history = []
    for target in ("a", "b", "c"):
        for _ in range(attempts):
            orphans = s.orphans()
            child = Child([s], tmp_path)
            try:
                observed = _kill_in_window(child, s, target)
            finally:
                child.kill()
            phase = s.phase(orphans)
            history.append(f"{target}->{phase}")
            hits[target] += phase == target
            s.land(3)  # files land while no query runs
            assert observed, f"no micro-batch reached phase {target} in {START_TIMEOUT_S} s:\n{s.tree()}"
    print(
        f"kill points hit per phase ({attempts} tries each): {hits}; tries: {history}",
        file=sys.stderr,
    )
    assert_exactly_once(spark, s, f"kills at chosen phases {history}")
    assert all(hits.values()), f"a phase was never hit: {history}"


def _wait_for(path: Path, child: Child) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while not path.exists():
        child.check_alive()
        assert time.monotonic() < deadline, f"{path} did not appear in {START_TIMEOUT_S} s"
        time.sleep(0.05)


def test_kill_9_between_the_barrier_batch_commit_and_the_schema_version_then_restart(
    spark: SparkSession, tmp_path: Path
) -> None:
    """Issue 28: the files before the first new-column file commit as a micro-batch; the next trigger writes
    the schema version and stops the query. Killed between the two, the restart meets that file first again,
    writes the version then and stops without a batch; the rebuilt stream reads it with the new column."""
    s = Stream(tmp_path / "s")
    s.land(2)
    drill_stream(spark, s)  # version 0: id, v
    put(s.src, "d2/f0002.csv", csv("id,v,w", *(f"{20 + j},s2,w{j}" for j in range(3))))
    s.files += 1
    schemas, commits = s.chk / "_schemas", s.chk / "commits"
    # A trigger every 4 s: the barrier batch commits at once, the version waits for the next trigger.
    child = Child([s], tmp_path, trigger="4 seconds", max_files=10)
    try:
        _wait_for(commits / "0", child)
    finally:
        child.kill()
    assert not (schemas / "1.json").exists(), f"the kill came after the version was written:\n{s.tree()}"
    assert sorted(r.id for r in spark.read.parquet(str(s.out)).collect()) == [0, 1, 2, 10, 11, 12]

    restarted = Child([s], tmp_path, trigger="4 seconds", max_files=10)
    try:
        assert restarted.proc.wait(timeout=START_TIMEOUT_S) == 1
    finally:
        restarted.kill()
    assert "SPARK_DRILL_STREAM_SCHEMA_CHANGED" in restarted.output(), restarted.output()
    assert json.loads((schemas / "1.json").read_text())["added"] == ["w"]
    assert _max_id(commits) == 0, "the stop wrote a micro-batch"

    assert_exactly_once(spark, s, "a kill between the barrier commit and the schema version")
    rows = spark.read.option("mergeSchema", "true").parquet(str(s.out)).collect()
    assert sorted((r.id, r.w) for r in rows if r.id >= 20) == [(20, "w0"), (21, "w1"), (22, "w2")]


# --- kills at random moments --------------------------------------------------------------------------------

STREAMS_PER_CHILD = 3  # one kill is a kill point for each of the child's streams, each in its own phase
KILLS = 12


def test_kill_9_at_random_moments_and_restart_every_row_exactly_once(
    spark: SparkSession, tmp_path: Path
) -> None:
    seed = int(os.environ.get("SPARK_DRILL_KILL_SEED") or random.randrange(1 << 32))
    print(f"kill seed {seed} (SPARK_DRILL_KILL_SEED={seed} runs these kills again)", file=sys.stderr)
    rng = random.Random(seed)
    streams = [Stream(tmp_path / f"s{i}") for i in range(STREAMS_PER_CHILD)]
    for s in streams:
        s.land(6)
    history: list[str] = []
    phases: Counter[str] = Counter()
    started = time.monotonic()
    try:
        for kill in range(KILLS):
            # Drawn up front, so a seed gives the same kills however fast the machine is.
            early = rng.random() < 0.2
            # Early: from the start of the process (its JVM takes about 5 s to run its queries); else from the
            # queries' start, long enough to reach past the first, slow, micro-batch of a cold JVM.
            delay = rng.uniform(0.5, 6.0) if early else rng.uniform(0.0, 6.0)
            mid_land = rng.uniform(0.0, 1.0)
            later = [rng.randint(1, 3) for _ in streams]
            orphans = [s.orphans() for s in streams]
            child = Child(streams, tmp_path)
            try:
                if early:  # while the JVM starts, the state loads or the first batches run
                    child.sleep(delay)
                else:
                    child.wait_running(len(streams))
                    child.sleep(delay * mid_land)
                    for s in streams:
                        s.land(1)  # files land while the query runs
                    child.sleep(delay * (1 - mid_land))
                child.check_alive()
                started_queries = child.running()
                child.kill()
            finally:
                child.kill()
            now = [s.phase(o) for s, o in zip(streams, orphans, strict=True)]
            now = [p if p != "idle" or i < started_queries else "startup" for i, p in enumerate(now)]
            phases.update(now)
            history.append(f"kill {kill}: {'early ' if early else ''}{delay:.2f}s -> {','.join(now)}")
            for s, count in zip(streams, later, strict=True):
                s.land(count)  # files land between restarts
    except AssertionError as e:  # a restart failed, or a child did not start or die
        raise AssertionError(f"seed {seed}, after kills:\n" + "\n".join(history) + f"\n{e}") from e
    took = time.monotonic() - started
    print(
        f"seed {seed}: {KILLS * len(streams)} kill points in {took:.0f} s, phases {dict(phases)}\n"
        + "\n".join(history),
        file=sys.stderr,
    )
    for i, s in enumerate(streams):
        assert_exactly_once(spark, s, f"seed {seed}, stream {i}, kills:\n" + "\n".join(history))


# --- one query per checkpoint -------------------------------------------------------------------------------


def test_a_second_query_on_a_running_checkpoint_fails_until_its_process_is_killed(
    spark: SparkSession, tmp_path: Path
) -> None:
    s = Stream(tmp_path / "s")
    s.land(3)
    child = Child([s], tmp_path, trigger="1 hour", max_files=1000)
    try:
        child.wait_running(1)
        deadline = time.monotonic() + QUERY_TIMEOUT_S
        while not (s.chk / "commits" / "0").exists():  # its first batch is done; it waits an hour for more
            child.check_alive()
            assert time.monotonic() < deadline, s.tree()
            time.sleep(0.1)
        assert (s.source_log / "lease").exists()
        pid = child.jvm_pid()
        with pytest.raises(Exception) as refused:
            query = (
                drill_stream(spark, s)
                .writeStream.format("parquet")
                .option("checkpointLocation", str(s.chk))
                .trigger(availableNow=True)
                .start(str(s.out))
            )
            query.awaitTermination(QUERY_TIMEOUT_S)
            assert query.exception() is not None, "a second query ran on a checkpoint in use"
        message = " ".join(str(refused.value).split())
        lease = s.source_log / "lease"
        assert f"Another query is running on this checkpoint: the stream's lease file:{lease}" in message or (
            f"Another query is running on this checkpoint: the stream's lease {lease}" in message
        ), message
        assert f"is held by {pid}@" in message, message
        child.check_alive()  # the refused query did not disturb the running one
    finally:
        child.kill()
    # The holder is gone (same host, its pid ended): the lease is taken over at once, not after 30 s.
    s.land(2)
    killed = time.monotonic()
    assert_exactly_once(spark, s, "restart after the lease holder was killed")
    took = time.monotonic() - killed
    print(f"restart after the lease holder's kill -9: {took:.1f} s", file=sys.stderr)
    assert took < 20, f"the restart waited {took:.1f} s: the dead holder's lease was not taken over at once"


def test_a_lease_whose_holder_was_killed_but_not_yet_reaped_is_taken_over_at_once_zombie(
    spark: SparkSession, tmp_path: Path
) -> None:
    """After `kill -9` the holder's JVM is a zombie until its parent reaps it (a supervisor that kills a
    stuck job and starts the next run before it calls wait(); an init that reaps late, as in this project's
    VMs, where that takes a second or two). A zombie runs no code and renews no lease: the restart should
    take the lease over at once, as from a process that is gone."""
    s = Stream(tmp_path / "s")
    s.land(3)
    child = Child([s], tmp_path, trigger="1 hour", max_files=1000, submit=True)
    try:
        child.wait_running(1)
        deadline = time.monotonic() + QUERY_TIMEOUT_S
        while not (s.chk / "commits" / "0").exists():
            child.check_alive()
            assert time.monotonic() < deadline, s.tree()
            time.sleep(0.1)
        pid = child.jvm_pid()
        assert pid == child.proc.pid, "spark-submit execs the JVM: it is this process's child"
        child.kill(reap=False)
        assert _state(pid) == ("Z", pid), "the killed JVM waits, a zombie, for this process to reap it"
        s.land(2)
        killed = time.monotonic()
        assert_exactly_once(spark, s, f"a restart while the killed lease holder {pid} is a zombie")
        assert time.monotonic() - killed < 20
    finally:
        child.kill()
