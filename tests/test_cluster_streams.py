"""Issue 38, "Streams on a real cluster": drill streams on a standalone cluster of a master and two workers on
127.0.0.1 (each a JVM of its own, tests/spark_cluster.py), the driver an application of its own
(spark-submit), the tasks in the workers' executors.

- A JSON member that appears only past the discovery sample is met by a task in an executor: the query stops
  with SPARK_DRILL_STREAM_SCHEMA_CHANGED after that task wrote the next version to schemaLocation, and
  `sd.run_stream` builds the stream again and finishes it; the Parquet sink then equals a batch read.
- A worker is killed with SIGKILL while a micro-batch's task runs on it (held there by a Python UDF that waits
  on the first attempt at one chosen row, so the kill lands at a known point, not by a race): Spark runs the
  task again on the other worker, the query finishes, and the sink holds every row exactly once.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from spark_cluster import (
    SUBMIT_TIMEOUT_S,
    process_tree,
    spark_env,
    standalone_cluster,
    submit,
    submit_command,
)

pytestmark = [pytest.mark.slow, pytest.mark.cluster]

OLD = time.time() - 3600
CHANGED = "SPARK_DRILL_STREAM_SCHEMA_CHANGED"


def put_json(path: Path, records: list[dict[str, Any]], mtime: float) -> None:
    """Writes a JSON-lines file whole (a hidden name, then renamed) with modification time `mtime`, which
    orders the stream's admission."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.parent / f".{path.name}.tmp"
    temp.write_text("".join(json.dumps(r) + "\n" for r in records))
    os.replace(temp, path)
    os.utime(path, (mtime, mtime))


def printed(output: str, key: str) -> Any:
    """The JSON an application printed on its line `KEY ...`."""
    found = re.search(rf"^{key} (.*)$", output, re.M)
    assert found is not None, f"no {key} line in:\n{output[-6000:]}"
    return json.loads(found.group(1))


# Both applications wait for the two executors first: the tasks must be able to run on either worker.
PRELUDE = """
import json, os, sys, time
from pyspark.sql import SparkSession
import spark_drill as sd
spark = SparkSession.builder.getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
# The scheduler's warnings only: each failed task, with the executor it ran in and its error.
log4j = spark.sparkContext._jvm.org.apache.logging.log4j
log4j.core.config.Configurator.setLevel("org.apache.spark.scheduler.TaskSetManager", log4j.Level.WARN)
deadline = time.monotonic() + 120
while spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() < 3:  # the driver and two executors
    assert time.monotonic() < deadline, "the two executors did not register"
    time.sleep(0.2)

def rows(df):
    return sorted((r.asDict(recursive=True) for r in df.collect()), key=lambda r: r["id"])

def schema(df):
    return [[f.name, f.dataType.simpleString()] for f in df.schema.fields]
"""

SCHEMA_APP = (
    PRELUDE
    + """
src, chk, out = sys.argv[1:4]
started, sinks = [], []

def build():
    if started:  # the sink's rows when the previous query stopped
        sinks.append(sorted(r.id for r in spark.read.parquet(out).select("id").collect()))
    reader = spark.readStream.format("drill").option("schemaLocation", chk + "/_schemas")
    return reader.option("sampleRows", "5").option("maxFilesPerTrigger", "2").load(src)

def start(df):
    writer = df.writeStream.format("parquet").option("checkpointLocation", chk)
    started.append(writer.trigger(availableNow=True).start(out))
    return started[-1]

changes = []
query = sd.run_stream(build, start, on_schema_change=changes.append)
print("CHANGES", json.dumps(changes))
print("END_ERROR", json.dumps(None if query.exception() is None else str(query.exception())))
# What run_stream met: the first query's error as awaitTermination raises it (again, the query has ended), its
# classes as run_stream reads them, and the Java causes behind it (class, error class).
try:
    started[0].awaitTermination(10)
    error = None
except Exception as e:
    error = e
causes, cause = [], started[0]._jsq.exception().get()
while cause is not None and len(causes) < 20:
    condition = None
    for name in ("getCondition", "getErrorClass"):  # Spark 4; Spark 3.5 has only the second
        try:
            condition = getattr(cause, name)()
            break
        except Exception:  # not a SparkThrowable, or a method this Spark lacks
            pass
    causes.append([cause.getClass().getName(), condition])
    cause = cause.getCause()
print("FIRST_ERROR", json.dumps(None if error is None else {
    "classes": [found.condition] if (found := sd._errors.drill_error_of(error)) else [],
    "causes": causes,
    "text": str(error)[:20000],
}))
print("FIRST_SINK", json.dumps(sinks[0] if sinks else None))
batch = spark.read.format("drill").load(src)
sink = spark.read.option("mergeSchema", "true").parquet(out)
print("BATCH_SCHEMA", json.dumps(schema(batch)))
print("SINK_SCHEMA", json.dumps(schema(sink)))
print("BATCH", json.dumps(rows(batch)))
print("SINK", json.dumps(rows(sink)))
spark.stop()
"""
)


def test_a_member_past_the_sample_found_by_an_executor_changes_the_schema_and_run_stream_finishes(
    tmp_path: Path,
) -> None:
    src, chk, out = tmp_path / "landing", tmp_path / "chk", tmp_path / "out"
    # Six files of 20 records, two a micro-batch. Discovery samples 5 records a file, so `late`, first met in
    # f02's 9th and f03's 13th records (one micro-batch, two tasks), is seen only by the tasks reading them;
    # f05 has it too, after the version that adds it.
    late = {(2, 8): "x2", (3, 12): "x3", (5, 15): "x5"}
    for k in range(6):
        records: list[dict[str, Any]] = []
        for j in range(20):
            record: dict[str, Any] = {"id": k * 100 + j, "name": f"n{k}-{j}"}
            if (k, j) in late:
                record["late"] = late[(k, j)]
            records.append(record)
        put_json(src / f"f{k:02}.json", records, OLD + k)
    with standalone_cluster(tmp_path, workers=2) as cluster:
        output = submit(tmp_path, cluster.master_url, SCHEMA_APP, str(src), str(chk), str(out))

    # sd.run_stream met one schema change: the first query stopped, the second (built again) finished.
    changes = printed(output, "CHANGES")
    assert len(changes) == 1 and changes[0].startswith(f"[{CHANGED}]"), changes
    assert printed(output, "END_ERROR") is None
    first = printed(output, "FIRST_ERROR")
    assert first is not None, "the first query ended without an error"
    # The class, read from the error itself (its Java cause: the task's exception), not from its text.
    assert CHANGED in first["classes"], first
    assert ["sparkdrill.errors.StreamStopException", CHANGED] in first["causes"], first["causes"]
    text = first["text"]
    assert "past the discovery sample" in text and "late" in text, text[-4000:]
    assert re.search(r"f02\.json has, at line 9 |f03\.json has, at line 13 ", text), text[-4000:]
    # Found by a task in an executor, not in the driver: the scheduler names where each failed task ran (its
    # first failure; the retries Spark makes on a cluster, and the tasks it kills when it gives up, aside).
    lost = re.findall(r"Lost task \S+ in stage \S+ \(TID \d+\) \((\S+) executor (\w+)\): (\S+)", output)
    found = [(host, executor) for host, executor, error in lost if error != "TaskKilled"]
    assert found, output[-6000:]
    assert all(host == "127.0.0.1" and executor.isdigit() for host, executor in found), lost
    others = [x for x in lost if x[2] not in ("sparkdrill.errors.StreamStopException:", "TaskKilled")]
    assert others == [], [line for line in output.splitlines() if "Lost task" in line][-8:]
    # The micro-batch of f00 and f01 had committed; nothing of f02's and f03's was written.
    assert printed(output, "FIRST_SINK") == [k * 100 + j for k in (0, 1) for j in range(20)]

    # Version 1 was written by that task (the driver never learns why a task failed): once, whichever of the
    # two tasks wrote it first.
    schemas = chk / "_schemas"
    names = sorted(p.name for p in schemas.glob("*.json"))
    assert names == ["0.json", "1.json"], names
    version = json.loads((schemas / "1.json").read_text())
    assert version["added"] == ["late"], version
    assert version["cause"].endswith(("f02.json", "f03.json")), version

    # The sink, row by row, equals a batch read of the same files, `late` included, with the same types.
    assert (
        printed(output, "SINK_SCHEMA")
        == printed(output, "BATCH_SCHEMA")
        == [
            ["id", "bigint"],
            ["name", "string"],
            ["late", "string"],
        ]
    )
    sink, batch = printed(output, "SINK"), printed(output, "BATCH")
    assert len(batch) == 120 and sink == batch
    assert [r["id"] for r in sink if r["late"]] == [208, 312, 515]
    print(
        f"a member past the sample, on the cluster: found by {len(found)} task(s) in executor(s) "
        f"{sorted({e for _, e in found})}; version 1 adds {version['added']} (cause "
        f"{Path(version['cause']).name}); run_stream: {len(changes)} change; {len(sink)} rows, "
        "a batch read's",
        file=sys.stderr,
    )


KILL_APP = (
    PRELUDE
    + """
from pyspark.sql.functions import udf
src, chk, out, marks, trap = sys.argv[1:6]
HELD = int(trap)

def chain():
    # This Python worker and its ancestors: its pyspark daemon, the executor's JVM, the worker's JVM, ...
    pids, pid = [], os.getpid()
    while pid > 1 and pid not in pids:
        pids.append(pid)
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        pid = int(stat[stat.rindex(")") + 2:].split()[1])
    return pids

@udf("bigint")
def held(i):
    # At row HELD the first attempt announces itself (the file `armed`, made once by a hard link) and waits
    # (bounded) to be killed with its worker; a later attempt records where it ran and goes on.
    if i == HELD:
        seen = os.path.join(marks, f"seen-{os.getpid()}-{time.monotonic_ns()}")
        with open(seen, "w") as f:
            f.write(json.dumps(chain()))
        try:
            os.link(seen, os.path.join(marks, "armed"))
        except FileExistsError:
            return i
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            time.sleep(0.05)
    return i

stream = (spark.readStream.format("drill").option("schemaLocation", chk + "/_schemas")
          .option("maxFilesPerTrigger", "2").load(src))
query = (stream.select(held("id").alias("id"), "name").writeStream.format("parquet")
         .option("checkpointLocation", chk).trigger(availableNow=True).start(out))
try:
    ended = query.awaitTermination(240)
except Exception:
    ended = True  # read below, as the query keeps it
assert ended, "the stream did not end"
print("END_ERROR", json.dumps(None if query.exception() is None else str(query.exception())))
progress = [p if isinstance(p, dict) else json.loads(p.json) for p in query.recentProgress]
print("BATCH_ROWS", json.dumps([p["numInputRows"] for p in progress if p["numInputRows"]]))
print("EXECUTORS", spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size())
print("SINK", json.dumps([[r.id, r.name] for r in spark.read.parquet(out).collect()]))
print("BATCH", json.dumps([[r.id, r.name] for r in spark.read.format("drill").load(src).collect()]))
spark.stop()
"""
)


def _ids(directory: Path) -> set[int]:
    """The batch ids named by the files of a checkpoint's (or sink log's) directory."""
    if not directory.is_dir():
        return set()
    return {int(n.split(".")[0]) for n in os.listdir(directory) if n.split(".")[0].isdigit()}


def test_a_worker_killed_mid_micro_batch_the_stream_goes_on_and_every_row_is_in_the_sink_once(
    tmp_path: Path,
) -> None:
    src, chk, out, marks = tmp_path / "landing", tmp_path / "chk", tmp_path / "out", tmp_path / "marks"
    marks.mkdir()
    # Eight files of 400 records, two a micro-batch: f04 and f05 are micro-batch 2; its task reading f04
    # holds at id 4300, 300 records into the file.
    files, per_file, held = 8, 400, 4300
    for k in range(files):
        records = [{"id": k * 1000 + j, "name": f"n{k}-{j}"} for j in range(per_file)]
        put_json(src / f"f{k:02}.json", records, OLD + k)
    expected = Counter(k * 1000 + j for k in range(files) for j in range(per_file))
    app = tmp_path / "kill_app.py"
    app.write_text(KILL_APP)
    log = tmp_path / "driver.log"
    with standalone_cluster(tmp_path, workers=2) as cluster, log.open("w") as driver_log:
        driver = subprocess.Popen(
            submit_command(cluster.master_url, app, str(src), str(chk), str(out), str(marks), str(held)),
            stdout=driver_log,
            stderr=subprocess.STDOUT,
            env=spark_env(),
            start_new_session=True,
        )
        try:
            armed = marks / "armed"
            deadline = time.monotonic() + SUBMIT_TIMEOUT_S
            while not armed.exists():
                assert driver.poll() is None, f"the application ended first:\n{log.read_text()[-6000:]}"
                assert time.monotonic() < deadline, f"no task reached id {held}:\n{log.read_text()[-6000:]}"
                time.sleep(0.05)
            holder = json.loads(armed.read_text())
            victims = [w for w in cluster.workers if w.pid in holder]
            assert len(victims) == 1, f"the held task's processes {holder}, the workers' JVMs " + str(
                [w.pid for w in cluster.workers]
            )
            victim = victims[0]
            # In the middle of micro-batch 2: planned (offsets/2), not committed by the sink nor by Spark.
            offsets, commits = _ids(chk / "offsets"), _ids(chk / "commits")
            sink_log = _ids(out / "_spark_metadata")
            assert max(offsets) == 2 and max(commits) == 1 and 2 not in sink_log, (offsets, commits, sink_log)
            # SIGKILL to the worker's JVM, and to what it started (its executor's JVM, the executor's Python
            # workers): the whole worker goes at once, as when its machine dies.
            doomed = process_tree(victim.pid)
            for pid in doomed:
                os.kill(pid, signal.SIGKILL)
            victim.process.wait(timeout=30)
            driver.wait(timeout=SUBMIT_TIMEOUT_S)
        finally:
            if driver.poll() is None:
                os.killpg(driver.pid, signal.SIGKILL)
                driver.wait(timeout=30)
        survivor = next(w for w in cluster.workers if w is not victim)
        survivor_log = survivor.log.read_text()
    output = log.read_text()
    assert driver.returncode == 0, output[-6000:]
    assert printed(output, "END_ERROR") is None
    assert "Lost executor" in output, "the driver saw the executor go"
    assert printed(output, "EXECUTORS") == 2, "the driver and the other worker's executor, at the end"
    assert "Asked to launch executor" in survivor_log, survivor_log[-3000:]

    # The held row was read again, in a Python worker under the other worker's JVM.
    attempts = [json.loads(p.read_text()) for p in marks.glob("seen-*")]
    assert len(attempts) == 2, attempts
    assert sum(victim.pid in a for a in attempts) == 1 and sum(survivor.pid in a for a in attempts) == 1

    # Every row exactly once, and the rows a batch read of the files gives.
    sink = printed(output, "SINK")
    counts = Counter(i for i, _ in sink)
    duplicated = {i: c for i, c in counts.items() if c > 1}
    missing = sorted(expected.keys() - counts.keys())
    unknown = sorted(counts.keys() - expected.keys())
    assert counts == expected, f"duplicated {duplicated}, missing {missing[:20]}, unknown {unknown[:20]}"
    assert sorted(map(tuple, sink)) == sorted(map(tuple, printed(output, "BATCH")))
    assert sum(printed(output, "BATCH_ROWS")) == files * per_file
    listed = set()
    for entry in (out / "_spark_metadata").iterdir():
        if entry.is_file() and not entry.name.startswith("."):
            listed |= {json.loads(x)["path"].rsplit("/", 1)[-1] for x in entry.read_text().splitlines()[1:]}
    orphans = {p.name for p in out.glob("part-*")} - listed
    print(
        f"worker killed in micro-batch 2 ({len(doomed)} processes: its JVM, its executor's, the Python "
        f"workers'); the held task ran again under the other worker; rows a batch "
        f"{printed(output, 'BATCH_ROWS')}; {len(sink)} rows, each once; {len(orphans)} file(s) of the "
        "killed attempt left unlisted in the sink",
        file=sys.stderr,
    )
