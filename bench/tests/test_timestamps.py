"""bench.timestamps' pure parts (issue 41): the data is seeded and has the shapes the bench is about, and the
worker's script compiles. Nothing here starts Spark."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

from bench import timestamps


def test_the_worker_compiles() -> None:
    compile(timestamps.WORKER, "worker", "exec")


def test_the_data_is_seeded_and_every_member_has_its_iso_shape(tmp_path: Path) -> None:
    timestamps.generate(tmp_path / "a", files=2, rows=50)
    timestamps.generate(tmp_path / "b", files=2, rows=50)
    a = sorted((tmp_path / "a").iterdir())
    assert [f.read_bytes() for f in a] == [f.read_bytes() for f in sorted((tmp_path / "b").iterdir())]
    records = [json.loads(line) for f in a for line in f.read_text().splitlines()]
    assert [r["id"] for r in records] == list(range(100))
    for r in records:
        assert r["created"].endswith("Z") and datetime.fromisoformat(r["created"].replace("Z", "+00:00"))
        assert r["updated"][-6:] in timestamps.OFFSETS and datetime.fromisoformat(r["updated"]).tzinfo
        assert r["seen"][10] == " " and datetime.fromisoformat(r["seen"]).tzinfo is None
        assert date.fromisoformat(r["day"]) == datetime.fromisoformat(r["seen"]).date()
