"""`spark-drill ingest`: usage errors (no Spark), the progress lines (from made-up progress, then from a query
on Spark's own file source), and incremental conversions through spark-drill's streaming source, in this
session and in a real process (quiet stderr, SIGTERM, exit codes)."""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import DataFrame, SparkSession

import spark_drill as sd
from conftest import REPO, write_files
from spark_drill import cli
from spark_drill._cli_ingest import BatchLines, batch_line, parse_duration, stream_options, watch
from test_cli import assert_quiet, rows_of, spark_drill

# `batch 3: 12 files, 48,210 rows, 1.9 s`
BATCH_LINE = re.compile(r"^batch (\d+): ([\d,]+) files?, ([\d,]+) rows?, \d+\.\d s$")

# --- usage errors: exit 2 before Spark starts ---------------------------------------------------------------


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 2
    return capsys.readouterr().err


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["ingest", "in", "out", "--checkpoint", "chk"]
    assert "required: --checkpoint" in usage_error(["ingest", "in", "out"], capsys)
    assert "invalid choice" in usage_error([*base, "--to", "orc"], capsys)
    assert "expected a duration such as 5s" in usage_error([*base, "--every", "5x"], capsys)
    assert "above zero" in usage_error([*base, "--every", "0s"], capsys)
    assert "not allowed with argument" in usage_error([*base, "--every", "5s", "--available-now"], capsys)


def test_options_are_checked_as_a_streams(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["ingest", "in", "out", "--checkpoint", "chk"]
    err = usage_error([*base, "-o", "maxFilesPerTrigger=many"], capsys)
    assert "maxFilesPerTrigger takes an integer, got 'many'" in err
    assert "did you mean rescue?" in usage_error([*base, "-o", "schemaEvolutionMode=rescu"], capsys)
    # ... and a batch command refuses them, naming them.
    err = usage_error(["show", "in", "-o", "maxFilesPerTrigger=1"], capsys)
    assert "'maxFilesPerTrigger' is a streaming-only option" in err and "spark-drill ingest" in err


def test_durations() -> None:
    assert parse_duration("5s") == dt.timedelta(seconds=5)
    assert parse_duration("60s") == dt.timedelta(minutes=1)
    assert parse_duration("2m") == dt.timedelta(minutes=2)
    assert parse_duration("1h") == dt.timedelta(hours=1)
    assert parse_duration("500ms") == dt.timedelta(milliseconds=500)
    assert parse_duration("1.5s") == dt.timedelta(milliseconds=1500)
    for bad in ("5", "s", "5 minutes", "-5s", "0ms"):
        with pytest.raises(ValueError):
            parse_duration(bad)


def test_schema_location_defaults_to_the_checkpoints_schemas_directory() -> None:
    assert stream_options({"header": "true"}, "/chk/logs/") == {
        "header": "true",
        "schemaLocation": "/chk/logs/_schemas",
    }
    assert stream_options({}, "s3a://b/chk") == {"schemaLocation": "s3a://b/chk/_schemas"}
    assert stream_options({"schemaLocation": "/elsewhere"}, "/chk") == {"schemaLocation": "/elsewhere"}


# --- the lines: made-up progress ----------------------------------------------------------------------------


def progress(batch: int, rows: int = 0, files: int | None = None, millis: int = 1900) -> dict[str, Any]:
    """A progress as PySpark 3.5 gives it (a dict of the JSON; 4.x gives a dict subclass)."""
    metrics = {} if files is None else {"numFilesInBatch": str(files)}
    offsets = {"startOffset": f'{{"batch":{batch - 1}}}', "endOffset": f'{{"batch":{batch}}}'}
    source = {
        "description": "drill",
        "numInputRows": rows,
        **offsets,
        **({"metrics": metrics} if metrics else {}),
    }
    return {
        "batchId": batch,
        "numInputRows": rows,
        "durationMs": {"triggerExecution": millis},
        "sources": [source],
    }


def test_a_batch_line() -> None:
    assert batch_line(progress(3, 48210, 12)) == "batch 3: 12 files, 48,210 rows, 1.9 s"
    assert batch_line(progress(0, 1, 1, 40)) == "batch 0: 1 file, 1 row, 0.0 s"
    # A source that does not report the files it read: the line leaves them out.
    assert batch_line(progress(7, 5)) == "batch 7: 5 rows, 1.9 s"


def test_each_batch_is_printed_once_in_order() -> None:
    out = io.StringIO()
    lines = BatchLines(out)
    lines.show_all([progress(1, 10, 1), progress(0, 5, 1)])
    lines.show_all([progress(1, 10, 1), progress(0, 5, 1), progress(2, 7, 1)])  # recentProgress grows
    lines.show_all([progress(3, 1, 1), progress(2, 7, 1)])  # and drops its oldest
    lines.show_all([])
    idle = progress(4)  # a trigger that found nothing: its offsets did not move
    idle["sources"][0]["endOffset"] = idle["sources"][0]["startOffset"]
    lines.show_all([idle])
    assert [line.split(":")[0] for line in out.getvalue().splitlines()] == [
        "batch 0",
        "batch 1",
        "batch 2",
        "batch 3",
    ]


# --- the lines of a real query (Spark's own text source: this part needs no streaming spark-drill) ----------


def text_stream(spark: SparkSession, src: Path) -> DataFrame:
    return spark.readStream.format("text").option("maxFilesPerTrigger", "1").load(str(src))


def test_watch_prints_a_line_per_batch_of_an_available_now_query(spark: SparkSession, tmp_path: Path) -> None:
    src = write_files(tmp_path / "in", {f"{i}.txt": f"line {i}\n" * (i + 1) for i in range(4)})
    query = (
        text_stream(spark, src)
        .writeStream.format("noop")
        .option("checkpointLocation", str(tmp_path / "chk"))
        .trigger(availableNow=True)
        .start()
    )
    out = io.StringIO()
    watch(query, BatchLines(out), threading.Event())
    assert not query.isActive
    got = [re.fullmatch(r"batch (\d): (\d) rows?, \d+\.\d s", line) for line in out.getvalue().splitlines()]
    assert all(got), out.getvalue()
    # A batch per file, each once; the files' order is Spark's (by modification time).
    assert [int(m.group(1)) for m in got if m] == [0, 1, 2, 3]
    assert sorted(int(m.group(2)) for m in got if m) == [1, 2, 3, 4]


def test_watch_stops_the_query_when_told(spark: SparkSession, tmp_path: Path) -> None:
    src = write_files(tmp_path / "in", {"0.txt": "a\n"})
    query = (
        text_stream(spark, src)
        .writeStream.format("noop")
        .option("checkpointLocation", str(tmp_path / "chk"))
        .trigger(processingTime="200 milliseconds")
        .start()
    )
    out = io.StringIO()
    stop = threading.Event()
    threading.Timer(3.0, stop.set).start()
    watch(query, BatchLines(out), stop)
    assert not query.isActive and query.exception() is None
    assert out.getvalue().splitlines()[0].startswith("batch 0: 1 row, ")


# --- through spark-drill's streaming source, in this session ------------------------------------------------


def run(spark: SparkSession, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv), spark=spark)
    out, err = capsys.readouterr()
    return status, out, err


def batch_lines(err: str) -> list[tuple[int, int, int]]:
    """(batch id, files, rows) of each line; fails on any other line."""
    found = []
    for line in err.splitlines():
        m = BATCH_LINE.match(line)
        assert m, f"not a batch line: {line!r} in {err!r}"
        found.append((int(m.group(1)), int(m.group(2).replace(",", "")), int(m.group(3).replace(",", ""))))
    return found


LANDING = {
    "2024/01/a.csv": "id,user\n1,ann\n2,bob\n",
    "2024/02/b.csv": "id,user,ms\n3,ann,120\n4,cy,35\n",
    "2025/c.csv": "user,id\ndee,5\n",
}


def ingest(src: Path, out: Path, checkpoint: Path, *more: str) -> list[str]:
    return ["ingest", str(src), str(out), "--checkpoint", str(checkpoint), *more]


def counts_by_key(df: DataFrame) -> dict[Any, int]:
    return {r[0]: r[1] for r in df.groupBy("id").count().collect()}


def test_ingest_csv_to_parquet_then_only_the_new_files(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src, out, chk = write_files(tmp_path / "in", LANDING), tmp_path / "out", tmp_path / "chk"
    argv = ingest(src, out, chk, "-o", "header=true", "-o", "inferTypes=true")
    status, stdout, err = run(spark, capsys, *argv)
    assert (status, stdout) == (0, "")
    first = batch_lines(err)
    assert sum(files for _, files, _ in first) == 3 and sum(rows for *_, rows in first) == 5
    assert (chk / "_schemas").is_dir()
    batch = sd.read(spark, src, header=True, infer_types=True)
    assert counts_by_key(spark.read.parquet(str(out))) == counts_by_key(batch) == {i: 1 for i in range(1, 6)}

    write_files(src, {"2025/d.csv": "id,user\n6,eve\n7,fay\n"})
    status, _, err = run(spark, capsys, *argv)
    second = batch_lines(err)
    assert status == 0 and [(files, rows) for _, files, rows in second] == [(1, 2)]
    assert second[0][0] > first[-1][0]  # the checkpoint's batches go on
    assert counts_by_key(spark.read.parquet(str(out))) == {i: 1 for i in range(1, 8)}

    status, _, err = run(spark, capsys, *argv)  # nothing new: nothing read, nothing said
    assert (status, err) == (0, "")
    assert spark.read.parquet(str(out)).count() == 7


def test_max_files_per_trigger_gives_a_line_per_file(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = write_files(tmp_path / "in", LANDING)
    argv = ingest(src, tmp_path / "out", tmp_path / "chk", "--available-now", "-o", "maxFilesPerTrigger=1")
    status, _, err = run(spark, capsys, *argv, "-o", "header=true")
    assert status == 0
    lines = batch_lines(err)
    assert [(files, rows) for _, files, rows in lines] == [(1, 2), (1, 2), (1, 1)]  # oldest file first
    assert [batch for batch, *_ in lines] == [0, 1, 2]


@pytest.mark.parametrize("to", ["json", "csv"])
def test_ingest_to_json_and_csv(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path, to: str
) -> None:
    src, out = write_files(tmp_path / "in", LANDING), tmp_path / "out"
    status, _, err = run(spark, capsys, *ingest(src, out, tmp_path / "chk", "--to", to, "-o", "header=true"))
    assert status == 0 and batch_lines(err)
    back = spark.read.format(to).option("header", "true").load(str(out))
    assert rows_of(back) == rows_of(sd.read(spark, src, header=True))


def test_ingest_archives_what_an_earlier_run_read_with_clean_source_options(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src, out, chk, archive = (
        write_files(tmp_path / "in", LANDING),
        tmp_path / "out",
        tmp_path / "chk",
        tmp_path / "a",
    )
    options = ["-o", "header=true", "-o", "cleanSource=archive", "-o", f"cleanSourceArchiveDir={archive}"]
    argv = ingest(src, out, chk, *options, "-o", "cleanSourceRetention=0s")
    status, _, _ = run(spark, capsys, *argv)
    assert status == 0 and spark.read.parquet(str(out)).count() == 5
    # The next run's first trigger archives what the last one committed, keeping each file's path.
    status, _, err = run(spark, capsys, *argv)
    assert (status, err) == (0, "")
    assert sorted(p.relative_to(archive).as_posix() for p in archive.rglob("*.csv")) == sorted(LANDING)
    assert not list(src.rglob("*.csv")) and spark.read.parquet(str(out)).count() == 5


def test_ingest_takes_another_schema_location(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src, chk = write_files(tmp_path / "in", LANDING), tmp_path / "chk"
    schemas = tmp_path / "schemas"
    argv = ingest(src, tmp_path / "out", chk, "-o", "header=true", "-o", f"schemaLocation={schemas}")
    status, _, _ = run(spark, capsys, *argv)
    assert status == 0
    assert schemas.is_dir() and not (chk / "_schemas").exists()


def test_an_unreadable_source_is_one_line_and_exit_1(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ingest(tmp_path / "missing", tmp_path / "out", tmp_path / "chk", "-o", "header=true")
    status, _, err = run(spark, capsys, *argv)
    assert status == 1
    assert err.startswith("spark-drill: ") and err.count("\n") == 1, err


# --- a real process -----------------------------------------------------------------------------------------


def test_a_bad_option_value_exits_2_before_spark_starts(tmp_path: Path) -> None:
    done = spark_drill("ingest", "in", "out", "--checkpoint", "chk", "-o", "maxFilesPerTrigger=many")
    assert done.returncode == 2
    assert "maxFilesPerTrigger takes an integer" in done.stderr


@pytest.mark.slow
def test_a_misspelt_option_exits_2_naming_the_nearest(tmp_path: Path) -> None:
    # Judged by the JVM's option table (Python does not know a plugin's options) once the session is up.
    done = spark_drill("ingest", "in", "out", "--checkpoint", "chk", "-o", "minFileAg=5s")
    assert done.returncode == 2
    assert "did you mean minFileAge?" in done.stderr


@pytest.mark.slow
def test_ingest_in_a_process_is_quiet_but_for_its_lines(tmp_path: Path) -> None:
    src, out = write_files(tmp_path / "in", LANDING), tmp_path / "out"
    argv = ingest(src, out, tmp_path / "chk", "-o", "header=true")
    done = spark_drill(*argv)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert_quiet(done.stderr)
    assert sum(rows for *_, rows in batch_lines(done.stderr)) == 5
    missing = spark_drill(*ingest(tmp_path / "missing", out, tmp_path / "c2"))
    assert missing.returncode == 1
    assert len(missing.stderr.strip().splitlines()) == 1 and missing.stderr.startswith("spark-drill: ")


@pytest.mark.slow
def test_every_runs_until_sigterm_then_stops_cleanly(spark: SparkSession, tmp_path: Path) -> None:
    src, out = write_files(tmp_path / "in", LANDING), tmp_path / "out"
    script = Path(sys.executable).parent / "spark-drill"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "spark_drill.cli"]
    argv = ingest(src, out, tmp_path / "chk", "--every", "1s", "-o", "header=true", "--master", "local[1]")
    process = subprocess.Popen(
        [*command, *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**os.environ, "TZ": "UTC", "SPARK_LOCAL_IP": "127.0.0.1"},
    )
    assert process.stderr is not None
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(process.stderr.readline, "")), daemon=True)
    reader.start()
    try:
        wait_for(lambda: any(line.startswith("batch ") for line in lines), process)
        write_files(src, {"2025/d.csv": "id,user\n6,eve\n"})
        wait_for(lambda: sum(line.startswith("batch ") for line in lines) >= 2, process)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=120) == 0, "".join(lines)
    finally:
        if process.poll() is None:
            process.kill()
    reader.join(timeout=10)
    assert sum(rows for *_, rows in batch_lines("".join(lines))) == 6
    assert sorted(r.id for r in spark.read.parquet(str(out)).collect()) == [str(i) for i in range(1, 7)]


def wait_for(condition: Any, process: subprocess.Popen[str], seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert process.poll() is None, "spark-drill ingest ended early"
        assert time.monotonic() < deadline, "timed out waiting for a batch line"
        time.sleep(0.2)
