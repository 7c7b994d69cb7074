"""The jar `jar_path()` picks for the Spark a session will start, read from fake Spark installations (a
`jars/` directory holding that Spark's `spark-core_<scala>-<version>.jar`) and fake jar folders. No Spark
starts here."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pyspark
import pytest

from spark_drill import _jar

pytestmark = pytest.mark.compat

VERSION = "0.1.0"
LINES = ("spark4_2.13", "spark3.5_2.12", "spark3.5_2.13")
SUPPORTED = "spark-drill runs on Spark 4.x on Scala 2.13, and Spark 3.5 on Scala 2.12 or 2.13"


def spark_home(root: Path, scala: str, version: str) -> Path:
    """A Spark installation as far as the jar choice looks: its jars/ with spark-core and a neighbour."""
    jars = root / f"spark-{version}" / "jars"
    jars.mkdir(parents=True)
    (jars / f"spark-catalyst_{scala}-{version}.jar").touch()
    (jars / f"spark-core_{scala}-{version}.jar").touch()
    return jars.parent


def jar_folder(root: Path, lines: tuple[str, ...] = LINES) -> Path:
    """A folder of spark-drill jars, one per line, as the wheel carries them."""
    root.mkdir(parents=True, exist_ok=True)
    for line in lines:
        (root / f"spark-drill-{line}-{VERSION}.jar").touch()
    return root


@pytest.fixture
def packaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The installed package's jar folder (all three lines) and an empty source checkout; no override."""
    folder = jar_folder(tmp_path / "site" / "spark_drill" / "jars")
    checkout = tmp_path / "checkout" / "target"
    monkeypatch.setattr(_jar, "_packaged_dir", lambda: folder)
    monkeypatch.setattr(_jar, "_checkout_dir", lambda: checkout)
    monkeypatch.delenv("SPARK_DRILL_JAR", raising=False)
    return folder


@pytest.mark.parametrize(
    ("scala", "version", "line"),
    [
        ("2.13", "4.0.0", "spark4_2.13"),
        ("2.13", "4.3.0", "spark4_2.13"),
        ("2.12", "3.5.9", "spark3.5_2.12"),
        ("2.13", "3.5.1", "spark3.5_2.13"),
        ("2.12", "3.5.1-amzn-0", "spark3.5_2.12"),  # EMR names its jars so
    ],
)
def test_each_supported_spark_gets_its_lines_jar(
    packaged: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scala: str, version: str, line: str
) -> None:
    home = spark_home(tmp_path, scala, version)
    monkeypatch.setenv("SPARK_HOME", str(home))
    target = _jar.spark_target()
    assert (target.version, target.scala, target.line) == (version, scala, line)
    assert target.source == str(home / "jars" / f"spark-core_{scala}-{version}.jar")
    assert _jar.jar_path() == str(packaged / f"spark-drill-{line}-{VERSION}.jar")


@pytest.mark.parametrize(
    ("scala", "version"),
    [("2.12", "3.4.1"), ("2.13", "5.0.0"), ("2.12", "4.1.0")],
)
def test_an_unsupported_spark_is_refused_naming_it_the_supported_lines_and_where_it_was_read(
    packaged: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scala: str, version: str
) -> None:
    home = spark_home(tmp_path, scala, version)
    monkeypatch.setenv("SPARK_HOME", str(home))
    core = home / "jars" / f"spark-core_{scala}-{version}.jar"
    with pytest.raises(RuntimeError) as raised:
        _jar.jar_path()
    message = str(raised.value)
    assert message.startswith(f"no spark-drill jar for Spark {version} (Scala {scala}, read from {core}): ")
    assert SUPPORTED in message
    assert "SPARK_DRILL_JAR" in message


def test_spark_drill_jar_overrides_the_choice_even_for_an_unsupported_spark(
    packaged: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPARK_HOME", str(spark_home(tmp_path, "2.12", "3.4.1")))
    mine = tmp_path / "my.jar"
    mine.touch()
    monkeypatch.setenv("SPARK_DRILL_JAR", str(mine))
    assert _jar.jar_path() == str(mine.resolve())
    monkeypatch.setenv("SPARK_DRILL_JAR", str(tmp_path / "missing.jar"))
    with pytest.raises(FileNotFoundError, match=r"SPARK_DRILL_JAR names .*missing\.jar, which is not a file"):
        _jar.jar_path()


@pytest.mark.parametrize(
    ("version", "scala", "line"),
    [("4.2.1", "2.13", "spark4_2.13"), ("3.5.3", "2.12", "spark3.5_2.12"), ("3.4.0", "2.12", None)],
)
def test_without_the_installations_jars_pyspark_version_decides(
    packaged: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    version: str,
    scala: str,
    line: str | None,
) -> None:
    # A SPARK_HOME whose jars are not named as Apache's (Databricks), then one without jars/ at all.
    odd = tmp_path / "odd"
    (odd / "jars").mkdir(parents=True)
    (odd / "jars" / "----ws_3_5--core--core-hive-2.3__hadoop-3.2_2.12_deploy.jar").touch()
    monkeypatch.setattr(pyspark, "__version__", version)
    for home in (odd, tmp_path / "bare"):
        monkeypatch.setenv("SPARK_HOME", str(home))
        target = _jar.spark_target()
        assert (target.version, target.scala, target.line) == (version, scala, line)
        assert target.source == f"pyspark.__version__; {home / 'jars'} has no spark-core jar"
        if line is None:
            with pytest.raises(
                RuntimeError, match=re.escape(f"Spark {version} (Scala {scala}, read from py")
            ):
                _jar.jar_path()
        else:
            assert _jar.jar_path() == str(packaged / f"spark-drill-{line}-{VERSION}.jar")


def test_without_spark_home_the_installation_pyspark_starts_decides(
    packaged: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pip's PySpark is its own Spark installation: the package directory, with jars/.
    monkeypatch.delenv("SPARK_HOME", raising=False)
    target = _jar.spark_target()
    assert Path(target.source).parent == Path(pyspark.__file__).parent / "jars"
    assert target.version == pyspark.__version__
    assert target.line is not None
    assert _jar.jar_path() == str(packaged / f"spark-drill-{target.line}-{VERSION}.jar")


def test_a_source_checkout_gives_the_newest_built_jar_of_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target_dir = tmp_path / "target"
    built = target_dir / "spark3.5_2.12"
    built.mkdir(parents=True)
    old, new, tests = (
        built / f"spark-drill-spark3.5_2.12-{v}.jar" for v in ("0.0.9", "0.1.0", "0.1.0-tests")
    )
    for i, jar in enumerate((old, new, tests)):
        jar.touch()
        os.utime(jar, (1_000_000 + i, 1_000_000 + i))
    jar_folder(target_dir / "spark4_2.13", ("spark4_2.13",))
    monkeypatch.setattr(_jar, "_packaged_dir", lambda: tmp_path / "site" / "jars")
    monkeypatch.setattr(_jar, "_checkout_dir", lambda: target_dir)
    monkeypatch.delenv("SPARK_DRILL_JAR", raising=False)
    monkeypatch.setenv("SPARK_HOME", str(spark_home(tmp_path, "2.12", "3.5.9")))
    assert _jar.jar_path() == str(new)


def test_a_missing_jar_of_a_supported_line_says_where_it_looked_and_how_to_build_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A wheel with the Spark 4 jar only, and no checkout: a Spark 3.5 session has no jar.
    folder = jar_folder(tmp_path / "jars", ("spark4_2.13",))
    monkeypatch.setattr(_jar, "_packaged_dir", lambda: folder)
    monkeypatch.setattr(_jar, "_checkout_dir", lambda: tmp_path / "target")
    monkeypatch.delenv("SPARK_DRILL_JAR", raising=False)
    monkeypatch.setenv("SPARK_HOME", str(spark_home(tmp_path, "2.12", "3.5.9")))
    with pytest.raises(FileNotFoundError) as raised:
        _jar.jar_path()
    message = str(raised.value)
    assert message.startswith("spark-drill jar for Spark 3.5.9 (Scala 2.12, read from ")
    assert f"spark-drill-spark3.5_2.12-*.jar in {folder} (the installed package)" in message
    assert f"in {tmp_path / 'target' / 'spark3.5_2.12'} (a source checkout)" in message
    assert "`make jar` (or `dev/sbt -Dspark.version=3.5.0 package`)" in message
