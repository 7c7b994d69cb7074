"""Finds the spark-drill jar for the Spark a session will start: the installed wheel carries one jar per Spark
line, a source checkout has the sbt-built ones under target/<line>/.

Which Spark: the one PySpark launches, read from its installation's own jars (`$SPARK_HOME/jars`, else the
installation PySpark finds itself, which for pip's PySpark is the package directory), else
`pyspark.__version__` (Scala 2.13 for 4.x, 2.12 for 3.x) where those jars say nothing (Databricks renames
them).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

SUPPORTED = "Spark 4.x on Scala 2.13, and Spark 3.5 on Scala 2.12 or 2.13"
# Each line's jar, spark-drill-<line>-<version>.jar, and the sbt command that builds it into target/<line>/.
BUILDS = {
    "spark4_2.13": "dev/sbt package",
    "spark3.5_2.12": "dev/sbt -Dspark.version=3.5.0 package",
    "spark3.5_2.13": "dev/sbt -Dspark.version=3.5.0 -Dscala.binary=2.13 package",
}
# spark-core_2.13-4.3.0.jar; vendors add to the version (spark-core_2.12-3.5.1-amzn-0.jar).
_SPARK_CORE = re.compile(r"spark-core_(\d+\.\d+)-(\d+\.\d+\.\d+\S*)\.jar")


@dataclass(frozen=True)
class SparkTarget:
    """The Spark a session started from this Python runs: its version, Scala binary version and where they
    were read."""

    version: str
    scala: str
    source: str

    @property
    def line(self) -> str | None:
        """The spark-drill jar line for this Spark (a key of BUILDS), or None when there is none."""
        parts = self.version.split(".")
        if parts[0] == "4" and self.scala == "2.13":
            return "spark4_2.13"
        if parts[:2] == ["3", "5"] and self.scala in ("2.12", "2.13"):
            return f"spark3.5_{self.scala}"
        return None

    def __str__(self) -> str:
        return f"Spark {self.version} (Scala {self.scala}, read from {self.source})"


def _spark_home() -> Path | None:
    home = os.environ.get("SPARK_HOME")
    if home:
        return Path(home)
    try:
        from pyspark.find_spark_home import _find_spark_home
    except ImportError:
        return None
    # PySpark's own search, as its gateway runs it; it prints to stderr and exits when it finds nothing.
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            return Path(_find_spark_home())
        except SystemExit:
            return None


def spark_target() -> SparkTarget:
    """The Spark a session started from this Python will run (see the module's docstring)."""
    home = _spark_home()
    jars = home / "jars" if home is not None else None
    if jars is not None and jars.is_dir():
        for jar in sorted(jars.glob("spark-core_*.jar")):
            found = _SPARK_CORE.fullmatch(jar.name)
            if found:
                return SparkTarget(found.group(2), found.group(1), str(jar))
    try:
        import pyspark
    except ImportError:
        raise RuntimeError(
            "cannot tell which Spark spark-drill is for: no SPARK_HOME with a spark-core jar and no pyspark; "
            "set SPARK_HOME or SPARK_DRILL_JAR"
        ) from None
    version = str(pyspark.__version__)
    scala = "2.12" if version.startswith("3.") else "2.13"
    where = f"{jars} has no spark-core jar" if jars is not None else "no Spark installation found"
    return SparkTarget(version, scala, f"pyspark.__version__; {where}")


def _packaged_dir() -> Path:
    # Wheels install unpacked, so the resource is a real file; as_file() would hand the JVM a temporary
    # copy that disappears while Spark still needs it.
    return Path(str(resources.files("spark_drill") / "jars"))


def _checkout_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "target"


def _excel_checkout_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "jvm" / "excel" / "target" / "assembly"


def _jars(folder: Path, line: str, name: str = "spark-drill") -> list[Path]:
    """The line's jars of `name` in `folder`, newest last: sbt leaves the jars of earlier versions, and
    writes a `-tests.jar` beside the main one when test classes are packaged."""
    if not folder.is_dir():
        return []
    jars = [p for p in folder.glob(f"{name}-{line}-*.jar") if not p.name.endswith("-tests.jar")]
    return sorted(jars, key=lambda p: (p.stat().st_mtime, p.name))


def excel_jar_for(target: SparkTarget) -> str | None:
    """The absolute path of the excel format's jar (`format=excel`, its own jar with Apache POI shaded
    inside) for `target`'s Spark line: the installed wheel's, else a source checkout's `excel/assembly`;
    None when there is none (the core reads every other format without it)."""
    line = target.line
    if line is None:
        return None
    for folder in (_packaged_dir(), _excel_checkout_dir() / line):
        jars = _jars(folder, line, "spark-drill-excel")
        if jars:
            return str(jars[-1])
    return None


def jar_for(target: SparkTarget) -> str:
    """The absolute path of the spark-drill jar built for `target`'s Spark line."""
    line = target.line
    if line is None:
        raise RuntimeError(
            f"no spark-drill jar for {target}: spark-drill runs on {SUPPORTED}. Point SPARK_HOME at a "
            "supported Spark or install one (pip install 'pyspark>=3.5,<5'), or set SPARK_DRILL_JAR to a "
            "jar's path to use that jar anyway."
        )
    packaged_dir, checkout_dir = _packaged_dir(), _checkout_dir() / line
    for folder in (packaged_dir, checkout_dir):
        jars = _jars(folder, line)
        if jars:
            return str(jars[-1])
    raise FileNotFoundError(
        f"spark-drill jar for {target} not found: looked for spark-drill-{line}-*.jar in {packaged_dir} "
        f"(the installed package) and in {checkout_dir} (a source checkout). Build it with `make jar` "
        f"(or `{BUILDS[line]}`) in the source tree, or install the spark-drill wheel, or set "
        "SPARK_DRILL_JAR to the jar's path."
    )


def jar_path() -> str:
    """The absolute path of the spark-drill jar to put on Spark's classpath (`spark.jars`): SPARK_DRILL_JAR
    when set, else the jar built for the Spark a session started from this Python runs ($SPARK_HOME's, else
    PySpark's own). Raises RuntimeError for a Spark spark-drill has no jar for."""
    override = os.environ.get("SPARK_DRILL_JAR")
    if override:
        if not Path(override).is_file():
            raise FileNotFoundError(f"SPARK_DRILL_JAR names {override}, which is not a file")
        return str(Path(override).resolve())
    return jar_for(spark_target())


def extra_jar_paths() -> list[str]:
    """The format jars a session gets beside the core's (the excel format's, when it is there): none when
    SPARK_DRILL_JAR names the core jar, since the line they are for is then the user's to say."""
    if os.environ.get("SPARK_DRILL_JAR"):
        return []
    excel = excel_jar_for(spark_target())
    return [excel] if excel is not None else []


def jar_paths() -> list[str]:
    """Every jar a session needs for spark-drill, core first: `jar_path()` and the format jars beside it (the
    excel format's). What `spark-submit --jars` takes, joined by commas."""
    return [jar_path(), *extra_jar_paths()]
