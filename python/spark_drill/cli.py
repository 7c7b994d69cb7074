"""`spark-drill`: read files with spark-drill from the shell.

    spark-drill show samples/logs -o header=true -o inferTypes=true
    spark-drill schema samples/logs -o header=true
    spark-drill describe samples/logs -o header=true --output csv
    spark-drill sql -o header=true "SELECT dir0, count(*) FROM drill.`samples/logs` GROUP BY dir0"
    spark-drill convert samples/logs out/logs --to parquet -o header=true --partition-by dir0
    spark-drill ingest landing/logs lake/logs --checkpoint chk/logs -o header=true   # the new files only
    spark-drill serve start --idle 30m     # a warm local server: the commands above answer through it

Quiet by default (Spark logs nothing; a progress bar only on a terminal), so `--output json|csv` pipes.
Exit status: 0 done, 1 the read or query failed (one line on stderr), 2 a usage error.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import sys
import threading
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyspark
from pyspark.sql import SparkSession

from spark_drill import __version__, _serve_client, _serve_control, _serve_state
from spark_drill._cli_commands import catalog_conf, run
from spark_drill._cli_ingest import parse_duration
from spark_drill._cli_output import OUTPUTS
from spark_drill._errors import drill_error_of, scan_error_of
from spark_drill._jar import jar_path, spark_target
from spark_drill._options import jvm_options
from spark_drill._session import classic_session, is_connect

COMMANDS = ("show", "schema", "describe", "sql", "convert", "ingest", "serve")
SERVER_WAYS = ("auto", "start", "off")
QUIET_LOG4J = Path(__file__).with_name("log4j2-quiet.properties")
JAVA_OPTIONS = "spark.driver.extraJavaOptions"
# Lines the JVM writes straight to the process's stderr whatever log4j says.
JVM_NOISE = ("WARNING: Using incubator modules",)


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of rows, got {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a number of rows, got {text!r}")
    return n


def _duration(text: str) -> dt.timedelta:
    try:
        return parse_duration(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def version_text() -> str:
    """This package's version, the Spark a session would start and the jar picked for it (or why none)."""
    lines = [f"spark-drill {__version__}"]
    try:
        lines.append(str(spark_target()))
        jar = jar_path()
        lines.append(f"jar {jar}" + (" (SPARK_DRILL_JAR)" if os.environ.get("SPARK_DRILL_JAR") else ""))
    except (RuntimeError, FileNotFoundError) as e:
        lines.append(str(e))
    return "\n".join(lines)


class _Version(argparse.Action):
    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        print(version_text())
        parser.exit()


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    common = argparse.ArgumentParser(add_help=False)
    reading = common.add_argument_group("reading")
    reading.add_argument(
        "--format", metavar="FORMAT", help="read every file in this format (csv, tsv, psv, json, ...)"
    )
    reading.add_argument(
        "-o",
        "--option",
        dest="options",
        action="append",
        type=_key_value,
        default=[],
        metavar="KEY=VALUE",
        help="a reader option (docs/options.md: header=true, inferTypes=true, providedSchema='id INT', ...) "
        "or a Hadoop setting (fs.*, hadoop.*, ...); repeatable",
    )
    spark_group = common.add_argument_group("spark")
    spark_group.add_argument("--master", default="local[*]", help="Spark master (default local[*])")
    spark_group.add_argument(
        "--conf", action="append", type=_key_value, default=[], metavar="KEY=VALUE", help="a Spark setting"
    )
    spark_group.add_argument(
        "--jars",
        action="append",
        default=[],
        metavar="JARS",
        help="jars for the session's classpath, comma-separated (a format plugin's jar, docs/formats.md); "
        "added to spark.jars; repeatable",
    )
    spark_group.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="say which way the command ran; show Spark's log (-vv: INFO) and stack traces",
    )
    spark_group.add_argument(
        "--server",
        choices=SERVER_WAYS,
        default="auto",
        help="auto (default): through the local server when one runs (`spark-drill serve`), else in a "
        "session of its own; start: start the server first if none runs; off: never through the server",
    )
    output = argparse.ArgumentParser(add_help=False)
    output.add_argument(
        "--output", choices=OUTPUTS, default="table", help="table (default), json (one object per line), csv"
    )
    rows = argparse.ArgumentParser(add_help=False)
    rows.add_argument(
        "--rows", type=_positive, default=None, help="at most N rows (default: 50 for a table, all otherwise)"
    )

    parser = argparse.ArgumentParser(
        prog="spark-drill",
        description="Read CSV/TSV/PSV/JSON files whose schemas drift, with Spark and spark-drill.",
        epilog="`spark-drill PATH -o ...` is short for `spark-drill show PATH -o ...`.",
    )
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        default=argparse.SUPPRESS,
        help="show the version, the Spark found (SPARK_HOME, else PySpark's) and the jar picked for it",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    subs: dict[str, argparse.ArgumentParser] = {}

    p = sub.add_parser("show", parents=[common, output, rows], help="the rows of PATH")
    p.add_argument("path", help="a file, a directory or a glob")
    subs["show"] = p

    p = sub.add_parser("schema", parents=[common, output], help="the columns of PATH, with types and origins")
    p.add_argument("path", help="a file, a directory or a glob")
    subs["schema"] = p

    p = sub.add_parser("describe", parents=[common, output], help="what each file says about each column")
    p.add_argument("path", help="a file, a directory or a glob")
    subs["describe"] = p

    p = sub.add_parser(
        "sql",
        parents=[common, output, rows],
        help="a query; drill.`PATH` reads PATH with the -o options",
        description="Runs a Spark SQL query; drill.`PATH` in it reads PATH with the -o options.",
    )
    p.add_argument(
        "query", nargs="?", help='e.g. "SELECT dir0, count(*) FROM drill.`data/logs` GROUP BY dir0"'
    )
    p.add_argument("-f", "--file", help="read the query from this file (- for stdin)")
    subs["sql"] = p

    p = sub.add_parser("convert", parents=[common], help="write PATH as parquet, json or csv")
    p.add_argument("path", help="a file, a directory or a glob")
    p.add_argument("out", help="the output directory")
    p.add_argument("--to", required=True, choices=("parquet", "json", "csv"), help="the output format")
    p.add_argument(
        "--partition-by", action="append", default=[], metavar="COLUMN", help="a partition column; repeatable"
    )
    p.add_argument(
        "--mode",
        choices=("error", "overwrite"),
        default="error",
        help="when OUT exists: fail (default) or replace it",
    )
    subs["convert"] = p

    p = sub.add_parser(
        "ingest",
        parents=[common],
        help="append the files of SRC not read by an earlier run to OUT (a streaming query)",
        description="Appends the files of SRC that the query of --checkpoint has not read yet to OUT, one "
        "line per micro-batch on stderr. -o takes the streaming options too (maxFilesPerTrigger, "
        "minFileAge, schemaEvolutionMode, ...: docs/streaming.md).",
    )
    p.add_argument("path", metavar="SRC", help="the directory (or glob) files arrive in")
    p.add_argument("out", metavar="OUT", help="the output directory, appended to")
    p.add_argument(
        "--checkpoint",
        required=True,
        metavar="DIR",
        help="the query's state: which files were read; the schema versions go to DIR/_schemas unless "
        "-o schemaLocation=... names another directory",
    )
    p.add_argument(
        "--to", choices=("parquet", "json", "csv"), default="parquet", help="the output format (parquet)"
    )
    trigger = p.add_mutually_exclusive_group()
    trigger.add_argument(
        "--available-now",
        action="store_true",
        help="read the files there now, in as many batches as the limits make, then exit (the default)",
    )
    trigger.add_argument(
        "--every",
        type=_duration,
        metavar="DURATION",
        help="read new files every DURATION (5s, 60s, 2m) until SIGINT or SIGTERM, then stop cleanly",
    )
    subs["ingest"] = p

    p = sub.add_parser(
        "serve",
        help="start, stop or show the local server that answers the other commands in under a second",
        description="One local Spark Connect server per user, on 127.0.0.1 behind a secret token, with "
        "spark-drill's jar and catalog; the other commands answer through it while it runs (--server).",
    )
    p.add_argument("action", choices=("start", "stop", "status"))
    p.add_argument(
        "--idle",
        type=_duration,
        default=_serve_control.DEFAULT_IDLE,
        metavar="DURATION",
        help="start: stop after DURATION without a request (default 30m; 90s, 2h, ...)",
    )
    p.add_argument("-v", "--verbose", action="count", default=0, help="stack traces")
    subs["serve"] = p
    return parser, subs


def _legacy(argv: list[str]) -> list[str]:
    """`spark-drill PATH ...` (the first form of the command) is `spark-drill show PATH ...`."""
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        return ["show", *argv]
    return argv


def _query(args: argparse.Namespace, sub: argparse.ArgumentParser) -> str:
    if (args.query is None) == (args.file is None):
        sub.error("give a query or -f FILE (not both)")
    if args.file is None:
        text: str = args.query
    elif args.file == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(args.file).read_text(encoding="utf-8")
        except OSError as e:
            sub.error(f"cannot read {args.file}: {e.strerror}")
    text = text.strip().rstrip(";").strip()
    if not text:
        sub.error("the query is empty")
    return text


def one_line(error: BaseException) -> str:
    """An exception as one line: spark-drill's own message when the JVM's text holds one, else the first
    line that is not Py4J's framing, without Java exception class names."""
    text = str(error)
    found = re.search(r"spark-drill: [^\n]*", text)
    if found:
        return found.group(0).strip()
    for line in text.splitlines():
        line = line.strip().lstrip(":").strip()
        if not line or line.startswith(("An error occurred while calling", "at ")):
            continue
        line = re.sub(r"^(?:[\w$]+\.)+[\w$]*(?:Exception|Error): ", "", line)
        return "spark-drill: " + line
    return f"spark-drill: {type(error).__name__}"


def session_conf(args: argparse.Namespace, opts: dict[str, str]) -> dict[str, str]:
    """The Spark settings of the session a command starts: `--conf`, `--jars` (added to any `spark.jars`),
    the `drill` catalog's options for `sql`, and quiet logging unless `-v`."""
    tty = sys.stdout.isatty() and sys.stderr.isatty()
    conf = {"spark.ui.enabled": "false", "spark.ui.showConsoleProgress": "true" if tty else "false"}
    if args.command == "sql":
        conf.update(catalog_conf(opts))
    user = dict(args.conf)
    conf.update({k: v for k, v in user.items() if k != JAVA_OPTIONS})
    jars = [j.strip() for text in [user.get("spark.jars", ""), *args.jars] for j in text.split(",")]
    if any(jars):
        conf["spark.jars"] = ",".join(j for j in jars if j)  # the session adds spark-drill's own jar
    java_options = [user[JAVA_OPTIONS]] if JAVA_OPTIONS in user else []
    if args.verbose == 0:
        # Before the JVM starts: Spark prints its first lines while starting.
        java_options.append(f"-Dlog4j2.configurationFile={QUIET_LOG4J.as_uri()}")
    if java_options:
        conf[JAVA_OPTIONS] = " ".join(java_options)
    return conf


def _session(args: argparse.Namespace, opts: dict[str, str]) -> SparkSession:
    conf = session_conf(args, opts)
    if args.verbose == 0:
        _drop_jvm_noise()
    spark = classic_session(args.master, "spark-drill", conf)
    if args.verbose >= 2:
        spark.sparkContext.setLogLevel("INFO")
    return spark


def _drop_jvm_noise() -> None:
    """Passes what the JVM (started next, inheriting file descriptor 2) writes to stderr through a filter
    that drops `JVM_NOISE`; Python's own messages go straight to the real stderr."""
    sys.stderr.flush()
    real = os.dup(2)
    read, write = os.pipe()
    os.dup2(write, 2)
    os.close(write)
    sys.stderr = os.fdopen(os.dup(real), "w", buffering=1)

    def pump() -> None:
        with os.fdopen(read, "rb") as lines:
            for line in lines:
                if not line.decode("utf-8", "replace").startswith(JVM_NOISE):
                    os.write(real, line)

    threading.Thread(target=pump, name="spark-drill-stderr", daemon=True).start()


def main(argv: list[str] | None = None, *, spark: SparkSession | None = None) -> int:
    """Runs the command line `argv` (default: sys.argv[1:]); returns the exit status. With `spark`, runs in
    that session and leaves it running (for tests and notebooks); otherwise runs through the local server
    (`--server`) or starts a session of its own and stops it."""
    parser, subs = build_parser()
    args = parser.parse_args(_legacy(list(sys.argv[1:] if argv is None else argv)))
    sub = subs[args.command]
    if args.command == "serve":
        return serve(args)
    given = dict(args.options)
    if args.format is not None:
        given["format"] = args.format
    try:
        # Checked before Spark starts: a bad value of a known option, or one of the other kind of read, is a
        # usage error (keys Python does not know are judged by the JVM once the session is up, below).
        opts = jvm_options({}, None, given, read="stream" if args.command == "ingest" else "batch")
    except (TypeError, ValueError) as e:
        sub.error(str(e))
    if args.command == "sql":
        args.query = _query(args, sub)
        if opts and spark is not None:
            sub.error("-o options reach drill.`PATH` through the catalog a new session starts with")
    if args.jars and spark is not None:
        sub.error("--jars reach a new session only")
    if args.command in ("show", "sql") and args.rows is None and args.output == "table":
        args.rows = 50
    own = spark is None
    paths: dict[str, str] = {}
    try:
        if spark is not None:
            active = spark
        else:
            active, opts, paths = _open(args, sub, opts)
    except Exception as e:
        return _failed(e, args.verbose)
    try:
        # Keys Python does not know (a format plugin's options, misspellings) and the format are judged by the
        # JVM's option table, which knows every format the session has, before anything is read.
        problem = jvm_problem(active, opts)
        if problem:
            sub.error(problem.removeprefix("spark-drill: "))
        run(args, active, opts)
        sys.stdout.flush()
        return 0
    except BrokenPipeError:
        # The reader of a pipe went away (`| head`): not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as e:
        # Through the server the JVM judges the options when the read is analysed, not before: the same
        # error is then the same usage error.
        option_error = scan_error_of(e) if is_connect(active) else None
        if option_error is not None and option_error.condition in OPTION_CONDITIONS:
            # jvm_problem's text: the JVM's message, which leads with the condition ScanError keeps apart.
            sub.error(f"[{option_error.condition}] {option_error}")
        return _failed(e, args.verbose, paths)
    finally:
        if own:
            active.stop()


# The option errors jvm_problem reports before a classic session reads.
OPTION_CONDITIONS = (
    "SPARK_DRILL_UNKNOWN_OPTION",
    "SPARK_DRILL_UNSUPPORTED_OPTION",
    "SPARK_DRILL_BAD_OPTION_VALUE",
)


def _open(
    args: argparse.Namespace, sub: argparse.ArgumentParser, opts: dict[str, str]
) -> tuple[SparkSession, dict[str, str], dict[str, str]]:
    """The session the command runs in, by `--server`, its reader options (paths made absolute for the
    server) and the paths made absolute (each with the path as given); with -v, says on stderr which way."""
    reason = _serve_client.own_session_reason(args)
    if args.server != "off" and not reason:
        reason = _serve_client.missing_client()
    info = None
    if args.server == "start" and reason:
        sub.error(f"{reason}, so this command cannot run through the server; use --server off")
    if args.server == "start":
        info, _ = _serve_control.start()
    elif args.server == "auto" and not reason:
        info, why = _serve_control.usable()
        if why:
            print(why, file=sys.stderr)
    if info is None:
        if args.verbose:
            because = {"off": "--server off"}.get(args.server, reason or "no server runs")
            print(f"spark-drill: running in a Spark session of its own ({because})", file=sys.stderr)
        return _session(args, opts), opts, {}
    if args.verbose:
        print(
            f"spark-drill: running through the server at 127.0.0.1:{info.port} (pid {info.pid})",
            file=sys.stderr,
        )
    opts, given = _serve_client.for_server(args, opts, os.getcwd())
    spark = _serve_client.connect(info)
    catalog = catalog_conf(opts) if args.command == "sql" else {}
    for key, value in _serve_client.session_settings(args, catalog).items():
        try:
            spark.conf.set(key, value)
        except Exception:
            if key != _serve_client.ZONE:
                raise
            # A $TZ the JVM does not know as a zone: a JVM of its own would have fallen back to GMT too.
            spark.conf.set(key, "GMT")
    return spark, opts, given


def serve(args: argparse.Namespace) -> int:
    """`spark-drill serve start|stop|status`."""
    try:
        if args.action == "start":
            info, started = _serve_control.start(args.idle)
            state = "started" if started else "already running"
            print(f"{state} at 127.0.0.1:{info.port} (pid {info.pid})")
        elif args.action == "stop":
            stopped = _serve_control.stop()
            print(f"stopped the server (pid {stopped.pid})" if stopped else "no server runs")
        else:
            running = _serve_state.live()
            if running is None:
                print("no server runs")
                return 1
            print("\n".join(_serve_control.status_lines(running)))
            why = _serve_state.mismatch(running, __version__, pyspark.__version__)
            if why:
                print(why, file=sys.stderr)
        return 0
    except Exception as e:
        return _failed(e, args.verbose)


def jvm_problem(spark: SparkSession, opts: dict[str, str]) -> str | None:
    """Why the JVM would refuse these reader options at planning, or None (under Spark Connect: None, the
    server judges them when the read is analysed)."""
    if is_connect(spark):
        return None
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    options = jvm.java.util.HashMap()
    for key, value in opts.items():
        options.put(key, value)
    problem: str | None = jvm.sparkdrill.spark.OptionCatalog.problem(options)
    return problem


def _failed(error: Exception, verbose: int, paths: dict[str, str] | None = None) -> int:
    if verbose:
        traceback.print_exc()
    # A scan's error prints from its fields (the JVM's message, one line); another of spark-drill's classes
    # (a stream's) from its class; any other error as one line.
    scan_error = scan_error_of(error)
    drill_error = drill_error_of(error) if scan_error is None else None
    if scan_error is not None:
        line = str(scan_error)
    elif drill_error is not None:
        text = drill_error.message.splitlines()[0] if drill_error.message else drill_error.condition
        line = text if text.startswith("spark-drill: ") else f"spark-drill: [{drill_error.condition}] {text}"
    else:
        line = one_line(error)
    # Through the server the paths were sent absolute: the line names them as the user gave them.
    print(_serve_client.as_given(line, paths or {}), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
