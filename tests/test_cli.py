"""The `spark-drill` command: usage errors (no Spark), each command on the samples (in this session), and
what a shell sees from a real process: piped output without log lines or progress bar, one-line errors, exit
codes."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyspark
import pytest
from pyspark.sql import SparkSession

import spark_drill as sd
from conftest import REPO, SAMPLES, write_files
from spark_drill import cli

EVENTS = REPO / "samples" / "events"

# --- usage errors: exit 2 (before Spark starts, but for keys only the JVM judges) ---------------------------


def usage_error(
    argv: list[str], capsys: pytest.CaptureFixture[str], spark: SparkSession | None = None
) -> str:
    with pytest.raises(SystemExit) as exited:
        cli.main(argv, spark=spark)
    assert exited.value.code == 2
    return capsys.readouterr().err


def test_an_unknown_option_is_a_usage_error_naming_the_nearest(
    spark: SparkSession, capsys: pytest.CaptureFixture[str]
) -> None:
    # Python does not know a format plugin's options: the JVM's option table judges keys Python does not
    # know, in the session, before anything is read.
    for command in ("show", "schema", "describe", "convert"):
        argv = [command, "samples/logs", *(["out", "--to", "csv"] if command == "convert" else [])]
        err = usage_error([*argv, "-o", "inferTyps=true"], capsys, spark)
        assert "unknown option 'inferTyps'; did you mean inferTypes?" in err, err
    err = usage_error(["samples/logs", "--option", "headr=true"], capsys, spark)
    assert "did you mean header?" in err
    err = usage_error(["show", "samples/logs", "--format", "fixed"], capsys, spark)
    assert "unknown format 'fixed'" in err and "known formats: csv" in err


def test_jars_join_spark_jars(tmp_path: Path) -> None:
    parser, _ = cli.build_parser()
    args = parser.parse_args(
        ["show", "p", "--jars", "a.jar,b.jar", "--jars", "c.jar", "--conf", "spark.jars=x.jar"]
    )
    assert cli.session_conf(args, {})["spark.jars"] == "x.jar,a.jar,b.jar,c.jar"
    assert "spark.jars" not in cli.session_conf(parser.parse_args(["show", "p"]), {})


def test_option_values_are_checked_like_sd_reads(capsys: pytest.CaptureFixture[str]) -> None:
    assert "batchRows takes an integer, got 'many'" in usage_error(
        ["show", "x", "-o", "batchRows=many"], capsys
    )
    assert "takes true or false" in usage_error(["schema", "x", "-o", "header=yes"], capsys)
    err = usage_error(["describe", "x", "-o", "mode=fail"], capsys)
    assert "did you mean FAILFAST?" in err
    assert "expected KEY=VALUE" in usage_error(["show", "x", "-o", "header"], capsys)
    assert "given twice" in usage_error(["show", "x", "--format", "csv", "-o", "FORMAT=json"], capsys)


def test_other_usage_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "give a query or -f FILE" in usage_error(["sql"], capsys)
    assert "give a query or -f FILE" in usage_error(["sql", "SELECT 1", "-f", "q.sql"], capsys)
    assert "cannot read" in usage_error(["sql", "-f", str(tmp_path / "missing.sql")], capsys)
    assert "the following arguments are required: --to" in usage_error(["convert", "a", "b"], capsys)
    assert "invalid choice" in usage_error(["convert", "a", "b", "--to", "orc"], capsys)
    assert "expected a number of rows" in usage_error(["show", "x", "--rows", "-1"], capsys)


def test_the_quiet_logging_file_ships_with_the_package() -> None:
    text = cli.QUIET_LOG4J.read_text(encoding="utf-8")
    assert "rootLogger.level = off" in text
    assert "org.apache.spark.api.python.PythonGatewayServer" in text


def test_the_first_form_of_the_command_is_show() -> None:
    assert cli._legacy(["samples/logs", "--option", "header=true"]) == [
        "show",
        "samples/logs",
        "--option",
        "header=true",
    ]
    assert cli._legacy(["sql", "SELECT 1"]) == ["sql", "SELECT 1"]
    assert cli._legacy(["--version"]) == ["--version"]


def test_version_names_the_spark_found_and_the_jar_picked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SPARK_DRILL_JAR", raising=False)
    with pytest.raises(SystemExit) as exited:
        cli.main(["--version"])
    assert exited.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"spark-drill {sd.__version__}"
    assert lines[1].startswith(f"Spark {pyspark.__version__} (Scala ")
    assert lines[2] == f"jar {sd.jar_path()}"


def test_one_line_keeps_spark_drills_message_and_drops_java_framing() -> None:
    py4j_text = (
        "An error occurred while calling o58.load.\n"
        ": java.io.FileNotFoundException: spark-drill: path does not exist: /x "
        "(option ignoreMissingFiles=true skips it)\n"
        "\tat sparkdrill.scan.FileLister$.list(FileLister.scala:70)\n"
    )
    assert cli.one_line(RuntimeError(py4j_text)) == (
        "spark-drill: path does not exist: /x (option ignoreMissingFiles=true skips it)"
    )
    other = (
        "An error occurred while calling o1.x.\n: java.lang.IllegalStateException: broken\n\tat a.b(C.java:1)"
    )
    assert cli.one_line(RuntimeError(other)) == "spark-drill: broken"
    assert cli.one_line(ValueError("[PATH_ALREADY_EXISTS] Path /o already exists.")) == (
        "spark-drill: [PATH_ALREADY_EXISTS] Path /o already exists."
    )


# --- each command, in this test session ---------------------------------------------------------------------


def run(spark: SparkSession, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv), spark=spark)
    out, err = capsys.readouterr()
    return status, out, err


LOG_ROWS = {
    ("1", "ann", "login", "", "", "2024", "01"),
    ("2", "bob", "view, then scroll", "", "", "2024", "01"),
    ("3", "ann", "logout", "120", "", "2024", "02"),
    ("4", "cy", "view", "35", "", "2024", "02"),
    ("5", "dee", "", "", "NL", "2025", ""),
    ("0", "root", "boot", "", "", "", ""),
}
LOG_COLUMNS = ["id", "user", "action", "duration_ms", "country", "dir0", "dir1"]


def test_show_as_csv(spark: SparkSession, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(spark, capsys, "show", str(SAMPLES), "-o", "header=true", "--output", "csv")
    assert (status, err) == (0, "")
    lines = list(csv.reader(io.StringIO(out)))
    assert lines[0] == LOG_COLUMNS
    assert {tuple(line) for line in lines[1:]} == LOG_ROWS
    assert len(lines) == 7
    assert '2,bob,"view, then scroll",,,2024,01\n' in out


def test_show_as_json_lines_with_typed_values(
    spark: SparkSession, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(
        spark, capsys, "show", str(SAMPLES), "-o", "header=true", "-o", "inferTypes=true", "--output", "json"
    )
    assert status == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert all(list(r) == LOG_COLUMNS for r in records)
    by_id = {r["id"]: r for r in records}
    assert sorted(by_id) == [0, 1, 2, 3, 4, 5]
    assert by_id[3] == {
        "id": 3,
        "user": "ann",
        "action": "logout",
        "duration_ms": 120,
        "country": None,
        "dir0": "2024",
        "dir1": "02",
    }


def test_show_as_a_table_and_rows(spark: SparkSession, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(spark, capsys, "show", str(SAMPLES), "-o", "header=true")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("+---")
    assert lines[1] == "|id |user|action           |duration_ms|country|dir0|dir1|"
    assert "|2  |bob |view, then scroll|NULL       |NULL   |2024|01  |" in lines
    status, out, _ = run(spark, capsys, "show", str(SAMPLES), "-o", "header=true", "--rows", "2")
    assert sum(1 for line in out.splitlines() if line.startswith("|")) == 3  # the header and 2 rows
    assert "only showing top 2 rows" in out


def test_schema_names_each_columns_type_and_origin(
    spark: SparkSession, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(
        spark,
        capsys,
        "schema",
        str(SAMPLES),
        "-o",
        "header=true",
        "-o",
        "inferTypes=true",
        "--output",
        "json",
    )
    assert status == 0
    got = [json.loads(line) for line in out.splitlines()]
    assert [(r["column"], r["type"], r["origin"]) for r in got] == [
        ("id", "int", "table"),
        ("user", "string", "table"),
        ("action", "string", "table"),
        ("duration_ms", "int", "table"),
        ("country", "string", "table"),
        ("dir0", "string", "partition"),
        ("dir1", "string", "partition"),
        ("filename", "string", "implicit (hidden)"),
        ("filepath", "string", "implicit (hidden)"),
        ("fqn", "string", "implicit (hidden)"),
        ("suffix", "string", "implicit (hidden)"),
        ("lmt", "timestamp", "implicit (hidden)"),
        ("_line", "bigint", "implicit (hidden)"),
        ("_offset", "bigint", "implicit (hidden)"),
    ]
    first = {r["column"]: r["first_file"] for r in got}
    assert first["id"] == first["user"] == "2024/01/events.csv"
    assert (first["duration_ms"], first["country"], first["dir0"]) == (
        "2024/02/events.csv",
        "2025/events.csv",
        None,
    )


def test_describe_reports_every_file_and_column(
    spark: SparkSession, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(spark, capsys, "describe", str(SAMPLES), "-o", "header=true", "--output", "csv")
    assert status == 0
    lines = list(csv.DictReader(io.StringIO(out)))
    assert list(lines[0]) == [
        "file",
        "column",
        "file_type",
        "table_type",
        "seen_in",
        "first_file",
        "conflict",
        "map_inference",
    ]
    assert len(lines) == 3 + 4 + 3 + 3  # the columns of each of the four files
    assert {(Path(r["file"]).parent.name, r["column"]) for r in lines if r["column"] == "country"} == {
        ("2025", "country")
    }


def test_sql_with_a_query_or_a_file(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    query = f"SELECT dir0, count(*) AS n FROM drill.`{EVENTS}` GROUP BY dir0 ORDER BY dir0"
    status, out, _ = run(spark, capsys, "sql", query, "--output", "json")
    assert status == 0
    assert [json.loads(line) for line in out.splitlines()] == [
        {"dir0": None, "n": 1},
        {"dir0": "2024", "n": 2},
    ]
    (tmp_path / "q.sql").write_text(query + ";\n")
    status, from_file, _ = run(spark, capsys, "sql", "-f", str(tmp_path / "q.sql"), "--output", "json")
    assert (status, from_file) == (0, out)


def test_sql_options_need_a_new_session(spark: SparkSession, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["sql", "-o", "header=true", "SELECT 1"], spark=spark)
    assert exited.value.code == 2
    assert "new session" in capsys.readouterr().err


def rows_of(df: Any) -> list[tuple[Any, ...]]:
    return sorted((tuple(sorted(r.asDict().items())) for r in df.collect()), key=repr)


@pytest.mark.parametrize(
    ("to", "options"),
    [("parquet", ["-o", "inferTypes=true"]), ("json", ["-o", "inferTypes=true"]), ("csv", [])],
)
def test_convert_round_trips(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path, to: str, options: list[str]
) -> None:
    out = tmp_path / f"logs.{to}"
    status, _, err = run(
        spark, capsys, "convert", str(SAMPLES), str(out), "--to", to, "-o", "header=true", *options
    )
    assert (status, err) == (0, "")
    source = sd.read(spark, SAMPLES, header=True, infer_types=bool(options))
    back = spark.read.format(to).option("header", "true").load(str(out))
    assert rows_of(back) == rows_of(source)


def test_convert_partitions_and_refuses_to_overwrite_unless_told(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "by_year"
    argv = [
        "convert",
        str(SAMPLES),
        str(out),
        "--to",
        "parquet",
        "-o",
        "header=true",
        "--partition-by",
        "dir0",
    ]
    assert run(spark, capsys, *argv)[0] == 0
    assert {p.name for p in out.iterdir() if p.is_dir()} == {
        "dir0=2024",
        "dir0=2025",
        "dir0=__HIVE_DEFAULT_PARTITION__",
    }
    back = spark.read.option("basePath", str(out)).parquet(str(out / "dir0=2024"))
    assert sorted(r.id for r in back.collect()) == ["1", "2", "3", "4"]
    status, _, err = run(spark, capsys, *argv)
    assert status == 1
    assert err.startswith("spark-drill: ") and "already exists" in err and err.count("\n") == 1
    assert run(spark, capsys, *argv, "--mode", "overwrite")[0] == 0


def test_a_failfast_error_is_one_line_and_exit_1(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    write_files(tmp_path, {"bad.csv": "id,name\n1,ann\nfoo,fred\n"})
    status, _, err = run(
        spark,
        capsys,
        "show",
        str(tmp_path),
        "-o",
        "header=true",
        "-o",
        "providedSchema=id INT",
        "-o",
        "mode=FAILFAST",
    )
    assert status == 1
    assert err.count("\n") == 1 and err.startswith("spark-drill: ")
    assert f"{tmp_path}/bad.csv" in err and "line 3" in err and "'foo'" in err


def test_a_failfast_error_prints_its_value_exact_from_the_fields(
    spark: SparkSession, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    write_files(tmp_path, {"bad.csv": 'id,name\n1,ann\n"it\'s (odd)",fred\n'})
    argv = ["show", str(tmp_path), "-o", "header=true", "-o", "providedSchema=id INT", "-o", "mode=FAILFAST"]
    status, _, err = run(spark, capsys, *argv)
    assert status == 1 and err.count("\n") == 1
    assert err.startswith(f"spark-drill: cannot convert the value to int: file {tmp_path}/bad.csv, line 3")
    assert "column 'id', value 'it's (odd)' (mode=FAILFAST" in err and "[SPARK_DRILL_" not in err


# --- a real process -----------------------------------------------------------------------------------------
# Each test that starts Spark starts a JVM of its own: marked slow (`make test-fast` leaves them out).

SPARK_LOG_LINE = re.compile(r"^\d\d/\d\d/\d\d \d\d:\d\d:\d\d (TRACE|DEBUG|INFO|WARN|ERROR)\b", re.MULTILINE)


def spark_drill(*argv: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "spark-drill"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "spark_drill.cli"]
    env = {**os.environ, "TZ": "UTC", "SPARK_LOCAL_IP": "127.0.0.1"}
    return subprocess.run(
        [*command, *argv, "--master", "local[1]"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def assert_quiet(stderr: str) -> None:
    assert not SPARK_LOG_LINE.search(stderr), stderr
    assert "[Stage" not in stderr and "Setting default log level" not in stderr, stderr
    assert "Using Spark's default log4j profile" not in stderr, stderr


@pytest.mark.slow
def test_the_first_form_pipes_a_table_without_log_lines() -> None:
    done = spark_drill("samples/logs", "--option", "header=true")  # `make demo`'s command before 0.2
    assert done.returncode == 0, done.stderr
    assert "|view, then scroll|" in done.stdout and done.stdout.startswith("+---")
    assert_quiet(done.stderr)


@pytest.mark.slow
def test_sql_aggregate_pipes_json_lines() -> None:
    query = (
        "SELECT dir0, count(*) AS events, sum(duration_ms) AS total_ms FROM drill.`samples/logs` "
        "GROUP BY dir0 ORDER BY dir0"
    )
    done = spark_drill("sql", "-o", "header=true", "-o", "inferTypes=true", query, "--output", "json")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        {"dir0": None, "events": 1, "total_ms": None},
        {"dir0": "2024", "events": 4, "total_ms": 155},
        {"dir0": "2025", "events": 1, "total_ms": None},
    ]
    assert_quiet(done.stderr)


@pytest.mark.slow
def test_failfast_exits_1_with_one_line_and_no_stack_trace(tmp_path: Path) -> None:
    write_files(tmp_path, {"bad.csv": "id,name\n1,ann\nfoo,fred\n"})
    done = spark_drill(
        "show", str(tmp_path), "-o", "header=true", "-o", "providedSchema=id INT", "-o", "mode=FAILFAST"
    )
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("spark-drill: ") and "bad.csv" in lines[0] and "'foo'" in lines[0]


@pytest.mark.slow
def test_an_unknown_option_exits_2_naming_the_nearest() -> None:
    done = spark_drill("show", "samples/logs", "-o", "inferTyps=true")
    assert done.returncode == 2
    assert "did you mean inferTypes?" in done.stderr


@pytest.mark.slow
def test_verbose_shows_sparks_log() -> None:
    done = spark_drill("show", "samples/logs", "-o", "header=true", "--rows", "1", "-v")
    assert done.returncode == 0, done.stderr
    assert re.search(r"WARN|log level", done.stderr), done.stderr
