"""bench.stream_s3 and bench.stream_s3_clean's pure parts (issue 39): the workers' scripts compile (each is
its arguments, the shared session, then its own loop), and the cleaning report reads its target right. Nothing
here starts Spark or moto."""

from __future__ import annotations

from typing import Any

import pytest

from bench import stream_s3, stream_s3_clean


@pytest.mark.parametrize("script", [stream_s3.WORKER, stream_s3_clean.WORKER])
def test_each_worker_is_one_python_script_with_the_shared_session(script: str) -> None:
    compile(script, "worker", "exec")
    assert stream_s3.WORKER_SESSION in script
    # The arguments are read before the session needs them.
    assert script.index("sys.argv") < script.index("sd.session(")


def test_percentile_takes_the_value_at_that_rank() -> None:
    assert stream_s3_clean.percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.9) == 5.0
    assert stream_s3_clean.percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5) == 3.0
    assert stream_s3_clean.percentile([7.0], 0.9) == 7.0


def _result(without_ms: list[int], with_ms: list[int], cleaned: int) -> dict[str, Any]:
    def rounds(ms: list[int]) -> list[dict[str, Any]]:
        return [{"triggerExecution": m, "planning": m // 2} for m in ms]

    return {
        "files": 10_000,
        "mode": "delete",
        "interval": "10 seconds",
        "block": 2,
        "without": rounds(without_ms),
        "with": rounds(with_ms),
        "cleaned": cleaned,
        "cleaning_s": 600,
    }


def test_the_report_meets_the_target_within_ten_percent_and_says_when_it_does_not() -> None:
    met = stream_s3_clean.markdown("cmd", "machine", _result([1000, 1000, 1000, 1000], [1050, 1090], 10_000))
    assert "a trigger, median: 1,070 ms with cleaning over 1,000 ms without = 1.070" in met
    assert "NOT met" not in met and "- cleaned: every file" in met
    slow = stream_s3_clean.markdown("cmd", "machine", _result([1000, 1000], [1200, 1200], 9_000))
    assert "= 1.200 (target at most 1.1): NOT met" in slow
    assert "- cleaned: NOT all: 9,000 of 10,000" in slow
