"""Every ```python block of README.md and docs/*.md runs. A file's blocks run in order in one namespace that
starts with `spark` (this test session), from the repository root; a block whose first line is
`# not run: <why>` is skipped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

import spark_drill as sd
from conftest import REPO

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```(?:python|py)[ \t]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
NOT_RUN = re.compile(r"\A# not run: \S")


def blocks(doc: Path) -> list[tuple[int, str]]:
    """(first line, code) of each python block."""
    text = doc.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in BLOCK.finditer(text)]


def test_blocks_are_found_and_each_skipped_one_says_why() -> None:
    found = {doc.name: blocks(doc) for doc in DOCS}
    assert len(found["README.md"]) >= 4
    for name, snippets in found.items():
        for line, code in snippets:
            if code.lstrip().startswith("# not run"):
                assert NOT_RUN.match(code), f"{name}:{line}: `# not run: <why>` must be the first line"


@pytest.mark.parametrize(
    "doc",
    [d for d in DOCS if any(not NOT_RUN.match(code) for _, code in blocks(d))],
    ids=lambda d: d.relative_to(REPO).as_posix(),
)
def test_python_snippets_run(doc: Path, spark: SparkSession, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    namespace: dict[str, object] = {"spark": spark, "__name__": "__snippet__"}
    try:
        for line, code in blocks(doc):
            if NOT_RUN.match(code):
                continue
            try:
                exec(compile(code, f"{doc.name}:{line}", "exec"), namespace)
            except Exception as e:
                pytest.fail(f"{doc.relative_to(REPO)}, the python block at line {line}: {e!r}")
    finally:
        sd.clear_column_parsers(spark)
