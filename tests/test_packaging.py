"""The jar travels inside the wheel, and the package finds it from an installed copy and via spark-submit."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import SAMPLES

WHEEL = os.environ.get("SPARK_DRILL_WHEEL")
needs_wheel = pytest.mark.skipif(not WHEEL, reason="SPARK_DRILL_WHEEL is set by `make test`")


@needs_wheel
def test_wheel_contains_the_jar() -> None:
    assert WHEEL is not None
    names = zipfile.ZipFile(WHEEL).namelist()
    assert any(n.startswith("spark_drill/jars/spark-drill_2.13-") and n.endswith(".jar") for n in names), (
        names
    )


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
        "j._packaged_jars = lambda: (Path('/nowhere/jars'), [])\n"
        "j._checkout_jars = lambda: (Path('/nowhere/target'), [])\n"
        "j.jar_path()\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "SPARK_DRILL_JAR"}
    env["PYTHONPATH"] = str(package.parent)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode != 0
    assert "/nowhere/jars" in result.stderr and "/nowhere/target" in result.stderr
    assert "make jar" in result.stderr


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
