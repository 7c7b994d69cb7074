"""The one planner through Spark: options checked at planning (SPEC 1), a defined schema keeps partition and
implicit columns selectable (SPEC 5), and the layer below names no format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

import spark_drill as sd
from conftest import write_files

pytestmark = pytest.mark.compat

FILES = {"2024/a.csv": "id,name\n1,ann\n", "2025/b.csv": "id,name\n2,bob\n", "c.csv": "id,name\n3,cy\n"}


def drill(spark: SparkSession, root: Path, **options: str):  # type: ignore[no-untyped-def]
    return spark.read.format("drill").options(**options).load(str(root))


def test_a_misspelt_option_fails_at_load_naming_the_nearest(spark: SparkSession, tmp_path: Path) -> None:
    root = write_files(tmp_path, FILES)
    with pytest.raises(Exception, match="unknown option 'inferTyps'; did you mean inferTypes"):
        drill(spark, root, header="true", inferTyps="true")
    with pytest.raises(Exception, match="did you mean header"):
        drill(spark, root, hedaer="true")
    assert spark.sql(f"SELECT * FROM drill.`{root}`").count() == 6  # headerless: header lines are rows


def test_a_spark_option_without_meaning_is_named_with_the_reason(spark: SparkSession, tmp_path: Path) -> None:
    root = write_files(tmp_path, FILES)
    with pytest.raises(Exception, match="'samplingRatio' of Spark's own reader has no counterpart"):
        drill(spark, root, header="true", samplingRatio="0.1")


def test_spark_aliases_mean_the_same(spark: SparkSession, tmp_path: Path) -> None:
    root = write_files(tmp_path, {"a.csv": "id;day\n1;2024-01-02\n"})
    ours = drill(spark, root, header="true", inferTypes="true", delimiter=";")
    theirs = drill(spark, root, header="true", inferSchema="true", sep=";")
    assert ours.schema == theirs.schema
    assert [f.dataType.simpleString() for f in theirs.schema.fields] == ["int", "date"]
    assert ours.collect() == theirs.collect()


def test_a_bad_value_fails_at_planning(spark: SparkSession, tmp_path: Path) -> None:
    root = write_files(tmp_path, FILES)
    with pytest.raises(Exception, match="option 'batchRows' must be an integer"):
        drill(spark, root, header="true", batchRows="lots")


def test_hadoop_settings_pass_through(spark: SparkSession, tmp_path: Path) -> None:
    root = write_files(tmp_path, FILES)
    df = drill(spark, root, header="true", **{"fs.file.impl.disable.cache": "true"})
    assert df.count() == 3


def test_a_defined_schema_keeps_dir_and_implicit_columns_selectable(
    spark: SparkSession, tmp_path: Path
) -> None:
    root = write_files(tmp_path, FILES)
    df = spark.read.format("drill").schema("id INT, name STRING").option("header", "true").load(str(root))
    assert df.columns == ["id", "name"]
    rows = df.select("id", "dir0", "filename").orderBy("id").collect()
    assert [tuple(r) for r in rows] == [(1, "2024", "a.csv"), (2, "2025", "b.csv"), (3, None, "c.csv")]
    assert df.where("dir0 = '2025'").select("name").collect()[0][0] == "bob"


def test_a_defined_schema_keeps_hive_keys_selectable(spark: SparkSession, tmp_path: Path) -> None:
    root = write_files(tmp_path, {"region=eu/a.csv": "id\n1\n", "region=us/b.csv": "id\n2\n"})
    df = (
        spark.read.format("drill")
        .schema("id INT")
        .option("header", "true")
        .option("partitionStyle", "hive")
        .load(str(root))
    )
    assert [tuple(r) for r in df.select("id", "region").orderBy("id").collect()] == [(1, "eu"), (2, "us")]


def test_the_option_table_reaches_python(spark: SparkSession) -> None:
    table = json.loads(spark.sparkContext._jvm.sparkdrill.spark.OptionCatalog.json())
    by_name = {o["name"]: o for o in table}
    assert by_name["inferTypes"]["aliases"] == ["inferSchema"]
    assert by_name["mode"]["values"] == ["PERMISSIVE", "DROPMALFORMED", "FAILFAST"]
    assert by_name["batchRows"] == {
        "name": "batchRows",
        "type": "int",
        "default": "4096",
        "values": None,
        "aliases": [],
        "doc": "rows per batch",
        "scope": "both",
    }
    assert by_name["maxFilesPerTrigger"]["scope"] == "stream"
    assert by_name["quote"]["default"] == '"'
    assert all(o["doc"] for o in table)


def test_sd_read_still_passes_options(spark: SparkSession, tmp_path: Path) -> None:
    root = write_files(tmp_path, FILES)
    assert sd.read(spark, str(root), header=True).count() == 3


def test_small_files_pack_with_spark_drills_open_cost_unless_the_session_sets_one(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(tmp_path, {f"d{i % 10}/f{i:04}.csv": f"x\n{i}\n" for i in range(400)})

    def tasks() -> int:
        df = spark.read.format("drill").option("header", "true").load(str(tmp_path))
        assert df.count() == 400
        return df.rdd.getNumPartitions()

    # 400 files of 8 bytes: at 256 KiB each, the split size (all bytes over 2 cores) takes 200 files a task.
    assert tasks() == 2
    try:
        spark.conf.set("spark.sql.files.openCostInBytes", "4m")
        assert tasks() == 13, "Spark's 4 MB per file, set in the session: 32 files per 128 MB task"
        spark.conf.set("spark.sql.files.maxPartitionBytes", "8m")
        at_spark_cost = tasks()
        assert at_spark_cost == 200, "Spark's 4 MB per file: two files per 8 MB task"
        spark.conf.set("spark.drill.files.openCostInBytes", "1m")
        assert tasks() == 50, "spark-drill's own setting wins: eight files per task"
        spark.conf.unset("spark.sql.files.openCostInBytes")
        spark.conf.unset("spark.drill.files.openCostInBytes")
        assert tasks() == 13, "the default, 256 KiB: 31 files per 8 MB task"
    finally:
        for key in ("openCostInBytes", "maxPartitionBytes"):
            spark.conf.unset(f"spark.sql.files.{key}")
        spark.conf.unset("spark.drill.files.openCostInBytes")
