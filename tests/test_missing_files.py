"""A file deleted between planning and reading (SPEC 2): an error naming it, or skipped if asked."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.sql import SparkSession

import spark_drill as sd
from conftest import write_files

FILES = {"a.csv": "x\n1\n", "b.csv": "x\n2\n", "c.csv": "x\n3\n"}


def test_a_deleted_file_fails_naming_it(spark: SparkSession, tmp_path: Path) -> None:
    df = sd.read(spark, str(write_files(tmp_path, FILES)), header=True)
    (tmp_path / "b.csv").unlink()
    with pytest.raises(sd.ScanError) as e:
        df.collect()
    assert "b.csv" in str(e.value) and "no longer exists" in str(e.value)
    assert "ignoreMissingFiles=true skips it" in str(e.value)


def test_a_deleted_file_is_skipped_with_ignore_missing_files(spark: SparkSession, tmp_path: Path) -> None:
    df = sd.read(spark, str(write_files(tmp_path, FILES)), header=True, ignore_missing_files=True)
    (tmp_path / "b.csv").unlink()
    assert sorted(r.x for r in df.collect()) == ["1", "3"]
    assert df.count() == 2
