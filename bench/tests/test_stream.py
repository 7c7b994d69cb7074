"""bench.stream's pure parts (issue 27): reading planning phases from a progress, counting a state's bytes
written, the trees, and the report's targets. Nothing here starts Spark."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.stream import (
    DIRS,
    NEW_DIR_BASE,
    Planning,
    clean,
    generate,
    markdown,
    medians,
    planning,
    state_files,
    targets,
    written,
)


def _progress(latest: int, planning_ms: int, get_batch: int | None = None, **metrics: int) -> dict[str, Any]:
    durations = {
        "latestOffset": latest,
        "queryPlanning": planning_ms,
        "addBatch": 500,
        "triggerExecution": 900,
    }
    if get_batch is not None:
        durations["getBatch"] = get_batch
    return {"durationMs": durations, "sources": [{"metrics": {k: str(v) for k, v in metrics.items()}}]}


def test_planning_is_latest_offset_query_planning_and_get_batch() -> None:
    drill = planning(_progress(40, 30, 0, listingTimeMs=25, discoveryTimeMs=3))
    assert drill == Planning(40.0, 30.0, 0.0, 25.0, 3.0)
    assert (drill.total, drill.without_listing) == (70.0, 45.0)
    spark = planning({"durationMs": {"latestOffset": 400, "queryPlanning": 10}, "sources": [{"metrics": {}}]})
    assert spark.get_batch == 0.0  # a phase Spark did not report took no time
    assert spark.listing is None and spark.without_listing is None  # Spark's source reports no listing


def test_medians_are_taken_figure_by_figure() -> None:
    runs = [_progress(10, 100, 0, listingTimeMs=5), _progress(100, 10, 0, listingTimeMs=50)]
    runs.append(_progress(20, 20, 0, listingTimeMs=10))
    m = medians(runs)
    assert (m["latestOffset"], m["queryPlanning"], m["listing"]) == (20.0, 20.0, 10.0)
    assert m["total"] == 110.0  # of the totals 110, 110, 40: not 20 + 20 + 0
    assert m["withoutListing"] == 60.0  # of 105, 60, 30
    assert m["discovery"] is None


def test_bytes_written_count_every_file_once_at_its_largest() -> None:
    assert written({"batches/0": 300, "batches/1": 280, "tiers/1-0-9": 900}) == 1480
    assert written({}) == 0


def test_state_files_leave_out_temporary_checksum_and_lease_files(tmp_path: Path) -> None:
    (tmp_path / "drill" / "batches").mkdir(parents=True)
    (tmp_path / "drill" / "batches" / "0").write_bytes(b"x" * 10)
    (tmp_path / "drill" / "batches" / ".1.abc.tmp").write_bytes(b"x" * 99)
    (tmp_path / "drill" / ".metadata.json.crc").write_bytes(b"x" * 8)
    (tmp_path / "drill" / "metadata.json").write_bytes(b"x" * 5)
    (tmp_path / "drill" / "lease").write_bytes(b"x" * 40)
    assert state_files(tmp_path) == {"drill/batches/0": 10, "drill/metadata.json": 5}
    assert state_files(tmp_path / "missing") == {}


def test_trees_are_made_once_and_a_dead_run_s_new_files_removed(tmp_path: Path) -> None:
    tree = generate(tmp_path, 450)
    files = sorted(tree.rglob("*.csv"))
    assert len(files) == 450 and len(list(tree.iterdir())) == DIRS
    assert (tree / "d=001" / "f000001.csv").read_text() == "id,name\n1,n1\n"
    (tree / f"d={NEW_DIR_BASE}").mkdir()  # left by a run that died
    (tree / f"d={NEW_DIR_BASE}" / "n.csv").write_text("id,name\n1,n\n")
    mtime = files[0].stat().st_mtime_ns
    assert generate(tmp_path, 450) == tree
    assert files[0].stat().st_mtime_ns == mtime  # reused, not written again
    assert not (tree / f"d={NEW_DIR_BASE}").exists()
    clean(tree)  # nothing left to clean
    assert len(list(tree.iterdir())) == DIRS


def _engine(total: float, without_listing: float | None, restart: float = 0.2) -> dict[str, Any]:
    plan = {
        "latestOffset": total / 2,
        "queryPlanning": total / 2,
        "getBatch": 0.0,
        "total": total,
        "listing": None if without_listing is None else total - without_listing,
        "discovery": 1.0,
        "withoutListing": without_listing,
    }
    return {
        "plan": plan,
        "restart_wall": restart,
        "restart_latest_offset": 50.0,
        "state_bytes_on_disk": 3000,
        "metrics": {"stateBytes": "2900"},
    }


def _plan(files: int, drill: float, drill_without: float, spark: float) -> dict[str, Any]:
    return {"files": files, "spark-drill": _engine(drill, drill_without), "spark": _engine(spark, None, 5.0)}


def test_targets_judge_the_largest_tree_and_the_growth() -> None:
    plans = [_plan(10_000, 60, 40, 700), _plan(100_000, 400, 47, 900)]
    lines = targets(plans, None)
    assert lines[0].endswith("400 ms / 900 ms = 0.44x, met")
    assert lines[1].endswith("at most 47 ms, met")
    assert lines[2].endswith("40 to 47 ms, +18%, met")
    assert lines[3].startswith("- restart at 100,000 files read under 1 s") and lines[3].endswith("met")
    plans = [_plan(10_000, 60, 40, 700), _plan(100_000, 500, 120, 900)]
    missed = targets(plans, None)
    assert missed[0].endswith("0.56x, **NOT met**")
    assert missed[1].endswith("**NOT met**") and missed[2].endswith("+200%, **NOT met**")


@pytest.mark.parametrize(("batch", "stream", "verdict"), [(1.0, 1.1, "met"), (1.0, 1.2, "**NOT met**")])
def test_rows_target_is_stream_rows_per_second_over_batch_s(
    batch: float, stream: float, verdict: str
) -> None:
    rows = {"files": 2, "rows": 1000, "bytes": 2**20, "batch_s": [batch], "stream_s": [stream]}
    assert targets([], rows)[-1].endswith(f"{batch / stream:.2f}, {verdict}")


def test_the_report_has_every_part_it_has_figures_for() -> None:
    rows = {
        "files": 2,
        "rows": 1000,
        "bytes": 2**20,
        "batch_s": [1.0],
        "stream_s": [1.05],
        "stream_add_batch_s": [0.9],
    }
    state = {
        "files": 10_000,
        "batches": 100,
        "spark-drill": {"written": 90_000, "final": 30_000},
        "spark": {"written": 9_000_000, "final": 1_000_000},
    }
    results = {
        "commands": ["python -m bench.stream --files 10000,100000"],
        "machine": "2 CPUs",
        "runs": 5,
        "plan": {"10000": _plan(10_000, 60, 40, 700), "100000": _plan(100_000, 400, 47, 900)},
        "state": state,
        "rows": rows,
    }
    md = markdown(results)
    for heading in ("## Planning", "## Restart", "## State", "## Rows/s", "## Targets"):
        assert heading in md
    assert "    python -m bench.stream --files 10000,100000" in md
    assert "| spark-drill / Spark | 0.09 | 0.44 |" in md
    assert "| bytes written over those 100 micro-batches / final size | 3.00 | 9.00 |" in md
    assert "| 10,000 files read in ?/? micro-batches | 0.3 (`stateBytes` 0.3) | 0.3 |" in md
    only_rows = markdown({"rows": rows})
    assert "## Planning" not in only_rows and "## Rows/s" in only_rows


def test_the_report_sets_listing_changed_directories_only_beside_listing_all() -> None:
    def drill(files: int, all_ms: float, changed_ms: float) -> dict[str, Any]:
        return {
            "files": files,
            "spark-drill": _engine(all_ms, all_ms / 2),
            "spark-drill-changed-dirs": _engine(changed_ms, changed_ms - 5),
        }

    md = markdown({"runs": 5, "plan": {"10000": drill(10_000, 80, 44), "100000": drill(100_000, 360, 40)}})
    assert "## spark-drill with and without `listChangedDirectoriesOnly`" in md
    head = "| 10,000 read, all | 10,000 read, changed only | 100,000 read, all | 100,000 read, changed only |"
    assert head in md
    assert "| planning without the listing | 40 | 39 | 180 | 35 |" in md
    assert "## Planning" not in md  # Spark's file source was not measured in this run
