"""Push-down (SPEC 10): file pruning on partition and implicit columns, limit, count, statistics."""

from __future__ import annotations

from pathlib import Path

import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from conftest import write_files
from scan_metrics import scan_description, scan_metrics

pytestmark = pytest.mark.compat


@pytest.fixture
def years(tmp_path: Path) -> Path:
    return write_files(
        tmp_path,
        {
            "2023/a.csv": "x\n1\n2\n",
            "2024/b.csv": "x\n3\n",
            "2024/c.csv": "x\n4\n",
            "2025/d.csv": "x\n5\n",
            "top.csv": "x\n6\n",
        },
    )


def drill(spark: SparkSession, path: Path) -> DataFrame:
    return spark.read.format("drill").option("header", "true").load(str(path))


def xs(df: DataFrame) -> list[str]:
    return sorted(r.x for r in df.collect())


def test_dir_filter_prunes_files_at_planning(spark: SparkSession, years: Path) -> None:
    df = drill(spark, years).where("dir0 = '2024'")
    assert xs(df) == ["3", "4"]
    metrics = scan_metrics(df)
    assert metrics["filesRead"] == 2
    assert metrics["filesPruned"] == 3
    assert "files=2 of 5" in scan_description(df)


def test_null_dir_of_a_shallow_file_is_pruned_by_comparison_but_kept_by_is_null(
    spark: SparkSession, years: Path
) -> None:
    df = drill(spark, years).where(F.col("dir0").isNull())
    assert xs(df) == ["6"]
    assert scan_metrics(df)["filesRead"] == 1
    df = drill(spark, years).where("dir0 <> '2024'")
    assert xs(df) == ["1", "2", "5"]
    assert scan_metrics(df)["filesPruned"] == 3


def test_in_or_not_and_implicit_columns(spark: SparkSession, years: Path) -> None:
    df = drill(spark, years).where("dir0 IN ('2023', '2025') OR filename = 'top.csv'")
    assert xs(df) == ["1", "2", "5", "6"]
    assert scan_metrics(df)["filesRead"] == 3
    df = drill(spark, years).where("NOT (dir0 >= '2024') AND filename LIKE 'a%'")
    assert xs(df) == ["1", "2"]
    assert scan_metrics(df)["filesRead"] == 1


def test_predicates_on_data_columns_do_not_prune(spark: SparkSession, years: Path) -> None:
    df = drill(spark, years).where("x = '3' OR dir0 = '2025'")
    assert xs(df) == ["3", "5"]
    assert scan_metrics(df)["filesPruned"] == 0


def test_a_data_column_named_like_a_file_column_is_not_used_for_pruning(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(tmp_path, {"a.csv": "filename,x\nb.csv,1\n", "b.csv": "filename,x\nzzz,2\n"})
    df = drill(spark, tmp_path).where("filename = 'b.csv'")
    assert xs(df) == ["1"]
    assert scan_metrics(df)["filesPruned"] == 0


def test_sql_through_the_catalog_prunes_too(spark: SparkSession, years: Path) -> None:
    df = spark.sql(f"SELECT columns FROM drill.`{years}` WHERE dir0 = '2025'")
    assert [r.columns for r in df.collect()] == [["x"], ["5"]]
    assert scan_metrics(df)["filesRead"] == 1


def test_limit_stops_reading_early(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"big.csv": "x\n" + "".join(f"{i}\n" for i in range(20000))})
    df = spark.read.format("drill").option("header", "true").option("batchRows", "100").load(str(tmp_path))
    limited = df.limit(5)
    assert len(limited.collect()) == 5
    assert "limit=5" in scan_description(limited)
    assert scan_metrics(limited)["rowsRead"] <= 100


def test_count_reads_no_values_and_counts_rows(spark: SparkSession, years: Path) -> None:
    df = drill(spark, years)
    assert df.count() == 6
    assert (
        spark.sql(f"SELECT count(*) FROM drill.`{years}`").first()[0] == 11
    )  # headerless: header lines are rows


def test_statistics_let_small_scans_broadcast(spark: SparkSession, years: Path) -> None:
    left = drill(spark, years)
    right = drill(spark, years).select(F.col("x").alias("y"))
    joined = left.join(right, left.x == right.y)
    assert "BroadcastHashJoin" in joined._jdf.queryExecution().executedPlan().toString()
    assert xs(joined.select("x")) == ["1", "2", "3", "4", "5", "6"]


def test_count_respects_quoted_line_ends_and_counts_malformed_records(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(tmp_path, {"q.csv": 'a,b\n1,"two\nlines"\n2,x\n3,"never closed\n'})
    df = spark.read.format("drill").option("header", "true").load(str(tmp_path))
    assert df.count() == 3  # PERMISSIVE keeps the malformed record
    dropped = spark.read.format("drill").option("header", "true").option("mode", "DROPMALFORMED")
    assert dropped.load(str(tmp_path)).count() == 2
