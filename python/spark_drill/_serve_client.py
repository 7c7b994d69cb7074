"""A command of the CLI run through the local server: which way it runs (`--server auto|start|off`), and what
changes so that its output is the one it prints in a session of its own.

The server runs elsewhere: in its own working directory (relative paths are made absolute here, in the
arguments and in `drill.\\`PATH\\`` of a query), and in the time zone it was started in (each call sets its
session's zone to this process's, the zone its own JVM would take). Each call is a session of its own on the
server, so `sql`'s catalog options and `--conf spark.sql.*` are set on it and reach no other call.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
from collections.abc import Mapping
from pathlib import Path

from pyspark.sql import SparkSession

from spark_drill._serve_state import ServerInfo

# Settings a running server cannot take (they are read when its JVM or its SparkContext starts): a call with
# one of them runs in a session of its own.
STATIC_SQL = ("spark.sql.extensions", "spark.sql.warehouse.dir", "spark.sql.catalogImplementation")
_DRILL_PATH = re.compile(r"(\bdrill\s*\.\s*`)((?:[^`]|``)+)(`)", re.IGNORECASE)
ZONE = "spark.sql.session.timeZone"
# What PySpark's Connect client imports beyond PySpark.
CLIENT_MODULES = ("grpc", "grpc_status", "pandas", "pyarrow")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def own_session_reason(args: argparse.Namespace) -> str | None:
    """Why the command needs a session of its own, or None when the server can run it."""
    if args.jars:
        return "--jars adds to the classpath of a session that starts"
    if args.master != "local[*]":
        return "--master chooses where a session that starts runs"
    for key, _ in args.conf:
        if not key.startswith("spark.sql.") or key.startswith(STATIC_SQL):
            return f"--conf {key} is read when a session starts"
    if args.verbose >= 2:
        return "-vv shows the log of this process's Spark"
    return None


def missing_client() -> str | None:
    """Why this process cannot be a Spark Connect client (its packages are PySpark's `connect` extra, not
    spark-drill's dependencies), or None. Looked up, not imported: importing them takes time, and PySpark's
    own check may end the process when it guesses it runs doctests."""
    missing = [name for name in CLIENT_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        return "the Spark Connect client is not installed (pip install 'spark-drill[server]')"
    return None


def connect(info: ServerInfo) -> SparkSession:
    """A Spark Connect session on the server, raising sd.ScanError for spark-drill's errors."""
    from spark_drill._connect_errors import install_connect_error_conversion

    install_connect_error_conversion()
    return SparkSession.builder.remote(info.url()).getOrCreate()


def absolute(path: str, cwd: str) -> str:
    """`path` from `cwd` when it is a relative local path; URIs (s3a://, file:, hdfs://) as they are."""
    if _SCHEME.match(path) or os.path.isabs(path):
        return path
    return os.path.join(cwd, path)


def absolute_query(query: str, cwd: str) -> str:
    """drill.`PATH` with PATH made absolute (backticks doubled inside stay doubled)."""

    def one(found: re.Match[str]) -> str:
        path = found.group(2).replace("``", "`")
        return found.group(1) + absolute(path, cwd).replace("`", "``") + found.group(3)

    return _DRILL_PATH.sub(one, query)


def for_server(
    args: argparse.Namespace, opts: Mapping[str, str], cwd: str
) -> tuple[dict[str, str], dict[str, str]]:
    """Makes the paths of `args` absolute (in place); returns the reader options with theirs absolute, and
    each path made absolute with the path as given (for as_given)."""
    given: dict[str, str] = {}

    def made(path: str) -> str:
        full = absolute(path, cwd)
        if full != path:
            given[full] = path
        return full

    for name in ("path", "out", "checkpoint"):
        if getattr(args, name, None):
            setattr(args, name, made(getattr(args, name)))
    if getattr(args, "query", None):
        for found in _DRILL_PATH.finditer(args.query):
            made(found.group(2).replace("``", "`"))
        args.query = absolute_query(args.query, cwd)
    options = {k: made(v) if k == "schemaLocation" else v for k, v in opts.items()}
    return options, given


def as_given(line: str, given: Mapping[str, str]) -> str:
    """An error line with the paths this process made absolute put back as the user gave them (a session of
    its own names a path as given): where the whole path is named, not where it begins a longer one (a file
    under a directory is named in full either way)."""
    for full, path in sorted(given.items(), key=lambda item: -len(item[0])):
        line = re.sub(re.escape(full) + r"(?![\w./-])", path.replace("\\", "\\\\"), line)
    return line


def local_zone() -> str | None:
    """The time zone a JVM started here would take as its default: $TZ, else /etc/localtime's zone (by the
    zoneinfo file it links to), else /etc/timezone; None when none is found."""
    tz = os.environ.get("TZ", "").lstrip(":")
    if tz:
        return tz
    try:
        target = os.path.realpath("/etc/localtime")
        if "zoneinfo/" in target:
            return target.split("zoneinfo/", 1)[1]
    except OSError:
        pass
    try:
        return Path("/etc/timezone").read_text().strip() or None
    except OSError:
        return None


def session_settings(args: argparse.Namespace, catalog: Mapping[str, str]) -> dict[str, str]:
    """The settings a call sets on its server session: the local time zone, `sql`'s catalog options and
    --conf spark.sql.* (which own_session_reason let through)."""
    settings: dict[str, str] = {}
    zone = local_zone()
    if zone:
        settings[ZONE] = zone
    settings.update(catalog)
    settings.update(dict(args.conf))
    return settings
