"""The jar travels inside the wheel, and the package finds it from an installed copy and via spark-submit."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pyspark
import pytest

from conftest import SAMPLES
from spark_drill import _jar

WHEEL = os.environ.get("SPARK_DRILL_WHEEL")
needs_wheel = pytest.mark.skipif(not WHEEL, reason="SPARK_DRILL_WHEEL is set by `make test`")


@needs_wheel
def test_wheel_contains_a_jar_for_each_spark_line() -> None:
    assert WHEEL is not None
    jars = sorted(n for n in zipfile.ZipFile(WHEEL).namelist() if n.endswith(".jar"))
    assert [re.sub(r"-[^-]+\.jar$", "", n) for n in jars] == [
        "spark_drill/jars/spark-drill-excel-spark3.5_2.12",
        "spark_drill/jars/spark-drill-excel-spark3.5_2.13",
        "spark_drill/jars/spark-drill-excel-spark4_2.13",
        "spark_drill/jars/spark-drill-spark3.5_2.12",
        "spark_drill/jars/spark-drill-spark3.5_2.13",
        "spark_drill/jars/spark-drill-spark4_2.13",
    ], jars


@needs_wheel
def test_the_excel_jar_carries_poi_shaded_and_nothing_else_outside_spark_drill() -> None:
    """The excel format's jar adds nothing to Spark's classpath: POI and its libraries are relocated under
    sparkdrill.shaded, and its plugin is registered for the ServiceLoader."""
    assert WHEEL is not None
    wheel = zipfile.ZipFile(WHEEL)
    for name in (n for n in wheel.namelist() if "/spark-drill-excel-" in n):
        with zipfile.ZipFile(wheel.open(name)) as jar:
            classes = [n for n in jar.namelist() if n.endswith(".class")]
            services = jar.read("META-INF/services/sparkdrill.reader.FormatPlugin").decode()
        assert "sparkdrill/formats/excel/ExcelFormat.class" in classes, name
        assert any(n.startswith("sparkdrill/shaded/org/apache/poi/") for n in classes), name
        assert [n for n in classes if not n.startswith("sparkdrill/")] == [], name
        assert "sparkdrill.formats.excel.ExcelFormat" in services, name


@needs_wheel
def test_each_jar_in_the_wheel_is_built_for_the_line_its_name_says() -> None:
    """Each jar is a real jar holding the classes and the line it records (an empty file named like a jar, or
    one line's jar under another's name, would fail only when a user's Spark loads it)."""
    assert WHEEL is not None
    wheel = zipfile.ZipFile(WHEEL)
    for name in (n for n in wheel.namelist() if n.endswith(".jar") and "/spark-drill-excel-" not in n):
        found = re.fullmatch(r".*/spark-drill-(spark[\d.]+)_(2\.1[23])-[^-]+\.jar", name)
        assert found, name
        line, scala = found.groups()
        with zipfile.ZipFile(wheel.open(name)) as jar:
            assert "sparkdrill/spark/DrillSource.class" in jar.namelist(), name
            recorded = jar.read("sparkdrill/spark-line.properties").decode()
        assert f"line={line}\n" in recorded and f"scalaBinary={scala}\n" in recorded, (name, recorded)


@needs_wheel
def test_jar_is_found_from_an_installed_wheel(tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(WHEEL)],
        check=True,
    )
    env = {k: v for k, v in os.environ.items() if k != "SPARK_DRILL_JAR"}
    env["PYTHONPATH"] = str(target)
    out = subprocess.run(
        [sys.executable, "-c", "import spark_drill; print(spark_drill.jar_path())"],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    ).stdout.strip()
    assert Path(out).is_file()
    assert Path(out).resolve().is_relative_to(target.resolve()), out


def test_missing_jar_error_says_what_it_looked_for(tmp_path: Path) -> None:
    import spark_drill

    package = Path(spark_drill.__file__).parent
    code = (
        "import spark_drill._jar as j\n"
        "from pathlib import Path\n"
        "j._packaged_dir = lambda: Path('/nowhere/jars')\n"
        "j._checkout_dir = lambda: Path('/nowhere/target')\n"
        "j.jar_path()\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "SPARK_DRILL_JAR"}
    env["PYTHONPATH"] = str(package.parent)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode != 0
    assert "/nowhere/jars" in result.stderr and "/nowhere/target/spark" in result.stderr
    assert "make jar" in result.stderr


@pytest.mark.slow
def test_spark_submit_with_jars(tmp_path: Path) -> None:
    import spark_drill

    script = tmp_path / "app.py"
    script.write_text(
        "from pyspark.sql import SparkSession\n"
        "spark = SparkSession.builder.getOrCreate()\n"
        "spark.sparkContext.setLogLevel('ERROR')\n"
        f"df = spark.read.format('drill').option('header', 'true').load({str(SAMPLES)!r})\n"
        "print('ROWS', df.count())\n"
        f"print('USERS', sorted(r.user for r in spark.sql('SELECT user FROM drill.`{SAMPLES}`'"
        ").collect() if r.user))\n"
        "spark.stop()\n"
    )
    import pyspark

    submit = Path(sys.executable).parent / "spark-submit"
    env = dict(os.environ)
    env["SPARK_HOME"] = str(Path(pyspark.__file__).parent)
    env["PYSPARK_PYTHON"] = sys.executable
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    result = subprocess.run(
        [
            str(submit),
            "--master",
            "local[1]",
            "--jars",
            spark_drill.jar_path(),
            "--conf",
            f"spark.sql.catalog.drill={spark_drill.CATALOG_CLASS}",
            "--conf",
            "spark.sql.catalog.drill.header=true",
            "--conf",
            "spark.ui.enabled=false",
            str(script),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "ROWS 6" in result.stdout
    assert "USERS ['ann', 'ann', 'bob', 'cy', 'dee', 'root']" in result.stdout


@pytest.mark.slow
def test_running_session_without_the_jar_is_refused() -> None:
    code = (
        "from pyspark.sql import SparkSession\n"
        "import spark_drill\n"
        "s = SparkSession.builder.master('local[1]').config('spark.ui.enabled','false').getOrCreate()\n"
        "try:\n"
        "    spark_drill.configure(SparkSession.builder)\n"
        "except RuntimeError as e:\n"
        "    print('REFUSED', e)\n"
        "s.stop()\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert "REFUSED" in result.stdout, result.stderr[-3000:]
    assert "configure(" in result.stdout


# The jar of the other Spark line, of the same Scala where there is one: started on this Spark, it must refuse
# at the first read with a message naming both (not fail later with a NoSuchMethodError).
OTHER_LINE = {"spark3.5_2.12": ("spark4_2.13", "4"), "spark4_2.13": ("spark3.5_2.13", "3.5")}
WRONG_JAR = f"""
import spark_drill as sd
# The JVM's stack trace in the Python exception: the message may be a cause's.
conf = {{"spark.ui.enabled": "false", "spark.sql.pyspark.jvmStacktrace.enabled": "true"}}
spark = sd.session(master="local[1]", **conf)
spark.sparkContext.setLogLevel("ERROR")
for source in ("drill", "drill-describe"):  # a read, and the report sd.describe reads
    try:
        spark.read.format(source).option("header", "true").load({str(SAMPLES)!r}).collect()
        print("READ", source)
    except Exception as e:
        print("REFUSED", source, str(e).replace("\\n", " "))
spark.stop()
"""


@pytest.mark.slow
def test_a_jar_of_the_other_spark_line_is_refused_at_the_first_read() -> None:
    line = _jar.spark_target().line
    if line not in OTHER_LINE:
        pytest.skip(f"no other line's jar to try on {line}")
    other, other_spark = OTHER_LINE[line]
    jars = _jar._jars(_jar._packaged_dir(), other) or _jar._jars(_jar._checkout_dir() / other, other)
    if not jars:
        pytest.skip(f"no {other} jar here (the wheel `make wheel` builds has every line's)")
    env = {**os.environ, "SPARK_DRILL_JAR": str(jars[-1]), "SPARK_LOCAL_IP": "127.0.0.1"}
    done = subprocess.run(
        [sys.executable, "-c", WRONG_JAR], capture_output=True, text=True, timeout=300, env=env
    )
    out = done.stdout + done.stderr
    for source in ("drill", "drill-describe"):
        refused = [line for line in done.stdout.splitlines() if line.startswith(f"REFUSED {source} ")]
        assert refused, out[-3000:]
        assert f"built for Spark {other_spark}" in refused[0] and pyspark.__version__ in refused[0], refused
    assert "NoSuchMethodError" not in out and "NoClassDefFoundError" not in out, out[-3000:]
