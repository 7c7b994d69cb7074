"""Finds the spark-drill jar: inside the installed wheel, or the sbt-built one in a source checkout."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

JAR_GLOB = "spark-drill_2.13-*.jar"


def _packaged_jars() -> tuple[Path, list[Path]]:
    # Wheels install unpacked, so the resource is a real file; as_file() would hand the JVM a temporary
    # copy that disappears while Spark still needs it.
    folder = Path(str(resources.files("spark_drill") / "jars"))
    return folder, sorted(folder.glob(JAR_GLOB)) if folder.is_dir() else []


def _checkout_jars() -> tuple[Path, list[Path]]:
    folder = Path(__file__).resolve().parents[2] / "target" / "scala-2.13"
    if not folder.is_dir():
        return folder, []
    # sbt also writes a `-tests.jar` beside the main one when test classes are packaged.
    jars = [p for p in folder.glob(JAR_GLOB) if not p.name.endswith("-tests.jar")]
    return folder, sorted(jars, key=lambda p: p.stat().st_mtime)


def jar_path() -> str:
    """The absolute path of the spark-drill jar to put on Spark's classpath (`spark.jars`)."""
    override = os.environ.get("SPARK_DRILL_JAR")
    if override:
        if not Path(override).is_file():
            raise FileNotFoundError(f"SPARK_DRILL_JAR names {override}, which is not a file")
        return str(Path(override).resolve())
    packaged_dir, packaged = _packaged_jars()
    if packaged:
        return str(packaged[-1])
    checkout_dir, built = _checkout_jars()
    if built:
        return str(built[-1])
    raise FileNotFoundError(
        f"spark-drill jar not found: looked for {JAR_GLOB} in {packaged_dir} (the installed package) and "
        f"in {checkout_dir} (a source checkout). Build it with `make jar` (or `dev/sbt package`) in the "
        "source tree, or install the spark-drill wheel, or set SPARK_DRILL_JAR to the jar's path."
    )
