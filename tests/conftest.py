"""One local Spark session (with the installed spark-drill jar) for the whole pytest run."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

import spark_drill as sd

os.environ.setdefault("TZ", "UTC")

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples" / "logs"


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    session = sd.session(
        master="local[2]",
        app_name="spark-drill-tests",
        **{
            "spark.ui.enabled": "false",
            "spark.sql.shuffle.partitions": "2",
            "spark.sql.session.timeZone": "UTC",
            "spark.driver.host": "127.0.0.1",
            "spark.driver.bindAddress": "127.0.0.1",
        },
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    """Writes `files` (relative path -> content) under root; returns root."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return root
