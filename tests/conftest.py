"""Helpers of the tests; the `spark` fixture (one local session for the whole run) is in ../conftest.py."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("TZ", "UTC")
# No test may use, start or stop the user's own local server (`spark-drill serve`): the CLI looks for one in
# an empty directory of this process (tests/test_serve.py gives each of its servers a directory of its own).
os.environ["SPARK_DRILL_SERVER_DIR"] = tempfile.mkdtemp(prefix="spark-drill-server-")

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples" / "logs"

# tests/s3 needs moto and a Spark session started with the S3A jars, so `make test-s3` runs it in a pytest
# run of its own (`pytest tests/s3`: a path named on the command line is collected even when listed here).
collect_ignore = ["s3"]


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    """Writes `files` (relative path -> content) under root; returns root."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return root
