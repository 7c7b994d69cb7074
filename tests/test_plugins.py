"""A format from the user's own jar: the example format (examples/fixedwidth, `format=fixedwidth`, option
`widths`), built as a jar of its own and added to a session with `spark.jars`, read through sd.read,
sd.describe, sd.read_stream and the command line. Python does not know the format's options: the JVM's option
table does, and judges them (a misspelling names the nearest) before a job runs.

The jar must be on the classpath when the JVM starts, so each test starts one of its own: a child Python for
the API, the `spark-drill` command for the command line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO, write_files
from spark_drill import _jar
from test_cli import spark_drill

FILES = {"2024/a.fwf": "  1ann  \n  2bob  x\n", "b.data": "  3cy   \n"}


def example_jar() -> Path:
    """The example format's jar for the Spark line this PySpark runs (the Makefile builds it)."""
    line = _jar.spark_target().line
    assert line is not None
    folder = REPO / "examples" / "fixedwidth" / "target" / line
    jars = sorted(
        folder.glob(f"spark-drill-example-fixedwidth-{line}-*.jar"), key=lambda p: p.stat().st_mtime
    )
    if not jars:
        sbt = _jar.BUILDS[line].replace(" package", " fixedwidth/package")
        pytest.fail(f"the example format's jar is not built: no {folder}/*.jar; build it with `{sbt}`")
    return jars[-1]


CHILD = r"""
import json
import sys

import spark_drill as sd
from spark_drill import cli

jar, root, schemas = sys.argv[1], sys.argv[2], sys.argv[3]
spark = sd.session(
    master="local[2]",
    **{
        "spark.jars": jar,
        "spark.ui.enabled": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.driver.host": "127.0.0.1",
        "spark.driver.bindAddress": "127.0.0.1",
    },
)
spark.sparkContext.setLogLevel("ERROR")
seen = {}


def rows(df):
    return sorted([None if v is None else str(v) for v in r] for r in df.collect())


def refused(read):
    # What a read says and how many Spark jobs ran before it said it.
    spark.sparkContext.setJobGroup("refused", "refused")
    try:
        read()
        message = None
    except Exception as e:
        message = str(e)
    return [message, len(spark.sparkContext.statusTracker().getJobIdsForGroup("refused"))]


named = sd.read(spark, root, format="fixedwidth", options={"widths": "3,5"})
seen["named"] = [named.columns, rows(named.select("_c0", "_c1", "filename"))]
by_suffix = sd.read(spark, root, options={"widths": "id:3,name:5"})
seen["by_suffix"] = [by_suffix.columns, rows(by_suffix)]
report = sd.describe(spark, root, options={"widths": "id:3,name:5"})
seen["describe"] = sorted(r.column for r in report.collect())
stream = sd.read_stream(spark, root, schema_location=schemas, options={"widths": "id:3,name:5"})
seen["stream"] = stream.columns
seen["plugin_typo"] = refused(lambda: sd.read(spark, root, format="fixedwidth", options={"widht": "3,5"}))
seen["builtin_typo"] = refused(lambda: sd.read(spark, root, options={"widths": "3", "headr": "true"}))
seen["bad_layout"] = refused(lambda: sd.read(spark, root, options={"widths": "3,x"}))
seen["cli"] = cli.main(
    ["show", root, "--format", "fixedwidth", "-o", "widths=3,5", "--output", "json"], spark=spark
)
spark.stop()
print("SEEN " + json.dumps(seen))
"""


def run_child(tmp_path: Path) -> tuple[dict[str, Any], str]:
    root = write_files(tmp_path / "data", FILES)
    env = {**os.environ, "TZ": "UTC", "SPARK_LOCAL_IP": "127.0.0.1"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(example_jar()), str(root), str(tmp_path / "schemas")],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    lines = done.stdout.splitlines()
    seen = [line for line in lines if line.startswith("SEEN ")]
    assert seen, done.stdout + done.stderr[-5000:]
    printed = "\n".join(line for line in lines if not line.startswith("SEEN "))
    return json.loads(seen[-1][len("SEEN ") :]), printed


def test_a_plugin_format_from_spark_jars_reads_with_its_own_options(tmp_path: Path) -> None:
    seen, printed = run_child(tmp_path)
    assert seen["named"] == [
        ["_c0", "_c1", "rest", "dir0"],
        [["1", "ann", "a.fwf"], ["2", "bob", "a.fwf"], ["3", "cy", "b.data"]],
    ]
    assert seen["by_suffix"] == [
        ["id", "name", "rest", "dir0"],
        [["1", "ann", None, "2024"], ["2", "bob", "x", "2024"]],
    ]
    assert seen["describe"] == ["id", "name", "rest"]
    assert seen["stream"] == ["id", "name", "rest", "dir0"]
    # A misspelling of the plugin's option or of a built-in one: the JVM names the nearest, before any job.
    assert "unknown option 'widht'; did you mean widths?" in seen["plugin_typo"][0]
    assert "unknown option 'headr'; did you mean header?" in seen["builtin_typo"][0]
    assert "option 'widths': 'x' is not width or name:width" in seen["bad_layout"][0]
    assert [s[1] for s in (seen["plugin_typo"], seen["builtin_typo"], seen["bad_layout"])] == [0, 0, 0]
    # The command line in the same session: its rows as JSON lines.
    assert seen["cli"] == 0
    assert sorted(json.loads(line)["_c1"] for line in printed.splitlines() if line.startswith("{")) == [
        "ann",
        "bob",
        "cy",
    ]


@pytest.mark.slow
def test_the_command_line_adds_the_jar_with_jars(tmp_path: Path) -> None:
    root = write_files(tmp_path, FILES)
    jar = str(example_jar())
    argv = ["show", str(root), "--format", "fixedwidth", "-o", "widths=3,5", "--output", "json"]
    done = spark_drill(*argv, "--jars", jar)
    assert done.returncode == 0, done.stderr
    assert sorted(json.loads(line)["_c0"] for line in done.stdout.splitlines()) == ["1", "2", "3"]
    # A misspelt option of the plugin is a usage error naming the nearest.
    done = spark_drill("show", str(root), "--format", "fixedwidth", "-o", "widhts=3,5", "--jars", jar)
    assert done.returncode == 2
    assert "unknown option 'widhts'; did you mean widths?" in done.stderr
    # Without the jar, neither the format nor its option is known.
    done = spark_drill(*argv)
    assert done.returncode == 2
    assert "unknown option 'widths'" in done.stderr
    done = spark_drill("show", str(root), "--format", "fixedwidth")
    assert done.returncode == 2
    assert "unknown format 'fixedwidth'" in done.stderr
