"""Schema evolution in streams (issue 28, "Speed"): the time from a file landing to its rows in the sink
under `spark-drill ingest --every 5s` (which runs `sd.run_stream`), for a file with the stream's columns and
for one that brings a new column, which stops the query and has it rebuilt and restarted.

    python -m bench.evolution --rounds 8 --out bench/results/issue28-evolution.md

One `spark-drill ingest SRC OUT --checkpoint CHK --every 5s --to json` process runs throughout. Each round
lands, in turn, into the landing directory (written to a hidden name, then renamed, as a careful producer
does):
- `plain`: a CSV file with the stream's columns;
- `csv-new`: a CSV file whose header has a new column (the barrier: the micro-batch before it commits, the
  next version is written, the query stops, run_stream builds and starts it again);
- `json-new`: a JSON file whose new member first appears past the two-record discovery sample
  (`-o sampleRows=2`): the task that meets it writes the version and stops the micro-batch before it commits.
The sink's part files are read every 50 ms until the file's rows are there (each row has an id no other file
has). A file lands once the previous one is in the sink, after a pause drawn uniformly from one trigger
interval (seeded), so that landings fall anywhere between two triggers: a file waits for its trigger half an
interval on average, and the difference between the kinds' medians is what a schema change costs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from spark_drill._cli_ingest import parse_duration

POLL_S = 0.05
TIMEOUT_S = 120.0
KINDS = ("plain", "csv-new", "json-new")


def land(src: Path, name: str, text: str) -> float:
    """Writes `name` whole under a hidden name, renames it in, and returns the moment it landed."""
    temp = src / f".{name}.tmp"
    temp.write_text(text)
    os.replace(temp, src / name)
    return time.monotonic()


def ids_in(out: Path) -> set[int]:
    """The ids of every row the JSON sink has written (part files only: the sink's own log is skipped)."""
    found: set[int] = set()
    for part in out.glob("part-*"):
        for line in part.read_text().splitlines():
            if line.strip():
                found.add(int(json.loads(line)["id"]))
    return found


def wait_for(out: Path, row_id: int, ingest: subprocess.Popen[bytes]) -> float:
    """Polls the sink until `row_id` is there; the moment it was seen."""
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        if row_id in ids_in(out):
            return time.monotonic()
        if ingest.poll() is not None:
            raise RuntimeError(f"spark-drill ingest ended (status {ingest.returncode}) before id {row_id}")
        time.sleep(POLL_S)
    raise TimeoutError(f"id {row_id} not in the sink after {TIMEOUT_S} s")


def round_files(r: int) -> dict[str, tuple[str, str, int]]:
    """The three files of round `r`: kind -> (name, text, the id of its row to wait for)."""
    base = 1000 * (r + 1)
    json_rows = [{"id": base + 20}, {"id": base + 21}, {"id": base + 22, f"j{r}": r}]
    return {
        "plain": (f"p{r:03d}.csv", f"id,name\n{base},plain\n", base),
        "csv-new": (f"c{r:03d}.csv", f"id,name,c{r}\n{base + 10},csv,{r}\n", base + 10),
        "json-new": (f"j{r:03d}.json", "".join(json.dumps(x) + "\n" for x in json_rows), base + 22),
    }


def measure(rounds: int, every: str, seed: int) -> dict[str, list[float]]:
    pause = random.Random(seed)
    interval = parse_duration(every).total_seconds()
    work = Path(tempfile.mkdtemp(prefix="bench-evolution-"))
    src, out, chk = work / "in", work / "out", work / "chk"
    src.mkdir()
    land(src, "a.csv", "id,name\n1,first\n")
    command = [
        str(Path(sys.executable).with_name("spark-drill")),
        "ingest",
        str(src),
        str(out),
        "--checkpoint",
        str(chk),
        "--to",
        "json",
        "--every",
        every,
        "-o",
        "header=true",
        "-o",
        "sampleRows=2",
    ]
    ingest = subprocess.Popen(command, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    seconds: dict[str, list[float]] = {k: [] for k in KINDS}
    try:
        wait_for(out, 1, ingest)
        for r in range(rounds):
            for kind, (name, text, row_id) in round_files(r).items():
                time.sleep(pause.uniform(0, interval))
                landed = land(src, name, text)
                seconds[kind].append(wait_for(out, row_id, ingest) - landed)
                print(f"round {r} {kind}: {seconds[kind][-1]:.2f} s", file=sys.stderr)
    finally:
        ingest.send_signal(signal.SIGTERM)
        try:
            ingest.wait(timeout=60)
        except subprocess.TimeoutExpired:
            ingest.kill()
    return seconds


def markdown(seconds: dict[str, list[float]], command: str, every: str) -> str:
    lines = [
        "# Schema evolution in streams: landing to sink (issue 28)",
        "",
        f"Command: `{command}` ({platform.node()}, {os.cpu_count()} cores),",
        f"each file landed into one running `spark-drill ingest --every {every}`.",
        "",
        "| file | runs | mean s | median s | min s | max s | each run, s |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for kind in KINDS:
        s = seconds[kind]
        each = " ".join(f"{x:.2f}" for x in s)
        lines.append(
            f"| {kind} | {len(s)} | {statistics.mean(s):.2f} | {statistics.median(s):.2f} | {min(s):.2f} | "
            f"{max(s):.2f} | {each} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--every", default="5s")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--out", type=Path, default=Path("bench/results/issue28-evolution.md"))
    args = parser.parse_args()
    seconds = measure(args.rounds, args.every, args.seed)
    command = f"python -m bench.evolution --rounds {args.rounds} --every {args.every} --seed {args.seed}"
    report = markdown(seconds, command, args.every)
    args.out.write_text(report)
    print(report)


if __name__ == "__main__":
    main()
