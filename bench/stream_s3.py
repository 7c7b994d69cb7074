"""Streams from an object store (issue 39, "Speed"): a trigger's planning on a landing zone of N objects with
file events (`fileEvents=sqs`) against spark-drill's listing and Spark's own file stream source
(`spark.readStream.csv` with a schema), on moto's S3 and SQS server on 127.0.0.1, through S3A.

    python -m bench.stream_s3 --objects 10000,100000 --rounds 5 --out bench/results/issue39-s3.md

For each N a bucket gets N two-line CSV objects (`in/d=NNN/fNNNNNN.csv`, 200 prefixes) once, with its
notifications off, put through the backend of the moto server this process runs in a thread (over HTTP moto
takes some 25 ms a PUT here). Then, for each engine, in a process of its own (a JVM with the S3A jars):
- the query starts (processing-time trigger of `--interval`, `noop` sink) without reading what is there:
  spark-drill with `includeExistingFiles=false` (the files are listed once and logged as read). Spark's file
  source cannot skip them (its first micro-batch takes every file, some 370 s for 10,000 on moto), so it
  runs with `latestFirst` and `maxFilesPerTrigger=100`: a trigger takes the 100 newest files it has not read
  (the new ones once they are put, else 100 of those already there), and, with `latestFirst`, Spark keeps no
  listing from one trigger to the next: each trigger lists the whole input, as it does without these options
  once it has read what was there;
- `--rounds` times: as soon as a micro-batch has ended, 100 new objects are put (through the backend, so
  at once; with events the bucket sends their notifications to the stream's queue), and the next
  micro-batch is timed from its progress: `durationMs.latestOffset` (finding the files: listing, or the
  queue) plus `queryPlanning` and `getBatch`; and S3A's own count of LIST requests
  (`object_list_request`) from the end of one micro-batch to the end of the next, which holds one trigger.
  Spark's triggers run back to back (there are always files to take), so its LIST requests are the count
  over all its rounds divided by the triggers they span.

Medians over the rounds; each engine's figures are in `<out>.json` as measured. A round whose 100 objects
were split over two triggers (a put racing a listing) is reported and left out of the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ENGINES = ("spark-drill-events", "spark-drill-listing", "spark")
NEW_OBJECTS = 100
PREFIXES = 200
REGION = "us-east-1"
KEY = "testing"

# Targets (issue 39).
EVENTS_OVER_LISTING = 0.1  # a trigger's planning with events, at most a tenth of each listing engine's
EVENTS_GROWTH = 0.2  # ... and growing at most 20 % from the smallest landing zone to the largest


def log(*what: object) -> None:
    print("bench:", *what, file=sys.stderr, flush=True)


def csv_object(i: int) -> bytes:
    return f"id,name\n{2 * i},n{i}\n{2 * i + 1},m{i}\n".encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_moto() -> tuple[Any, str]:
    """moto's server in a thread of this process: objects are then put through its backend directly (a PUT
    over HTTP to moto takes some 25 ms here, 40 minutes for 100,000 objects), with their notifications."""
    from moto.moto_server.threaded_moto_server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    return server, f"http://127.0.0.1:{port}"


def put_objects(bucket: str, ids: Sequence[int]) -> None:
    """Objects `in/d=NNN/fNNNNNN.csv` through moto's backend, each with its notification (if configured)."""
    from moto.core.models import DEFAULT_ACCOUNT_ID
    from moto.s3.models import s3_backends

    backend = s3_backends[DEFAULT_ACCOUNT_ID]["aws"]
    for i in ids:
        backend.put_object(bucket, f"in/d={i % PREFIXES:03}/f{i:06}.csv", csv_object(i))


def s3_jars() -> str:
    """S3A's jars (dev/s3-jars fetches them once), comma-separated for `spark.jars`."""
    found = subprocess.run(["dev/s3-jars", "--comma"], check=True, capture_output=True, text=True)
    return found.stdout.strip()


def clients(endpoint: str) -> tuple[Any, Any]:
    import boto3  # type: ignore[import-untyped]
    from botocore.config import Config  # type: ignore[import-untyped]

    common = {
        "endpoint_url": endpoint,
        "region_name": REGION,
        "aws_access_key_id": KEY,
        "aws_secret_access_key": KEY,
    }
    s3 = boto3.client("s3", config=Config(s3={"addressing_style": "path"}, max_pool_connections=32), **common)
    return s3, boto3.client("sqs", **common)


# A worker's Spark session on moto through S3A, once its script has set `endpoint`, `jars` and `bucket`; and
# `put`, which asks the parent for 100 new objects.
WORKER_SESSION = r"""
import sys
import spark_drill as sd

def put(first):
    # The parent puts them (through moto's backend, at once) and answers when they are there.
    print("put", first, flush=True)
    assert sys.stdin.readline().strip() == "done"


spark = sd.session(master="local[2]", **{
    "spark.jars": jars, "spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "false",
    "spark.driver.memory": "3g", "spark.sql.shuffle.partitions": "2",
    "spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1",
    "spark.sql.streaming.numRecentProgressUpdates": "100000",
    "spark.hadoop.fs.s3a.endpoint": endpoint, "spark.hadoop.fs.s3a.endpoint.region": "us-east-1",
    "spark.hadoop.fs.s3a.path.style.access": "true", "spark.hadoop.fs.s3a.connection.ssl.enabled": "false",
    "spark.hadoop.fs.s3a.access.key": "testing", "spark.hadoop.fs.s3a.secret.key": "testing",
    "spark.hadoop.fs.s3a.aws.credentials.provider": "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider"})
spark.sparkContext.setLogLevel("ERROR")
SCHEMA = "id INT, name STRING"
path = f"s3a://{bucket}/in/"
"""

WORKER = (
    r"""
import json, os, sys, time

engine, endpoint, jars, bucket, queue_url, objects, rounds, interval, first_id, chk = sys.argv[1:11]
objects, rounds, first_id = int(objects), int(rounds), int(first_id)
"""
    + WORKER_SESSION
    + r"""

def lists():
    jvm = spark.sparkContext._jvm
    fs = jvm.org.apache.hadoop.fs.Path(path).getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    value = fs.getIOStatistics().counters().get("object_list_request")
    return int(value) if value is not None else 0

if engine == "spark":
    df = (spark.readStream.schema(SCHEMA).option("header", "true").option("latestFirst", "true")
          .option("maxFilesPerTrigger", "100").csv(path))
else:
    r = sd.read_stream(spark, path, schema=SCHEMA, header=True, include_existing_files=False,
                       **(dict(file_events="sqs", queue_url=queue_url) if engine.endswith("events") else {}))
    df = r
q = (df.writeStream.format("noop").option("checkpointLocation", chk)
     .trigger(processingTime=interval).start())

def progresses():
    return [json.loads(p.json) for p in q.recentProgress]

def wait_batches(count, timeout=3600):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ps = progresses()
        if len(ps) >= count:
            return ps
        if q.exception() is not None:
            raise RuntimeError(str(q.exception()))
        time.sleep(0.02)
    raise TimeoutError("no progress")

t0 = time.monotonic()
wait_batches(1)
started = round(time.monotonic() - t0, 1)
print("bench:", engine, objects, "started in", started, "s", file=sys.stderr, flush=True)
out = {"engine": engine, "objects": objects, "rounds": []}
next_id = first_id
lists_start, triggers_start = lists(), len(progresses())
for k in range(rounds):
    before = len(progresses())
    lists_before = lists()
    put(next_id)
    next_id += 100
    ps = wait_batches(before + 1)
    p = ps[before]
    d = p["durationMs"]
    metrics = dict(p["sources"][0].get("metrics") or {})
    got = {"rows": p["numInputRows"], "latestOffset": d.get("latestOffset", 0),
           "queryPlanning": d.get("queryPlanning", 0), "getBatch": d.get("getBatch", 0),
           "triggerExecution": d.get("triggerExecution", 0), "lists": lists() - lists_before,
           "listingTimeMs": metrics.get("listingTimeMs"), "numFilesListed": metrics.get("numFilesListed")}
    # A split round: the rest of its objects come in the next trigger; wait for it so rounds stay apart.
    if got["rows"] < 200:
        wait_batches(before + 2)
    print("bench:", engine, objects, "round", k, json.dumps(got), file=sys.stderr, flush=True)
    out["rounds"].append(got)
if engine == "spark":
    per_trigger = (lists() - lists_start) / max(1, len(progresses()) - triggers_start)
    for got in out["rounds"]:
        got["lists"] = per_trigger
q.stop()
print(json.dumps(out))
"""
)


def run_worker(bucket: str, *args: str, script: str = WORKER) -> dict[str, Any]:
    """Runs a worker (a Python script); puts the objects it asks for (`put <first id>`) and answers `done`."""
    with subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as worker:
        assert worker.stderr is not None and worker.stdout is not None and worker.stdin is not None
        tail: list[str] = []

        def errors() -> None:
            nonlocal tail
            assert worker.stderr is not None
            for line in worker.stderr:
                if line.startswith("bench:"):
                    print(line.rstrip(), file=sys.stderr, flush=True)
                else:
                    tail = [*tail[-60:], line]

        import threading

        reader = threading.Thread(target=errors, daemon=True)
        reader.start()
        last = ""
        for line in worker.stdout:
            if line.startswith("put "):
                first = int(line.split()[1])
                put_objects(bucket, range(first, first + NEW_OBJECTS))
                worker.stdin.write("done\n")
                worker.stdin.flush()
            elif line.strip():
                last = line
        worker.wait()
        reader.join(timeout=10)
    if worker.returncode != 0:
        raise RuntimeError("".join(tail))
    result: dict[str, Any] = json.loads(last)
    return result


def planning(r: dict[str, Any]) -> float:
    return float(r["latestOffset"]) + float(r["queryPlanning"]) + float(r["getBatch"])


def summary(result: dict[str, Any]) -> dict[str, Any]:
    whole = [r for r in result["rounds"] if r["rows"] == 2 * NEW_OBJECTS]
    return {
        "planning_ms": statistics.median(planning(r) for r in whole) if whole else None,
        "latest_offset_ms": statistics.median(float(r["latestOffset"]) for r in whole) if whole else None,
        "lists": statistics.median(r["lists"] for r in whole) if whole else None,
        "rounds": len(result["rounds"]),
        "split": len(result["rounds"]) - len(whole),
    }


def measure(
    endpoint: str,
    jars: str,
    counts: Sequence[int],
    engines: Sequence[str],
    rounds: int,
    interval: str,
    results: dict[str, Any],
) -> None:
    s3, sqs = clients(endpoint)
    for count in counts:
        bucket = f"landing-{count}"
        s3.create_bucket(Bucket=bucket)
        t = time.monotonic()
        s3.put_bucket_notification_configuration(Bucket=bucket, NotificationConfiguration={})
        put_objects(bucket, range(count))
        log(f"{count} objects put in {time.monotonic() - t:.0f} s")
        next_id = count
        for engine in engines:
            queue_url = ""
            config: dict[str, Any] = {}
            if engine == "spark-drill-events":
                queue_url = sqs.create_queue(QueueName=f"events-{count}")["QueueUrl"]
                arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"][
                    "QueueArn"
                ]
                config = {"QueueConfigurations": [{"QueueArn": arn, "Events": ["s3:ObjectCreated:*"]}]}
            s3.put_bucket_notification_configuration(Bucket=bucket, NotificationConfiguration=config)
            chk = tempfile.mkdtemp(prefix=f"bench-s3-{engine}-")
            try:
                raw = run_worker(
                    bucket,
                    engine,
                    endpoint,
                    jars,
                    bucket,
                    queue_url,
                    str(count),
                    str(rounds),
                    interval,
                    str(next_id),
                    chk,
                )
            finally:
                shutil.rmtree(chk, ignore_errors=True)
            next_id += NEW_OBJECTS * rounds
            results.setdefault(str(count), {})[engine] = {"raw": raw, **summary(raw)}


def fmt(v: float | None, digits: int = 0) -> str:
    return "-" if v is None else f"{v:,.{digits}f}"


def markdown(results: dict[str, Any]) -> str:
    counts = sorted(int(c) for c in results["figures"])
    lines = [
        "# Streams from an object store: file events against listings (issue 39)",
        "",
        f"Machine: {results['machine']}. Commands: " + "; ".join(f"`{c}`" for c in results["commands"]),
        "",
        "moto's S3 and SQS server on 127.0.0.1, S3A (hadoop-aws 3.5.0, AWS SDK 2.35.4), `local[2]`. "
        f"A trigger that takes {NEW_OBJECTS} new objects, medians over the rounds "
        "(`--rounds`, split rounds left out): "
        "planning is `latestOffset + queryPlanning + getBatch` of its progress; LIST requests are S3A's "
        "`object_list_request` over that one trigger.",
        "",
        "| objects already there | engine | planning, ms | latestOffset, ms | LIST requests per trigger "
        "| rounds (split) |",
        "| ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for count in counts:
        for engine, f in results["figures"][str(count)].items():
            lines.append(
                f"| {count:,} | {engine} | {fmt(f['planning_ms'])} | {fmt(f['latest_offset_ms'])} | "
                f"{fmt(f['lists'])} | {f['rounds']} ({f['split']}) |"
            )
    lines += ["", "## Targets", ""]
    for count in counts:
        figures = results["figures"][str(count)]
        events = figures.get("spark-drill-events", {}).get("planning_ms")
        for other in ("spark-drill-listing", "spark"):
            theirs = figures.get(other, {}).get("planning_ms")
            if events is not None and theirs:
                ratio = events / theirs
                # The issue sets the target on the largest landing zone; smaller ones are for the trend.
                if count == counts[-1]:
                    ok = "met" if ratio <= EVENTS_OVER_LISTING else "NOT met"
                    verdict = f"(target at most {EVENTS_OVER_LISTING}): {ok}"
                else:
                    verdict = "(the target is set on the largest landing zone)"
                lines.append(
                    f"- {count:,} objects: events over {other}: {events:,.0f} / {theirs:,.0f} ms = "
                    f"{ratio:.3f} {verdict}"
                )
            elif events is not None and count == counts[-1]:
                lines.append(f"- {count:,} objects: events over {other}: not measured at this size")
        lists = figures.get("spark-drill-events", {}).get("lists")
        if lists is not None:
            lines.append(
                f"- {count:,} objects: LIST requests per trigger with events: {lists:.0f} (target 0)"
            )
    if len(counts) > 1:
        small = results["figures"][str(counts[0])].get("spark-drill-events", {}).get("planning_ms")
        large = results["figures"][str(counts[-1])].get("spark-drill-events", {}).get("planning_ms")
        if small and large:
            growth = large / small - 1
            ok = "met" if growth <= EVENTS_GROWTH else "NOT met"
            lines.append(
                f"- events, {counts[0]:,} to {counts[-1]:,} objects: {small:,.0f} to {large:,.0f} ms, "
                f"{growth:+.0%} (target at most +{EVENTS_GROWTH:.0%}): {ok}"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--objects", default="10000,100000", help="landing zones, objects already there")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--interval", default="5 seconds", help="the queries' processing-time trigger")
    parser.add_argument("--out", default="bench/results/issue39-s3.md")
    args = parser.parse_args()
    jars = s3_jars()
    saved = Path(args.out).with_suffix(".json")
    results: dict[str, Any] = json.loads(saved.read_text()) if saved.exists() else {}
    command = "python -m bench.stream_s3 " + " ".join(sys.argv[1:])
    results["commands"] = [c for c in results.get("commands", []) if c != command] + [command]
    results["machine"] = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    server, endpoint = start_moto()
    try:
        measure(
            endpoint,
            jars,
            [int(c) for c in args.objects.split(",")],
            args.engines.split(","),
            args.rounds,
            args.interval,
            results.setdefault("figures", {}),
        )
    finally:
        server.stop()
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_text(json.dumps(results, indent=1))
    text = markdown(results)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
