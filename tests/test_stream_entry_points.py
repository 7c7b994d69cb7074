"""SPEC 11, "Entry points": a stream is chosen by how the user asks, never by who calls.
`spark.readStream.table("drill.`path`")` streams the catalog's table; the options decide which table a
`format("drill")` read gets, and Spark's own calls say whether it is read as a batch or a stream."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

from spark_drill._errors import drill_error_of
from streams import QUERY_TIMEOUT_S, available_now, batches, csv, failure_of, put, source_metrics

OLD = time.time() - 3600


def jsonl(*rows: dict) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def catalog_name(path: Path) -> str:
    return f"drill.`{path}`"


def keyed(rows) -> list[tuple]:  # type: ignore[no-untyped-def]
    return sorted(tuple(r) for r in rows)


def test_read_stream_table_streams_the_catalog_table_as_a_batch_read_gives_it(
    spark: SparkSession, tmp_path: Path
) -> None:
    src = tmp_path / "in"
    put(src, "a/1.json", jsonl({"id": 1, "name": "ann"}, {"id": 2, "name": "bob"}), OLD)
    put(src, "b/2.json", jsonl({"id": 3, "name": "cy", "score": 1.5}), OLD + 1)
    df = spark.readStream.table(catalog_name(src))
    batch = spark.table(catalog_name(src))
    assert df.isStreaming
    assert df.schema == batch.schema
    available_now(df, tmp_path / "chk", tmp_path / "out")
    sink = spark.read.parquet(str(tmp_path / "out"))
    assert keyed(sink.collect()) == keyed(batch.collect())
    # Files that land later arrive in the next run, under the same columns, once each.
    put(src, "b/3.json", jsonl({"id": 4, "name": "dee", "score": 2.0}), OLD + 2)
    available_now(spark.readStream.table(catalog_name(src)), tmp_path / "chk", tmp_path / "out")
    assert sorted(r.id for r in spark.read.parquet(str(tmp_path / "out")).collect()) == [1, 2, 3, 4]


def test_read_stream_table_takes_the_streaming_options(spark: SparkSession, tmp_path: Path) -> None:
    src = tmp_path / "in"
    for i in range(5):
        put(src, f"f{i}.json", jsonl({"id": i}), OLD + i)
    df = spark.readStream.option("maxFilesPerTrigger", "2").table(catalog_name(src))
    query = available_now(df, tmp_path / "chk", tmp_path / "out")
    assert [int(source_metrics(p)["numFilesInBatch"]) for p in batches(query)] == [2, 2, 1]
    state = spark.read.format("drill-state").load(str(tmp_path / "chk"))
    assert state.count() == 5
    # `none` is the mode under the table's schema, fixed when the DataFrame was built: a new column is dropped
    # and counted.
    put(src, "f5.json", jsonl({"id": 5, "extra": "x"}), OLD + 5)
    query = available_now(df, tmp_path / "chk", tmp_path / "out")
    assert sum(int(source_metrics(p)["numNewColumnsIgnored"]) for p in batches(query)) == 1
    assert spark.read.parquet(str(tmp_path / "out")).columns == ["id"]
    # Built again, the DataFrame has the columns the catalog discovers now.
    assert spark.readStream.table(catalog_name(src)).columns == ["id", "extra"]


@pytest.mark.parametrize(
    ("option", "value", "condition", "parameter"),
    [
        ("header", "true", "SPARK_DRILL_STREAM_TABLE_OPTIONS", ("options", "header")),
        ("includeColumns", "filename", "SPARK_DRILL_STREAM_TABLE_OPTIONS", ("options", "includeColumns")),
        (
            "schemaEvolutionMode",
            "addNewColumns",
            "SPARK_DRILL_STREAM_EVOLVES_DEFINED_SCHEMA",
            ("mode", "addNewColumns"),
        ),
        ("maxFilesPerTrigger", "0", "SPARK_DRILL_BAD_OPTION_VALUE", ("option", "maxFilesPerTrigger")),
    ],
)
def test_read_stream_table_errors_name_the_option(
    spark: SparkSession, tmp_path: Path, option: str, value: str, condition: str, parameter: tuple | None
) -> None:
    src = tmp_path / "in"
    put(src, "a.json", jsonl({"id": 1}), OLD)

    def start():  # type: ignore[no-untyped-def]
        df = spark.readStream.option(option, value).table(catalog_name(src))
        writer = df.writeStream.format("memory").queryName(f"t_{tmp_path.name[-8:]}")
        return writer.option("checkpointLocation", str(tmp_path / "chk")).trigger(availableNow=True).start()

    found = drill_error_of(failure_of(start))
    assert found is not None, "no spark-drill error class"
    assert found.condition == condition
    if parameter is not None:
        assert found.parameters[parameter[0]] == parameter[1]
    if condition == "SPARK_DRILL_STREAM_TABLE_OPTIONS":
        assert found.parameters["table"] == catalog_name(src)


def test_a_defined_schema_streams_an_empty_landing_directory(spark: SparkSession, tmp_path: Path) -> None:
    # Without a streaming-only option the read gets the batch table: under a defined schema it lists nothing
    # at load(), so an input with no file yet streams once files land.
    src = tmp_path / "in"
    src.mkdir()
    df = (
        spark.readStream.format("drill").schema("id INT, name STRING").option("header", "true").load(str(src))
    )
    assert df.isStreaming
    query = (
        df.writeStream.format("memory")
        .queryName("landing")
        .option("checkpointLocation", str(tmp_path / "chk"))
        .trigger(processingTime="100 milliseconds")
        .start()
    )
    try:
        query.processAllAvailable()
        assert spark.table("landing").count() == 0
        put(src, "a.csv", csv("name,id", "ann,1", "bob,2"), OLD)
        deadline = time.monotonic() + QUERY_TIMEOUT_S
        while spark.table("landing").count() < 2 and time.monotonic() < deadline:
            query.processAllAvailable()
            time.sleep(0.2)
        assert keyed(spark.table("landing").collect()) == [(1, "ann"), (2, "bob")]
    finally:
        query.stop()
    # The same read as a batch lists when it runs.
    assert (
        spark.read.format("drill")
        .schema("id INT, name STRING")
        .option("header", "true")
        .load(str(src))
        .count()
        == 2
    )


def test_a_stream_without_a_schema_or_schema_location_fails_at_start_saying_so(
    spark: SparkSession, tmp_path: Path
) -> None:
    put(tmp_path / "in", "a.json", jsonl({"id": 1}), OLD)
    df = spark.readStream.format("drill").load(str(tmp_path / "in"))  # the batch table: no streaming option
    assert df.isStreaming

    def start():  # type: ignore[no-untyped-def]
        writer = df.writeStream.format("memory").queryName("nolocation")
        return writer.option("checkpointLocation", str(tmp_path / "chk")).trigger(availableNow=True).start()

    found = drill_error_of(failure_of(start))
    assert found is not None and found.condition == "SPARK_DRILL_STREAM_NEEDS_SCHEMA_LOCATION"


def test_streaming_options_on_a_batch_read_fail_at_load_with_their_class(
    spark: SparkSession, tmp_path: Path
) -> None:
    put(tmp_path / "in", "a.json", jsonl({"id": 1}), OLD)
    with pytest.raises(Exception) as raised:
        spark.read.format("drill").option("schemaLocation", str(tmp_path / "s")).load(str(tmp_path / "in"))
    found = drill_error_of(raised.value)
    assert found is not None and found.condition == "SPARK_DRILL_UNSUPPORTED_OPTION"
    assert "schemaLocation" in found.message
