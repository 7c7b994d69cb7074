"""The Spark session shared by tests/ and by the doctests of the installed spark_drill package.

`make test` runs `pytest tests --doctest-modules <the installed package>`: the doctests run against the wheel
the other tests use (the source tree's python/spark_drill would clash with it on import). They see `spark`
and run from the repository root, so their examples read `samples/...`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from _pytest.doctest import DoctestItem

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

os.environ.setdefault("TZ", "UTC")

REPO = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    import spark_drill as sd

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


@pytest.fixture(autouse=True)
def _doctest_session(request: pytest.FixtureRequest, doctest_namespace: dict[str, Any]) -> None:
    if isinstance(request.node, DoctestItem):
        doctest_namespace["spark"] = request.getfixturevalue("spark")
        request.getfixturevalue("monkeypatch").chdir(REPO)
