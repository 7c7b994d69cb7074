"""SPEC 11, "New columns": a JSON member that appears only past the discovery sample (`sampleRows`) is met by
the micro-batch that reads it, in a task. Each mode answers as it answers a new column in a file's sample:
addNewColumns stops that micro-batch before it commits, with a new version, and the rebuilt stream reads it
again with the column; rescue keeps the value; none drops it; failOnNewColumns stops and keeps the schema."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

from pyspark.errors import StreamingQueryException
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming.query import StreamingQuery

import spark_drill as sd
from streams import QUERY_TIMEOUT_S, put

OLD = time.time() - 3600
CHANGED = "SPARK_DRILL_STREAM_SCHEMA_CHANGED"
# Discovery samples two records per file: a member first seen in a file's third record is past the sample.
SAMPLE = {"sampleRows": "2", "maxFilesPerTrigger": "1"}


def lines(*records: dict | str) -> str:  # type: ignore[type-arg]
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records)


def build(spark: SparkSession, src: Path, schemas: Path, **options: str) -> DataFrame:
    reader = spark.readStream.format("drill").option("schemaLocation", str(schemas)).options(**SAMPLE)
    return reader.options(**options).load(str(src))


def start(df: DataFrame, chk: Path, out: Path) -> StreamingQuery:
    writer = df.writeStream.format("json").option("checkpointLocation", str(chk))
    return writer.trigger(availableNow=True).start(str(out))


def run(df: DataFrame, chk: Path, out: Path) -> str | None:
    """Runs to the end; returns its error's text (None when it ended cleanly)."""
    query = start(df, chk, out)
    with contextlib.suppress(StreamingQueryException):  # read below, as the query keeps it
        assert query.awaitTermination(QUERY_TIMEOUT_S), "the stream did not end"
    error = query.exception()
    return None if error is None else str(error)


def sink(spark: SparkSession, out: Path) -> list[dict]:  # type: ignore[type-arg]
    rows = spark.read.json(str(out)).collect() if out.exists() else []
    return sorted((r.asDict() for r in rows), key=lambda r: r["id"])


def versions(schemas: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads((schemas / f"{n}.json").read_text()) for n in range(len(list(schemas.glob("*.json"))))]


def landing(src: Path) -> None:
    put(src, "a.json", lines({"id": 1, "name": "ann"}), OLD)
    # `extra` first appears in b.json's third record, past its two-record sample; a broken record before it
    # (dropped) brings no column.
    put(
        src,
        "b.json",
        lines({"id": 2}, {"id": 3}, '{"id": 9, "bad": tru', {"id": 4, "extra": "x"}, {"id": 5}),
        OLD + 1,
    )


def test_add_new_columns_stops_the_micro_batch_that_meets_the_member_then_reads_it_again_with_it(
    spark: SparkSession, tmp_path: Path
) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "a.json", lines({"id": 1, "name": "ann"}), OLD)
    df = build(spark, src, schemas, mode="DROPMALFORMED")
    landing(src)
    error = run(df, chk, out)
    assert error is not None and f"[{CHANGED}]" in error
    assert "b.json" in error and "line 4" in error and "extra" in error and "Version 1" in error
    # a.json's micro-batch committed; nothing of b.json's was written.
    assert [r["id"] for r in sink(spark, out)] == [1]
    assert [v["added"] for v in versions(schemas)] == [["id", "name"], ["extra"]]
    assert versions(schemas)[1]["cause"].endswith("b.json")
    assert "extra" in versions(schemas)[1]["schema"] and '"string"' in versions(schemas)[1]["schema"]

    # The same DataFrame is stale; built again, the stream reads b.json again, with the column.
    stale = run(df, chk, out)
    assert stale is not None and "SPARK_DRILL_STREAM_STALE_SCHEMA" in stale
    again = build(spark, src, schemas, mode="DROPMALFORMED")
    assert again.columns == ["id", "name", "extra"]
    assert run(again, chk, out) is None
    assert [(r["id"], r.get("extra")) for r in sink(spark, out)] == [
        (1, None),
        (2, None),
        (3, None),
        (4, "x"),
        (5, None),
    ]


def test_members_past_the_sample_under_run_stream_end_equal_to_a_batch_read(
    spark: SparkSession, tmp_path: Path
) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "a.json", lines({"id": 1}), OLD)
    build(spark, src, schemas)  # version 0: id
    put(src, "b.json", lines({"id": 2}, {"id": 3}, {"id": 4, "n": 7, "tags": ["t"]}), OLD + 1)
    put(src, "c.json", lines({"id": 5}, {"id": 6}, {"id": 7}, {"id": 8, "s": {"k": True}}), OLD + 2)
    messages: list[str] = []
    query = sd.run_stream(
        lambda: build(spark, src, schemas), lambda df: start(df, chk, out), on_schema_change=messages.append
    )
    assert query.exception() is None
    assert len(messages) == 2 and all(m.startswith(f"[{CHANGED}]") for m in messages)
    assert [v["added"] for v in versions(schemas)] == [["id"], ["n", "tags"], ["s"]]
    batch = spark.read.format("drill").load(str(src))
    want = sorted((r.asDict(recursive=True) for r in batch.collect()), key=lambda r: r["id"])
    got = sorted(
        (r.asDict(recursive=True) for r in spark.read.schema(batch.schema).json(str(out)).collect()),
        key=lambda r: r["id"],
    )
    assert got == want and want[3] == {"id": 4, "n": 7, "tags": ["t"], "s": None}


def past_sample(spark: SparkSession, tmp_path: Path, mode: str) -> tuple[DataFrame, Path, Path, Path]:
    """A stream under `mode` built on a.json (`id`), then b.json, whose member `extra` first appears in its
    third record, past the sample: the stream, its schemaLocation, checkpoint and sink."""
    src, schemas = tmp_path / "in", tmp_path / "schemas"
    put(src, "a.json", lines({"id": 1}), OLD)
    df = build(spark, src, schemas, schemaEvolutionMode=mode)
    put(src, "b.json", lines({"id": 2}, {"id": 3}, {"id": 4, "extra": "x"}), OLD + 1)
    return df, schemas, tmp_path / "chk", tmp_path / "out"


def test_rescue_keeps_a_member_past_the_sample_with_its_file_and_line(
    spark: SparkSession, tmp_path: Path
) -> None:
    df, schemas, chk, out = past_sample(spark, tmp_path, "rescue")
    assert run(df, chk, out) is None
    rows = sink(spark, out)
    assert [r["id"] for r in rows] == [1, 2, 3, 4] and rows[2].get("_rescued_data") is None
    rescued = json.loads(rows[3]["_rescued_data"])
    assert rescued["extra"] == "x" and "b.json" in json.dumps(rescued) and "3" in json.dumps(rescued)
    assert len(versions(schemas)) == 1


def test_none_drops_a_member_past_the_sample_and_goes_on(spark: SparkSession, tmp_path: Path) -> None:
    df, schemas, chk, out = past_sample(spark, tmp_path, "none")
    assert run(df, chk, out) is None
    assert sink(spark, out) == [{"id": 1}, {"id": 2}, {"id": 3}, {"id": 4}]
    assert len(versions(schemas)) == 1


def test_fail_on_new_columns_stops_at_a_member_past_the_sample_and_keeps_the_schema(
    spark: SparkSession, tmp_path: Path
) -> None:
    df, schemas, chk, out = past_sample(spark, tmp_path, "failOnNewColumns")
    error = run(df, chk, out)
    assert error is not None and "SPARK_DRILL_STREAM_NEW_COLUMNS" in error
    assert "b.json" in error and "line 3" in error and "extra" in error
    assert [r["id"] for r in sink(spark, out)] == [1]
    assert len(versions(schemas)) == 1
