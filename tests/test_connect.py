"""Under Spark Connect: sd.read and SQL on drill.`path` work (the helpers only set reader options), and what
needs Py4J (column parsers) says so at once.

A Connect session cannot share a process with the classic session of the other tests, so a child process runs
a local Connect server (`SparkSession.builder.remote("local[2]")`, which starts the server in a JVM of its own
with spark.jars = the spark-drill jar) and its client, and prints what it saw as JSON. PySpark 3.5 has no
Connect server jar: the server comes from Maven Central through `spark.jars.packages` (connect_packages()).
Spark 3.5's server cannot be told to listen on loopback only (it has no `spark.connect.grpc.binding.address`;
it binds every interface), so on 3.5 the client, and the server it starts, run in a network namespace of their
own with only loopback up (loopback_only()).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyspark
import pytest

from conftest import REPO, SAMPLES
from spark_drill import _jar

pytestmark = [pytest.mark.connect, pytest.mark.compat]

EVENTS = REPO / "samples" / "events"
PYSPARK_4 = int(pyspark.__version__.split(".")[0]) >= 4

CLIENT = r"""
import json
import os
import sys
import tempfile

from pyspark.sql import SparkSession

import spark_drill as sd

samples, events = sys.argv[1], sys.argv[2]
builder = (
    SparkSession.builder.remote("local[2]")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.driver.host", "127.0.0.1")
    .config("spark.driver.bindAddress", "127.0.0.1")
    .config("spark.connect.grpc.binding.address", "127.0.0.1")
    # The server keeps its default port (15002): remote("local[2]") dials sc://localhost, that port.
)
if os.environ.get("SPARK_DRILL_CONNECT_PACKAGES"):
    builder = builder.config("spark.jars.packages", os.environ["SPARK_DRILL_CONNECT_PACKAGES"]).config(
        "spark.jars.ivy", os.environ["SPARK_DRILL_IVY"]
    )
spark = sd.configure(builder).getOrCreate()
seen = {"session": type(spark).__module__}

df = sd.read(spark, samples, header=True, infer_types=True)
seen["columns"] = df.columns
seen["types"] = {f.name: f.dataType.simpleString() for f in df.schema.fields}
seen["rows"] = sorted([r.id, r.user, r.duration_ms, r.dir0] for r in df.collect())
seen["hidden"] = sorted([r.user, r.filename] for r in df.select("user", "filename").collect())
query = f"SELECT dir0, count(*) AS n FROM drill.`{events}` GROUP BY dir0 ORDER BY dir0"
seen["sql"] = [list(r) for r in spark.sql(query).collect()]

try:
    sd.read(spark, samples, infer_typs=True)
except TypeError as e:
    seen["misspelt"] = str(e)

# A key the client does not know (a plugin's option, or a misspelling) goes to the server, which judges it
# when the plan is analysed: before any job.
lazy = sd.read(spark, samples, options={"headr": "true"})
try:
    lazy.columns
except Exception as e:
    seen["unknown_key"] = str(e)

try:
    sd.register_column_parser(spark, sd.ColumnParser())
except RuntimeError as e:
    seen["parser"] = str(e)

# Errors: sd.ScanError from the classes and parameters the server sends, for a task's error (a bad value,
# wrapped in Spark's "Job aborted") and for ones at planning (an unknown option, through Spark's own reader; a
# schema conflict). Any other exception (PySpark 3.5's client, docs/errors.md) is kept with what it carries.
def fields(e):
    keys = ("condition", "file", "line", "offset", "column", "value", "option", "reason", "message")
    return {k: getattr(e, k) for k in keys}

def other(e):
    return {
        "raised": type(e).__name__,
        "error_class": e.getErrorClass() if hasattr(e, "getErrorClass") else None,
        "parameters": e.getMessageParameters() if hasattr(e, "getMessageParameters") else None,
        "message": str(e),
    }

bad_dir = tempfile.mkdtemp(dir=os.getcwd())
with open(os.path.join(bad_dir, "bad.csv"), "w") as f:
    f.write("id,name\n1,ann\n\"it's (odd)\",fred\n")
try:
    sd.read(spark, bad_dir, header=True, provided_schema="id INT", mode="FAILFAST").collect()
except sd.ScanError as e:
    seen["scan_error"] = fields(e)
except Exception as e:
    seen["scan_error"] = other(e)
try:
    spark.read.format("drill").option("inferTyps", "true").load(bad_dir).schema
except sd.ScanError as e:
    seen["option_error"] = fields(e)
except Exception as e:
    seen["option_error"] = other(e)
conflict_dir = tempfile.mkdtemp(dir=os.getcwd())
for name, text in (("a.json", '{"x": 1}\n'), ("b.json", '{"x": "s"}\n')):
    with open(os.path.join(conflict_dir, name), "w") as f:
        f.write(text)
try:
    sd.read(spark, conflict_dir, type_conflict="fail").columns
except sd.ScanError as e:
    seen["conflict_error"] = fields(e)
except Exception as e:
    seen["conflict_error"] = other(e)

report = sd.describe(spark, samples, header=True).where("column = 'duration_ms'").collect()
seen["describe"] = [[r.file.split("logs/")[-1], r.file_type, r.seen_in] for r in report]

# A stream through sd.read_stream: AvailableNow into Parquet files, compared with a batch read.
import shutil
import tempfile

work = tempfile.mkdtemp(dir=os.getcwd())
landing, chk, out = (os.path.join(work, d) for d in ("landing", "chk", "out"))
shutil.copytree(samples, landing)
try:
    stream = sd.read_stream(
        spark, landing, header=True, infer_types=True, schema_location=os.path.join(chk, "_schemas"),
        max_files_per_trigger=2,
    )
    query = (
        stream.writeStream.format("parquet").option("checkpointLocation", chk)
        .trigger(availableNow=True).start(out)
    )
    ended = query.awaitTermination(300)
    failure = query.exception()
    columns = ["id", "user", "duration_ms", "dir0", "dir1"]
    seen["stream"] = {
        "streaming": stream.isStreaming,
        "ended": ended,
        "error": None if failure is None else str(failure)[:3000],
        # Spark's commit log: one file per committed micro-batch (progress objects differ across Connect
        # clients: dicts without numInputRows on 3.5).
        "batches": len([n for n in os.listdir(os.path.join(chk, "commits")) if n.isdigit()]),
        "sink": sorted(list(r) for r in spark.read.parquet(out).select(columns).collect()),
        "batch": sorted(list(r) for r in sd.read(spark, landing, header=True, infer_types=True)
                        .select(columns).collect()),
    }
except Exception as e:
    seen["stream"] = {"error": f"{type(e).__name__}: {e}"[:3000]}

from py4j import java_gateway

seen["py4j_hook"] = bool(getattr(java_gateway.get_return_value, "__spark_drill__", False))
print("SEEN " + json.dumps(seen), flush=True)
spark.stop()
"""


# No server at all: a Connect session only sends a plan when asked for a schema or rows, so this shows that
# sd.read builds one from options alone, without Py4J. (The session is made directly: PySpark 3.5's builder
# sends its options to the server at once, retrying for minutes when there is none.)
PLAN_ONLY = r"""
import os

from pyspark.sql.connect.session import SparkSession

import spark_drill as sd
from py4j import java_gateway

spark = SparkSession(connection="sc://127.0.0.1:9")
df = sd.read(spark, "data", header=True, mode="failfast", options={"fs.s3a.endpoint": "http://127.0.0.1:9000"})
print(type(df).__module__)
print(df._plan.print().strip())
print("py4j hook", bool(getattr(java_gateway.get_return_value, "__spark_drill__", False)), flush=True)
os._exit(0)  # without a server, the client's exit would retry releasing its session
"""


def test_sd_read_only_builds_a_plan_under_connect(tmp_path: Path) -> None:
    script = tmp_path / "plan_only.py"
    script.write_text(PLAN_ONLY)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "pyspark.sql.connect.dataframe"
    assert "format='drill'" in lines[1] and "paths='['data']'" in lines[1]
    assert "'header': 'true'" in lines[1] and "'mode': 'FAILFAST'" in lines[1]
    assert "'fs.s3a.endpoint': 'http://127.0.0.1:9000'" in lines[1]
    assert lines[2] == "py4j hook False"


def connect_packages() -> str | None:
    """The `spark.jars.packages` the local Connect server needs: none where the Spark installation has the
    server's jar (PySpark 4.x); PySpark 3.5's has not, so it is spark-connect of the same Spark and Scala from
    Maven Central, or SPARK_DRILL_CONNECT_PACKAGES (spark-connect_2.12 is not published for every 3.5.x)."""
    home = _jar._spark_home()
    if home is not None and any((home / "jars").glob("spark-connect_*.jar")):
        return None
    target = _jar.spark_target()
    default = f"org.apache.spark:spark-connect_{target.scala}:{target.version}"
    return os.environ.get("SPARK_DRILL_CONNECT_PACKAGES") or default


PREFETCH = r"""
import os
from pyspark.sql import SparkSession

spark = (
    SparkSession.builder.master("local[1]")
    .config("spark.ui.enabled", "false")
    .config("spark.driver.host", "127.0.0.1")
    .config("spark.driver.bindAddress", "127.0.0.1")
    .config("spark.jars.packages", os.environ["SPARK_DRILL_CONNECT_PACKAGES"])
    .config("spark.jars.ivy", os.environ["SPARK_DRILL_IVY"])
    .getOrCreate()
)
spark.stop()
"""


def loopback_only(command: list[str], env: dict[str, str]) -> list[str]:
    """`command` in a network namespace of its own with only loopback up, for a Connect server that would
    listen on every interface (Spark 3.5's). Its package is fetched into the Ivy cache first, outside the
    namespace, by a classic session that listens on 127.0.0.1 only. Skips where no such namespace can be made
    (unshare needs root or user namespaces) rather than open a port to the network."""
    tools = shutil.which("unshare") and shutil.which("ip")
    probe = ["unshare", "--net", "sh", "-c", "ip link set lo up"]
    if not tools or subprocess.run(probe, capture_output=True, timeout=60).returncode != 0:
        pytest.skip("Spark 3.5's Connect server listens on every interface; no loopback-only namespace here")
    if "SPARK_DRILL_CONNECT_PACKAGES" in env:
        fetched = subprocess.run(
            [sys.executable, "-c", PREFETCH], capture_output=True, text=True, timeout=600, env=env
        )
        assert fetched.returncode == 0, f"fetching the Connect server failed:\n{fetched.stderr[-3000:]}"
    return ["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *command]


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    script = tmp_path_factory.mktemp("connect") / "client.py"
    script.write_text(CLIENT)
    env = {**os.environ, "TZ": "UTC", "SPARK_LOCAL_IP": "127.0.0.1"}
    env.pop("SPARK_DRILL_CONNECT_PACKAGES", None)
    packages = connect_packages()
    if packages:
        cache = Path(os.environ.get("SPARK_DRILL_CACHE", Path.home() / ".cache" / "spark-drill"))
        env["SPARK_DRILL_CONNECT_PACKAGES"] = packages
        env["SPARK_DRILL_IVY"] = str(cache / "ivy")
        # Spark's Ivy asks Maven Central, then repos.spark-packages.org; this sends both to Central (or to
        # the mirror already named here), the one registry every machine of this project reaches.
        env.setdefault("DEFAULT_ARTIFACT_REPOSITORY", "https://repo1.maven.org/maven2/")
    command = [sys.executable, str(script), str(SAMPLES), str(EVENTS)]
    if not PYSPARK_4:
        command = loopback_only(command, env)
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=script.parent,
        stdin=subprocess.DEVNULL,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("SEEN ")]
    assert lines, (
        "the Connect client failed (are the dev extras grpcio, grpcio-status, googleapis-common-protos, "
        f"pandas, pyarrow, zstandard installed?) exit {done.returncode}\n"
        f"{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    )
    yield json.loads(lines[-1][len("SEEN ") :])


def test_the_client_is_a_connect_session(seen: dict[str, Any]) -> None:
    assert seen["session"].startswith("pyspark.sql.connect.")


def test_sd_read_under_connect(seen: dict[str, Any]) -> None:
    assert seen["columns"] == ["id", "user", "action", "duration_ms", "country", "dir0", "dir1"]
    assert seen["types"]["id"] == "int" and seen["types"]["duration_ms"] == "int"
    assert seen["rows"] == [
        [0, "root", None, None],
        [1, "ann", None, "2024"],
        [2, "bob", None, "2024"],
        [3, "ann", 120, "2024"],
        [4, "cy", 35, "2024"],
        [5, "dee", None, "2025"],
    ]
    assert seen["hidden"] == [
        ["ann", "events.csv"],
        ["ann", "events.csv"],
        ["bob", "events.csv"],
        ["cy", "events.csv"],
        ["dee", "events.csv"],
        ["root", "events.csv"],
    ]


def test_sql_on_drill_paths_under_connect(seen: dict[str, Any]) -> None:
    assert seen["sql"] == [[None, 1], ["2024", 2]]


def test_keywords_are_checked_in_the_client(seen: dict[str, Any]) -> None:
    assert (
        seen["misspelt"]
        == "read() got an unexpected keyword argument 'infer_typs'; did you mean infer_types?"
    )


def test_an_unknown_option_key_is_judged_by_the_server_at_analysis(seen: dict[str, Any]) -> None:
    assert "unknown option 'headr'; did you mean header?" in seen["unknown_key"]


def test_column_parsers_fail_at_once_under_connect(seen: dict[str, Any]) -> None:
    assert seen["parser"].startswith(
        "Python column parsers need a classic SparkSession; this is a Spark Connect session"
    )


def test_describe_works_under_connect(seen: dict[str, Any]) -> None:
    assert seen["describe"] == [["2024/02/events.csv", "string", "header"]]


def test_a_stream_under_connect_through_read_stream(seen: dict[str, Any]) -> None:
    stream = seen["stream"]
    assert stream["error"] is None, stream["error"]
    assert stream["streaming"] and stream["ended"]
    assert stream["batches"] == 2, "four files, two a micro-batch"
    assert stream["sink"] == stream["batch"]
    assert [5, "dee", None, "2025", None] in stream["sink"] and len(stream["sink"]) == 6


# PySpark 3.5's Connect client gets no error class and no message parameters: a 3.5 server sends the top
# exception's message (cut to 2,048 characters) and the names of its Java class and superclasses only, and has
# no FetchErrorDetails call (docs/errors.md). sd.ScanError, never built from the text, is not raised there:
# Spark's own exception stands, with spark-drill's message inside its text.
needs_error_details = pytest.mark.skipif(
    not PYSPARK_4, reason="a Spark 3.5 Connect server sends no error class nor parameters"
)
only_pyspark_35 = pytest.mark.skipif(PYSPARK_4, reason="PySpark 4's Connect client gets the error details")


@needs_error_details
def test_a_bad_value_raises_scan_error_with_its_fields_under_connect(seen: dict[str, Any]) -> None:
    error = seen["scan_error"]
    assert "condition" in error, error
    assert error["condition"] == "SPARK_DRILL_UNCONVERTIBLE_VALUE"
    assert error["file"].endswith("/bad.csv") and (error["line"], error["offset"]) == (3, 14)
    assert (error["column"], error["value"]) == ("id", "it's (odd)")
    assert error["reason"] == "cannot convert the value to int" and error["option"].startswith(
        "mode=FAILFAST"
    )
    assert error["message"].startswith("spark-drill: cannot convert the value to int: file ")


@needs_error_details
def test_an_unknown_option_raises_scan_error_under_connect(seen: dict[str, Any]) -> None:
    error = seen["option_error"]
    assert "condition" in error, error
    assert error["condition"] == "SPARK_DRILL_UNKNOWN_OPTION" and error["file"] is None
    # Connect hands the server the reader's options by lower-case name: the option is named as it arrived.
    assert error["option"].lower() == "infertyps"
    assert "did you mean inferTypes?" in error["message"]


@needs_error_details
def test_a_schema_conflict_raises_scan_error_under_connect(seen: dict[str, Any]) -> None:
    error = seen["conflict_error"]
    assert "condition" in error, error
    assert error["condition"] == "SPARK_DRILL_SCHEMA_CONFLICT" and error["file"] is None
    assert error["reason"].startswith("type conflict:")


@only_pyspark_35
def test_pyspark_35_connect_raises_sparks_own_exceptions_without_class_or_parameters(
    seen: dict[str, Any],
) -> None:
    task, option, conflict = seen["scan_error"], seen["option_error"], seen["conflict_error"]
    for error in (task, option, conflict):
        assert "condition" not in error, error
        assert (error["error_class"], error["parameters"]) == (None, None), error
    # A task's error: Spark's "Job aborted", spark-drill's message (and the executor's stack trace) in its
    # text, cut to 2,048 characters by the server; the client puts the Java class (ErrorInfo.reason) first.
    lead = "(org.apache.spark.SparkException) "
    assert task["raised"] == "SparkConnectGrpcException"
    assert task["message"].startswith(lead + "Job aborted due to stage failure:")
    inner = "sparkdrill.errors.ScanException: [SPARK_DRILL_UNCONVERTIBLE_VALUE] spark-drill: "
    assert inner in task["message"]
    assert "line 3, byte offset 14, column 'id', value 'it's (odd)'" in task["message"]
    assert len(task["message"]) <= len(lead) + 2048, len(task["message"])
    # At planning the top exception is spark-drill's (an option's or a schema's error is an
    # IllegalArgumentException): its message, the Python class picked by the Java class names.
    assert option["raised"] == conflict["raised"] == "IllegalArgumentException"
    assert option["message"].startswith("[SPARK_DRILL_UNKNOWN_OPTION] spark-drill: unknown option ")
    assert conflict["message"].startswith("[SPARK_DRILL_SCHEMA_CONFLICT] spark-drill: type conflict")


def test_a_35_servers_error_info_is_never_read_for_fields() -> None:
    """What a Spark 3.5 server sends (docs/errors.md), given to the wrapped convert_exception as the 3.5
    client calls it (info, message): Spark's exception stands, whatever the message holds. An ErrorInfo with
    the class and parameters in its metadata (as Spark 4's has for a top SparkThrowable) gives a ScanError."""
    from google.rpc import error_details_pb2

    from spark_drill import ScanError
    from spark_drill._connect_errors import _converting

    classes = ["sparkdrill.errors.OptionException", "java.lang.IllegalArgumentException"]
    info = error_details_pb2.ErrorInfo(
        reason=classes[0], domain="org.apache.spark", metadata={"classes": json.dumps(classes)}
    )
    message = "[SPARK_DRILL_UNKNOWN_OPTION] spark-drill: unknown option 'headr'; did you mean header?"
    sparks_own = RuntimeError(message)
    convert = _converting(lambda info, message: sparks_own)
    assert convert(info, message) is sparks_own
    info.metadata["errorClass"] = "SPARK_DRILL_UNKNOWN_OPTION"
    info.metadata["messageParameters"] = json.dumps({"option": "headr", "reason": "unknown option"})
    error = convert(info, message)
    assert isinstance(error, ScanError)
    assert (error.condition, error.option) == ("SPARK_DRILL_UNKNOWN_OPTION", "headr")
    assert error.reason == "unknown option"


def test_the_helpers_leave_py4j_alone(seen: dict[str, Any]) -> None:
    assert seen["py4j_hook"] is False


def test_connect_extras_are_pinned_in_the_dev_dependencies() -> None:
    import tomllib

    dev = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    pinned = {d.split("==")[0] for d in dev if "==" in d}
    needed = {"grpcio", "grpcio-status", "googleapis-common-protos", "pandas", "pyarrow", "zstandard"}
    assert needed <= pinned, needed - pinned
