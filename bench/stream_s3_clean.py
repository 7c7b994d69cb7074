"""Streams from an object store (issue 39, "Speed"): what cleaning 10,000 committed files (`cleanSource`)
costs the triggers that run meanwhile, on moto's S3 and SQS server on 127.0.0.1, through S3A.

    python -m bench.stream_s3_clean --files 10000 --mode delete --out bench/results/issue39-s3-clean.md

A bucket gets `--files` two-line CSV objects (as bench.stream_s3 puts them), and a stream with file events
(`fileEvents=sqs`) reads them all (`Trigger.AvailableNow`; its first start lists them once). Then, in the
same JVM and on the same checkpoint, the stream runs with a processing-time trigger of `--interval` and a
`noop` sink, each trigger taking 100 new objects (put as soon as the last micro-batch ended, their
notifications sent to the queue), in blocks of `--rounds` triggers, each block a query of its own:
- a block without cleaning, then a block with `cleanSource=--mode` and a retention of 0 s (every file read
  is due at once), again and again until the cleaning has done the files there at the start (drill-state
  says; or `--max-rounds` triggers with cleaning); the new files are cleaned too as they commit;
- a last block without cleaning.
Alternating blocks put a drift of the machine over the bench on both sides alike (a first version ran one
long run with cleaning between two without: the second without ran twice as slow as the first).

Each trigger is timed from its progress (`durationMs.triggerExecution`, and planning: `latestOffset +
queryPlanning + getBatch`). The target: no trigger with cleaning more than 10 % over one without, read as
the median and the 90th percentile of the triggers with cleaning against those without (the maximum of a
few dozen triggers is one stall of the machine; it is reported beside).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.stream_s3 import WORKER_SESSION, clients, log, put_objects, run_worker, s3_jars, start_moto

TARGET = 0.1  # a trigger with cleaning at most 10 % over one without

WORKER = (
    r"""
import json, sys, time

endpoint, jars, bucket, queue_url, files, rounds, max_rounds, interval, first_id, chk, mode = sys.argv[1:12]
files, rounds, max_rounds, next_id = int(files), int(rounds), int(max_rounds), int(first_id)
"""
    + WORKER_SESSION
    + r"""
def log(*what):
    print("bench:", *what, file=sys.stderr, flush=True)

def writer(**clean):
    r = sd.read_stream(spark, path, schema=SCHEMA, header=True, file_events="sqs", queue_url=queue_url,
                       **clean)
    return r.writeStream.format("noop").option("checkpointLocation", chk)

def progresses(q):
    return [json.loads(p.json) for p in q.recentProgress]

def next_batch(q, seen, timeout=3600):
    # The next progress of a micro-batch that read rows, after the first `seen`.
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ps = progresses(q)
        for i in range(seen, len(ps)):
            if ps[i]["numInputRows"] > 0:
                return i, ps[i]
        if q.exception() is not None:
            raise RuntimeError(str(q.exception()))
        time.sleep(0.02)
    raise TimeoutError("no micro-batch")

t0 = time.monotonic()
q = writer().trigger(availableNow=True).start()
q.awaitTermination(7200)
read = sum(p["numInputRows"] for p in progresses(q))
log("read", read, "rows of", files, "files in", round(time.monotonic() - t0), "s")
assert read == 2 * files, read

def cleaned_so_far():
    # What drill-state says was archived or deleted (a stop records the round it waited for).
    state = spark.read.format("drill-state").load(chk)
    return state.filter("archive_time IS NOT NULL").count()

def run(name, clean, triggers):
    global next_id
    options = dict(clean_source=mode, clean_source_retention="0s") if clean else {}
    if clean and mode == "archive":
        options["clean_source_archive_dir"] = f"s3a://{bucket}/archive/"
    q = writer(**options).trigger(processingTime=interval).start()
    started = time.monotonic()
    seen = 0
    out = []
    try:
        for k in range(triggers):
            put(next_id)
            next_id += 100
            seen, p = next_batch(q, seen)
            seen += 1
            d = p["durationMs"]
            m = p["sources"][0].get("metrics") or {}
            got = {"rows": p["numInputRows"], "triggerExecution": d.get("triggerExecution", 0),
                   "planning": d.get("latestOffset", 0) + d.get("queryPlanning", 0) + d.get("getBatch", 0),
                   "at_s": round(time.monotonic() - started, 1)}
            log(name, k, json.dumps(got))
            out.append(got)
    finally:
        q.stop()
    return out

# Blocks of `rounds` triggers, without cleaning then with, until the cleaning has done the files there at the
# start (or `max_rounds` triggers with it), then a last block without: a drift of the machine over the bench
# falls on both alike.
result = {"files": files, "mode": mode, "interval": interval, "block": rounds, "without": [], "with": []}
started = time.monotonic()
cleaned = 0
while cleaned < files and len(result["with"]) < max_rounds:
    result["without"] += run("without", False, rounds)
    result["with"] += run("with", True, rounds)
    cleaned = cleaned_so_far()
    log("cleaned", cleaned, "after", round(time.monotonic() - started), "s")
result["without"] += run("without", False, rounds)
result["cleaned"] = cleaned
result["cleaning_s"] = round(time.monotonic() - started)
print(json.dumps(result))
"""
)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def figures(rounds: list[dict[str, Any]], key: str) -> dict[str, float]:
    values = [float(r[key]) for r in rounds]
    return {
        "median": statistics.median(values),
        "p90": percentile(values, 0.9),
        "max": max(values),
        "n": len(values),
    }


def markdown(command: str, machine: str, r: dict[str, Any]) -> str:
    lines = [
        "# Streams from an object store: what cleaning costs the triggers (issue 39)",
        "",
        f"Machine: {machine}. Command: `{command}`",
        "",
        f"moto's S3 and SQS server on 127.0.0.1, S3A, `local[2]`, file events, a processing-time trigger of "
        f"{r['interval']}; each trigger takes 100 new objects. Blocks of {r['block']} triggers without "
        f"cleaning and with `cleanSource={r['mode']}` (retention 0 s) alternate, each a query started on the "
        f"same checkpoint, until the cleaning has done the {r['files']:,} committed files there at the start "
        f"({r['cleaned']:,} files cleaned in {r['cleaning_s']:,} s, {len(r['with'])} triggers with "
        "cleaning), then a last block without.",
        "",
        "| run | triggers | triggerExecution median, ms | p90 | max | planning median, ms | p90 |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, rounds in (("without cleaning", r["without"]), (f"cleanSource={r['mode']}", r["with"])):
        t = figures(rounds, "triggerExecution")
        p = figures(rounds, "planning")
        lines.append(
            f"| {name} | {t['n']:.0f} | {t['median']:,.0f} | {t['p90']:,.0f} | {t['max']:,.0f} | "
            f"{p['median']:,.0f} | {p['p90']:,.0f} |"
        )
    lines += ["", "## Target", ""]
    for key, what in (("triggerExecution", "a trigger"), ("planning", "a trigger's planning")):
        w, o = figures(r["with"], key), figures(r["without"], key)
        for stat in ("median", "p90"):
            ratio = w[stat] / o[stat]
            ok = "met" if ratio <= 1 + TARGET else "NOT met"
            lines.append(
                f"- {what}, {stat}: {w[stat]:,.0f} ms with cleaning over {o[stat]:,.0f} ms without = "
                f"{ratio:.3f} (target at most {1 + TARGET:.1f}): {ok}"
            )
        lines.append(f"- {what}, max: {w['max']:,.0f} ms with cleaning, {o['max']:,.0f} ms without")
    done = "every file" if r["cleaned"] >= r["files"] else f"NOT all: {r['cleaned']:,} of {r['files']:,}"
    lines.append(f"- cleaned: {done}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--files", type=int, default=10_000, help="committed files to clean")
    parser.add_argument("--mode", choices=("delete", "archive"), default="delete")
    parser.add_argument("--rounds", type=int, default=6, help="triggers in a block")
    parser.add_argument("--max-rounds", type=int, default=300, help="triggers with cleaning, at most")
    parser.add_argument("--interval", default="10 seconds", help="the queries' processing-time trigger")
    parser.add_argument("--out", default="bench/results/issue39-s3-clean.md")
    args = parser.parse_args()
    jars = s3_jars()
    command = "python -m bench.stream_s3_clean " + " ".join(sys.argv[1:])
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    server, endpoint = start_moto()
    chk = tempfile.mkdtemp(prefix="bench-s3-clean-")
    try:
        s3, sqs = clients(endpoint)
        bucket = "clean"
        s3.create_bucket(Bucket=bucket)
        put_objects(bucket, range(args.files))
        queue_url = sqs.create_queue(QueueName="clean-events")["QueueUrl"]
        attributes = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])["Attributes"]
        notify = [{"QueueArn": attributes["QueueArn"], "Events": ["s3:ObjectCreated:*"]}]
        s3.put_bucket_notification_configuration(
            Bucket=bucket, NotificationConfiguration={"QueueConfigurations": notify}
        )
        log(f"{args.files} objects put; the stream reads them")
        result = run_worker(
            bucket,
            endpoint,
            jars,
            bucket,
            queue_url,
            str(args.files),
            str(args.rounds),
            str(args.max_rounds),
            args.interval,
            str(args.files),
            chk,
            args.mode,
            script=WORKER,
        )
    finally:
        server.stop()
        shutil.rmtree(chk, ignore_errors=True)
    saved = Path(args.out).with_suffix(".json")
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_text(json.dumps({"command": command, "machine": machine, **result}, indent=1))
    text = markdown(command, machine, result)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
