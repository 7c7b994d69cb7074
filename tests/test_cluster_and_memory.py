"""The jar on a real multi-JVM standalone cluster, and no off-heap memory left behind after many queries."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SAMPLES
from spark_cluster import spark_env, standalone_cluster, submit

pytestmark = pytest.mark.slow

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


@pytest.mark.cluster
def test_standalone_cluster_matches_local_mode(tmp_path: Path) -> None:
    with standalone_cluster(tmp_path) as cluster:
        on_cluster = submit(tmp_path, cluster.master_url, APP, str(SAMPLES))
    local = submit(tmp_path, "local[2]", APP, str(SAMPLES))
    result = re.search(r"^RESULT (.*)$", on_cluster, re.M)
    assert result is not None, on_cluster
    assert result.group(1) == re.search(r"^RESULT (.*)$", local, re.M).group(1)  # type: ignore[union-attr]
    assert "('5', 'dee', '2025', 'events.csv')" in result.group(1)
    executors = re.search(r"^EXECUTORS (\d+)$", on_cluster, re.M)
    assert executors is not None and int(executors.group(1)) >= 2, "driver plus a worker's executor"


STREAM_APP = """
import json, sys
from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
src, chk, out = sys.argv[1:4]
stream = (spark.readStream.format("drill").option("header", "true").option("inferTypes", "true")
          .option("schemaLocation", chk + "/_schemas").option("maxFilesPerTrigger", "2").load(src))
query = (stream.writeStream.format("parquet").option("checkpointLocation", chk)
         .trigger(availableNow=True).start(out))
assert query.awaitTermination(300), "the stream did not end"
assert query.exception() is None, str(query.exception())
progress = [p if isinstance(p, dict) else json.loads(p.json) for p in query.recentProgress]
columns = ["id", "user", "duration_ms", "dir0", "dir1"]
batch = spark.read.format("drill").option("header", "true").option("inferTypes", "true").load(src)
print("EXECUTORS", spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size())
print("ROWS", [p["numInputRows"] for p in progress if p["numInputRows"]])
print("STATE", spark.read.format("drill-state").load(chk).count())
print("SINK", sorted(tuple(r) for r in spark.read.parquet(out).select(columns).collect()))
print("BATCH", sorted(tuple(r) for r in batch.select(columns).collect()))
spark.stop()
"""


@pytest.mark.cluster
def test_an_available_now_stream_on_the_cluster_equals_a_batch_read(tmp_path: Path) -> None:
    # The executors read the files and write the Parquet files; the driver keeps the stream's state.
    landing = tmp_path / "landing"
    shutil.copytree(SAMPLES, landing)
    chk, out = tmp_path / "chk", tmp_path / "out"
    with standalone_cluster(tmp_path) as cluster:
        on_cluster = submit(tmp_path, cluster.master_url, STREAM_APP, str(landing), str(chk), str(out))
    found = {
        k: re.search(rf"^{k} (.*)$", on_cluster, re.M)
        for k in ("EXECUTORS", "ROWS", "STATE", "SINK", "BATCH")
    }
    assert all(found.values()), on_cluster
    lines = {k: m.group(1) for k, m in found.items() if m is not None}
    assert int(lines["EXECUTORS"]) >= 2, "driver plus a worker's executor"
    rows = [int(n) for n in lines["ROWS"].strip("[]").split(",")]
    assert len(rows) == 2 and sum(rows) == 6, f"four files, two a micro-batch: {rows}"
    assert lines["STATE"] == "4", "the state lists the four files read"
    assert lines["SINK"] == lines["BATCH"], on_cluster
    assert "(5, 'dee', None, '2025', None)" in lines["SINK"]
    assert (chk / "sources" / "0" / "drill" / "metadata.json").exists()


KILL_APP = """
import subprocess, sys, threading, time
from pyspark.sql import SparkSession
spark = SparkSession.builder.config("spark.sql.files.maxPartitionBytes", str(2 << 20)).getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
sc = spark.sparkContext
killed = []

def kill_mid_scan():
    # Waits until the scan's stage has finished a few tasks with more to go, then kills the executor's JVM.
    for _ in range(6000):
        for stage in sc.statusTracker().getActiveStageIds():
            info = sc.statusTracker().getStageInfo(stage)
            if info and info.numCompletedTasks >= 4 and info.numCompletedTasks < info.numTasks - 4:
                subprocess.run(["pkill", "-9", "-f", "--", "--app-id " + sc.applicationId])
                killed.append(stage)
                return
        time.sleep(0.02)

if sys.argv[2] == "kill":
    threading.Thread(target=kill_mid_scan, daemon=True).start()
df = spark.read.format("drill").option("header", "true").option("inferTypes", "true").load(sys.argv[1])
rows = df.groupBy("filename").agg({"*": "count", "n": "sum", "text": "max"}).orderBy("filename").collect()
print("PARTITIONS", df.rdd.getNumPartitions())
print("RESULT", [tuple(r) for r in rows])
if killed:
    print("FAILED_TASKS", sc.statusTracker().getStageInfo(killed[0]).numFailedTasks)
spark.stop()
"""


@pytest.mark.cluster
def test_an_executor_killed_mid_scan_is_retried_and_the_result_is_unchanged(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    for f in range(12):
        body = "".join(f"{i},{f}-{'x' * (i % 90)},{(i * 7 + f) % 1000}\n" for i in range(40_000))
        (data / f"part-{f:02}.csv").write_text("id,text,n\n" + body)
    with standalone_cluster(tmp_path) as cluster:
        on_cluster = submit(tmp_path, cluster.master_url, KILL_APP, str(data), "kill")
        log = cluster.workers[0].log.read_text()
    local = submit(tmp_path, "local[2]", KILL_APP, str(data), "keep")
    failed = re.search(r"^FAILED_TASKS (\d+)$", on_cluster, re.M)
    assert failed is not None, f"the executor was never killed mid-scan: {on_cluster}"
    assert int(failed.group(1)) >= 1, "the killed executor's task failed and was retried"
    assert "Lost executor 0 on 127.0.0.1" in on_cluster, "the driver saw the executor go"
    assert re.search(r"Executor app-\S+/0 finished with state", log), log[-3000:]
    assert re.search(r"Asked to launch executor app-\S+/1 ", log), "the worker started a second executor"
    partitions = re.search(r"^PARTITIONS (\d+)$", on_cluster, re.M)
    assert partitions is not None and int(partitions.group(1)) >= 12, on_cluster
    result = re.search(r"^RESULT (.*)$", on_cluster, re.M)
    assert result is not None and "part-11.csv" in result.group(1), on_cluster
    assert result.group(1) == re.search(r"^RESULT (.*)$", local, re.M).group(1)  # type: ignore[union-attr]
    print(
        f"executor killed mid-scan: {failed.group(1)} task(s) failed and ran again, "
        f"{partitions.group(1)} splits, rows equal to local[2]",
        file=sys.stderr,
    )


LEAK_APP = """
import re, subprocess, sys, threading, time
import spark_drill as sd
spark = sd.session(master="local[2]", **{
    "spark.ui.enabled": "false",
    "spark.driver.extraJavaOptions": "-XX:NativeMemoryTracking=summary",
})
spark.sparkContext.setLogLevel("OFF")
pid = spark._jvm.java.lang.ProcessHandle.current().pid()
root = sys.argv[1]

def other_kb():
    command = ["jcmd", str(pid), "VM.native_memory", "summary"]
    out = subprocess.run(command, capture_output=True, text=True).stdout
    return int(re.search(r"Other \\(reserved=\\d+KB, committed=(\\d+)KB\\)", out).group(1))

def csv():
    return spark.read.format("drill").option("header", "true").load(root + "/csv")

def kind(i):
    return ["count", "filter", "json", "group", "limit", "typed", "fails", "cancelled"][i % 8]

outcomes = {"ok": 0, "failed": 0, "cancelled": 0}

def query(i):
    k = kind(i)
    if k == "count":
        assert csv().count() == 20000
    elif k == "filter":
        assert csv().where(f"n >= '{i % 7}'").select("text").count() > 0
    elif k == "json":
        df = spark.read.format("drill").load(root + "/json")
        assert df.select("s.t", "xs").where("id % 3 = 0").count() > 0
    elif k == "group":
        assert len(csv().groupBy("filename").count().collect()) == 4
    elif k == "limit":
        assert len(csv().limit(5).collect()) == 5
    elif k == "typed":
        df = spark.read.format("drill").options(header="true", inferTypes="true").load(root + "/csv")
        assert df.selectExpr("sum(m)").collect()[0][0] > 0
    elif k == "fails":
        df = spark.read.format("drill").option("header", "true").option("mode", "FAILFAST")
        df = df.option("providedSchema", "n INT").load(root + "/bad")
        try:
            df.collect()
            raise AssertionError("the bad file read")
        except sd.ScanError:
            outcomes["failed"] += 1
            return
    else:
        # Cancelled while its tasks scan: a thread waits for the job to start, then cancels its group.
        sc = spark.sparkContext
        group = f"cancel-{i}"
        def cancel():
            for _ in range(1000):
                if sc.statusTracker().getJobIdsForGroup(group):
                    time.sleep((i % 5) * 0.02)
                    sc.cancelJobGroup(group)
                    return
                time.sleep(0.01)
        sc.setJobGroup(group, "cancelled on purpose", interruptOnCancel=True)
        timer = threading.Thread(target=cancel, daemon=True)
        timer.start()
        try:
            spark.read.format("drill").option("header", "true").load(root + "/big").selectExpr(
                "sum(length(text))").collect()
        except Exception as e:
            assert "cancel" in str(e).lower(), str(e)[:500]
            outcomes["cancelled"] += 1
            return
        finally:
            timer.join(15)
            sc.setJobGroup("after", "", False)
    outcomes["ok"] += 1

for i in range(40):
    query(i)
baseline = other_kb()
for i in range(500):
    query(i)
after = other_kb()
print("OUTCOMES", outcomes["ok"], outcomes["failed"], outcomes["cancelled"])
print("OTHER_KB", baseline, after)
spark.stop()
"""


def test_off_heap_memory_returns_to_baseline_after_500_mixed_queries(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for name in ("csv", "json", "bad", "big"):
        (data / name).mkdir(parents=True)
    for f in range(4):
        body = "".join(f"{i},{'x' * (i % 50)},{i * 7}\n" for i in range(5000))
        (data / "csv" / f"part-{f}.csv").write_text("n,text,m\n" + body)
    records = (f'{{"id": {i}, "s": {{"t": "x{i}"}}, "xs": [{i}, 2]}}\n' for i in range(5000))
    (data / "json" / "a.json").write_text("".join(records))
    (data / "bad" / "a.csv").write_text("n\n" + "1\n" * 9000 + "oops\n")
    for f in range(2):
        (data / "big" / f"part-{f}.csv").write_text("n,text\n" + f"1,{'y' * 100}\n" * 400_000)
    app = tmp_path / "leak.py"
    app.write_text(LEAK_APP)
    result = subprocess.run(
        [sys.executable, str(app), str(data)], capture_output=True, text=True, timeout=900, env=spark_env()
    )
    assert result.returncode == 0, result.stderr[-4000:]
    outcomes = re.search(r"OUTCOMES (\d+) (\d+) (\d+)", result.stdout)
    assert outcomes is not None, result.stdout
    ok, failed, cancelled = (int(g) for g in outcomes.groups())
    kinds = [i % 8 for i in [*range(40), *range(500)]]
    assert ok + failed + cancelled == 540 and failed == kinds.count(6)
    assert cancelled >= kinds.count(7) * 3 // 4, f"cancellations should hit a running scan, {cancelled} did"
    found = re.search(r"OTHER_KB (\d+) (\d+)", result.stdout)
    assert found is not None, result.stdout
    baseline, after = int(found.group(1)), int(found.group(2))
    # Each query allocates several MB of vectors (4 files x 3 columns x 4096 rows); 500 leaked queries, or a
    # failed or cancelled scan that kept its vectors, would add hundreds of MB to the JVM's "Other" (Unsafe)
    # native memory.
    print(
        f"off-heap 'Other': {baseline} KB after 40 warm-up queries, {after} KB after 500 more "
        f"({ok} ok, {failed} failed, {cancelled} cancelled)",
        file=sys.stderr,
    )
    assert after - baseline < 16 * 1024, f"off-heap grew from {baseline} KB to {after} KB"


BIG_APP = """
import sys, time
import spark_drill as sd
spark = sd.session(master="local[2]", **{"spark.ui.enabled": "false", "spark.driver.memory": "1g"})
spark.sparkContext.setLogLevel("OFF")
print("HEAP_MB", spark._jvm.java.lang.Runtime.getRuntime().maxMemory() // (1 << 20))
started = time.monotonic()
df = spark.read.format("drill").option("header", "true").option("inferTypes", "true").load(sys.argv[1])
print("PARTITIONS", df.rdd.getNumPartitions())
row = df.selectExpr("count(*)", "sum(n)", "max(length(text))").collect()[0]
print("CSV", row[0], row[1], row[2], round(time.monotonic() - started, 1))
for mode in ["PERMISSIVE", "DROPMALFORMED", "FAILFAST"]:
    try:
        spark.read.format("drill").option("mode", mode).load(sys.argv[2]).collect()
        print("JSON", mode, "read")
    except sd.ScanError as e:
        print("JSON", mode, "line", e.line, "|", str(e).splitlines()[0][:300])
spark.stop()
"""


def test_a_2_gib_csv_splits_in_a_1_gib_driver_and_a_200_mb_json_record_fails_clearly(tmp_path: Path) -> None:
    csv = tmp_path / "big.csv"
    rows = 10_000
    block = "".join(f"{i},{'t' * (i % 200)},{i % 1000}\n" for i in range(rows)).encode()
    copies = -(-(2 << 30) // len(block))  # just over 2 GiB
    with csv.open("wb") as out:
        out.write(b"id,text,n\n")
        for _ in range(copies):
            out.write(block)
    json = tmp_path / "big.json"
    with json.open("w") as out:
        out.write('{"id": 1}\n{"id": 2, "a": [')
        out.write(", ".join(["1234567"] * 22_000_000))  # 198 MB on one line
        out.write(']}\n{"id": 3}\n')
    app = tmp_path / "big.py"
    app.write_text(BIG_APP)
    result = subprocess.run(
        [sys.executable, str(app), str(csv), str(json)],
        capture_output=True,
        text=True,
        timeout=900,
        env=spark_env(),
    )
    assert result.returncode == 0, result.stderr[-4000:]
    out = result.stdout
    heap = re.search(r"^HEAP_MB (\d+)$", out, re.M)
    assert heap is not None and int(heap.group(1)) <= 1024, out
    partitions = re.search(r"^PARTITIONS (\d+)$", out, re.M)
    assert partitions is not None and int(partitions.group(1)) >= 16, out  # 128 MiB splits
    counted = re.search(r"^CSV (\d+) (\d+) (\d+) ([\d.]+)$", out, re.M)
    assert counted is not None, out
    assert int(counted.group(1)) == rows * copies
    assert int(counted.group(2)) == copies * sum(i % 1000 for i in range(rows))
    assert int(counted.group(3)) == 199
    print(f"2 GiB CSV in a 1 GiB driver: {counted.group(4)} s, {partitions.group(1)} splits", file=sys.stderr)
    for mode in ("PERMISSIVE", "DROPMALFORMED", "FAILFAST"):
        line = re.search(rf"^JSON {mode} (.*)$", out, re.M)
        assert line is not None, out
        assert line.group(1).startswith("line 2 |"), line.group(1)
        assert "a JSON record is larger than maxRecordBytes (134217728 bytes)" in line.group(1)
        assert "big.json" in line.group(1)
    assert "OutOfMemoryError" not in result.stderr
