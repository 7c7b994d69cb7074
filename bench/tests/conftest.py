"""Generated data shared by the bench tests: a small tree (seed 3) and its truth."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.gen import generate

SIZE_MB = 0.4


@pytest.fixture(scope="session")
def data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("data")
    return out, generate(out, seed=3, size_mb=SIZE_MB, parts=2, jobs=2, newline=False, log=False)
