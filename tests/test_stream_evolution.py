"""SPEC 11, "New columns" and "A stale DataFrame": a stream's schema evolves at a clean barrier, through
versions kept in schemaLocation, with no row lost or written under the wrong schema."""

from __future__ import annotations

import contextlib
import json
import shutil
import time
from pathlib import Path

import pytest
from pyspark.errors import StreamingQueryException
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming.query import StreamingQuery

import spark_drill as sd
from streams import QUERY_TIMEOUT_S, batches, csv, put, source_metrics

OLD = time.time() - 3600
CSV = {"header": "true", "inferTypes": "true"}
CHANGED = "SPARK_DRILL_STREAM_SCHEMA_CHANGED"


def build(spark: SparkSession, src: Path, schemas: Path, **options: str) -> DataFrame:
    reader = spark.readStream.format("drill").option("schemaLocation", str(schemas)).options(**CSV)
    return reader.options(**options).load(str(src))


def start(df: DataFrame, chk: Path, out: Path, fmt: str = "parquet") -> StreamingQuery:
    return (
        df.writeStream.format(fmt)
        .option("checkpointLocation", str(chk))
        .trigger(availableNow=True)
        .start(str(out))
    )


def run(df: DataFrame, chk: Path, out: Path) -> tuple[StreamingQuery, str | None]:
    """Runs to the end; returns the query and its error's text (None when it ended cleanly)."""
    query = start(df, chk, out)
    with contextlib.suppress(StreamingQueryException):  # read below, as the query keeps it
        assert query.awaitTermination(QUERY_TIMEOUT_S), "the stream did not end"
    error = query.exception()
    return query, None if error is None else str(error)


def sink(spark: SparkSession, out: Path, fmt: str = "parquet") -> list[dict]:  # type: ignore[type-arg]
    rows = spark.read.format(fmt).option("mergeSchema", "true").load(str(out)).collect()
    return sorted((r.asDict() for r in rows), key=lambda r: r["id"])


def versions(schemas: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads((schemas / f"{n}.json").read_text()) for n in range(len(list(schemas.glob("*.json"))))]


def test_a_new_column_ends_the_batch_before_its_file_then_a_rebuilt_stream_goes_on_from_it(
    spark: SparkSession, tmp_path: Path
) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "a.csv", csv("id,name", "1,ann"), OLD)
    df = build(spark, src, schemas)
    put(src, "b.csv", csv("id,name", "2,bob"), OLD + 1)
    put(src, "c.csv", csv("id,name,extra", "3,cy,x"), OLD + 2)  # the first file with a new column
    put(src, "d.csv", csv("id,name", "4,dee"), OLD + 3)
    query, error = run(df, chk, out)
    assert error is not None and f"[{CHANGED}]" in error
    assert "c.csv" in error and "extra" in error and "Version 1" in error
    # The batch before c.csv committed; nothing of c.csv or after it was written under the old schema.
    assert [r["id"] for r in sink(spark, out)] == [1, 2]
    assert [int(source_metrics(p)["numFilesInBatch"]) for p in batches(query)] == [2]
    assert [v["added"] for v in versions(schemas)] == [["id", "name"], ["extra"]]
    assert versions(schemas)[1]["cause"].endswith("c.csv")

    # The same DataFrame object is stale now: refused at start, naming both versions.
    _, stale = run(df, chk, out)
    assert stale is not None and "SPARK_DRILL_STREAM_STALE_SCHEMA" in stale and "version 0" in stale
    assert "version 1" in stale

    # Built again, it goes on from c.csv with the new column.
    _, error = run(build(spark, src, schemas), chk, out)
    assert error is None
    rows = sink(spark, out)
    assert [(r["id"], r["extra"]) for r in rows] == [(1, None), (2, None), (3, "x"), (4, None)]


def test_a_new_column_in_the_first_file_of_a_trigger_stops_at_once_without_a_batch(
    spark: SparkSession, tmp_path: Path
) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "a.csv", csv("id", "1"), OLD)
    df = build(spark, src, schemas)
    _, error = run(df, chk, out)
    assert error is None
    put(src, "b.csv", csv("id,more", "2,m"), OLD + 1)
    query, error = run(build(spark, src, schemas), chk, out)
    assert error is not None and f"[{CHANGED}]" in error
    assert batches(query) == []  # no empty batch ran
    assert len(list((chk / "commits").glob("[0-9]*"))) == 1


def test_three_schema_changes_under_run_stream_end_equal_to_a_batch_read(
    spark: SparkSession, tmp_path: Path
) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "f0.csv", csv("id,a", "0,a0"), OLD)
    build(spark, src, schemas)  # version 0: f0's columns
    put(src, "f1.csv", csv("id,a,b", "1,a1,b1"), OLD + 1)
    put(src, "f2.csv", csv("id,a", "2,a2"), OLD + 2)
    put(src, "x=1/f3.csv", csv("id,c", "3,c3"), OLD + 3)  # a new column and a new directory level
    put(src, "f4.csv", csv("id,d", "4,d4"), OLD + 4)
    messages: list[str] = []
    # One file per micro-batch: each change is its own version (one trigger's files share one).
    query = sd.run_stream(
        lambda: build(spark, src, schemas, maxFilesPerTrigger="1"),
        lambda df: start(df, chk, out),
        on_schema_change=messages.append,
    )
    assert query.exception() is None
    assert len(messages) == 3 and all(m.startswith(f"[{CHANGED}]") for m in messages)
    batch = spark.read.format("drill").options(**CSV).load(str(src))
    got = sink(spark, out)
    assert set(got[0]) == set(batch.columns)
    want = sorted((r.asDict() for r in batch.collect()), key=lambda r: r["id"])
    assert got == want
    assert [v["added"] for v in versions(schemas)] == [["id", "a"], ["b"], ["c", "dir0"], ["d"]]


def test_run_stream_hands_on_the_changes_file_columns_and_versions(
    spark: SparkSession, tmp_path: Path
) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "f0.csv", csv("id", "0"), OLD)
    build(spark, src, schemas)
    put(src, "f1.csv", csv("id,b", "1,b"), OLD + 1)
    changes: list[sd.SchemaChange] = []
    sd.run_stream(
        lambda: build(spark, src, schemas), lambda df: start(df, chk, out), on_schema_change=changes.append
    )
    [change] = changes
    assert change.file is not None and change.file.endswith("f1.csv")
    assert (change.columns, change.from_version, change.to_version) == (["b"], 0, 1)
    assert change.location == str(schemas)


def test_run_stream_stops_after_max_schema_changes_and_raises_other_errors(
    spark: SparkSession, tmp_path: Path
) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "f0.csv", csv("id", "0"), OLD)
    build(spark, src, schemas)
    put(src, "f1.csv", csv("id,b", "1,b"), OLD + 1)
    with pytest.raises(Exception, match=CHANGED):
        sd.run_stream(
            lambda: build(spark, src, schemas), lambda df: start(df, chk, out), max_schema_changes=0
        )
    with pytest.raises(Exception, match="no files under"):
        sd.run_stream(
            lambda: build(spark, tmp_path / "empty", tmp_path / "s2"), lambda df: start(df, chk, out)
        )


def test_rescue_keeps_unknown_columns_in_the_rescued_data_column(spark: SparkSession, tmp_path: Path) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "a.csv", csv("id", "1"), OLD)
    df = build(spark, src, schemas, schemaEvolutionMode="rescue")
    assert df.columns == ["id", "_rescued_data"]
    put(src, "b.csv", csv("id,extra", "2,x"), OLD + 1)
    _, error = run(df, chk, out)
    assert error is None
    rows = sink(spark, out)
    assert rows[0]["_rescued_data"] is None
    rescued = json.loads(rows[1]["_rescued_data"])
    assert rescued["extra"] == "x" and "b.csv" in json.dumps(rescued)
    assert len(versions(schemas)) == 1  # the schema never changes


def test_none_drops_and_counts_unknown_columns(spark: SparkSession, tmp_path: Path) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "a.csv", csv("id", "1"), OLD)
    df = build(spark, src, schemas, schemaEvolutionMode="none")
    put(src, "b.csv", csv("id,extra,more", "2,x,y"), OLD + 1)
    query, error = run(df, chk, out)
    assert error is None
    assert sink(spark, out) == [{"id": 1}, {"id": 2}]
    assert source_metrics(batches(query)[-1])["numNewColumnsIgnored"] == "2"


def test_a_defined_schema_defaults_to_none_and_refuses_evolving_modes(
    spark: SparkSession, tmp_path: Path
) -> None:
    src = tmp_path / "in"
    put(src, "a.csv", csv("id,extra", "1,x"), OLD)
    reader = spark.readStream.format("drill").schema("id INT").options(**CSV)
    _, error = run(reader.load(str(src)), tmp_path / "chk", tmp_path / "out")
    assert error is None and sink(spark, tmp_path / "out") == [{"id": 1}]
    with pytest.raises(Exception, match=r"schemaEvolutionMode=addNewColumns .*schema"):
        reader.option("schemaEvolutionMode", "addNewColumns").load(str(src))


def test_fail_on_new_columns_stops_and_keeps_the_schema(spark: SparkSession, tmp_path: Path) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "a.csv", csv("id", "1"), OLD)
    df = build(spark, src, schemas, schemaEvolutionMode="failOnNewColumns")
    put(src, "b.csv", csv("id,extra", "2,x"), OLD + 1)
    put(src, "c.csv", csv("id", "3"), OLD + 2)
    _, error = run(df, chk, out)
    assert error is not None and "SPARK_DRILL_STREAM_NEW_COLUMNS" in error and "b.csv" in error
    assert "extra" in error
    assert [r["id"] for r in sink(spark, out)] == [1]
    assert len(versions(schemas)) == 1
    # Recovery: move the file away, and the stream goes on.
    shutil.move(str(src / "b.csv"), str(tmp_path / "b.csv"))
    _, error = run(build(spark, src, schemas, schemaEvolutionMode="failOnNewColumns"), chk, out)
    assert error is None and [r["id"] for r in sink(spark, out)] == [1, 3]


def test_a_changed_type_is_frozen_malformed_or_rescued_unless_widening(
    spark: SparkSession, tmp_path: Path
) -> None:
    def setup(name: str, **options: str) -> tuple[Path, Path, Path, Path]:
        root = tmp_path / name
        src = root / "in"
        put(src, "a.csv", csv("id,amount", "1,10"), OLD)
        build(spark, src, root / "schemas", **options)  # version 0: amount INT
        put(src, "b.csv", csv("id,amount", "2,ten"), OLD + 1)  # amount as text
        return src, root / "schemas", root / "chk", root / "out"

    # addNewColumns: the type is frozen; the text is malformed per mode (PERMISSIVE: null).
    src, schemas, chk, out = setup("frozen")
    _, error = run(build(spark, src, schemas), chk, out)
    assert error is None and [(r["id"], r["amount"]) for r in sink(spark, out)] == [(1, 10), (2, None)]
    # With a rescued-data column the value is kept there instead of lost.
    src, schemas, chk, out = setup("rescued", rescuedDataColumn="_rescued")
    _, error = run(build(spark, src, schemas, rescuedDataColumn="_rescued"), chk, out)
    rows = sink(spark, out)
    assert error is None and rows[1]["amount"] is None and json.loads(rows[1]["_rescued"])["amount"] == "ten"
    # addNewColumnsWithTypeWidening: a widening is a change; the new version has the wider type.
    src, schemas, chk, out = setup("widened")
    mode = {"schemaEvolutionMode": "addNewColumnsWithTypeWidening"}
    messages: list[str] = []
    # A JSON sink: Parquet files of one directory cannot hold amount as int in one and string in another.
    sd.run_stream(
        lambda: build(spark, src, schemas, **mode),
        lambda df: start(df, chk, out, "json"),
        on_schema_change=messages.append,
    )
    assert len(messages) == 1 and "amount" in messages[0]
    assert json.loads(versions(schemas)[1]["schema"])["fields"][1]["type"] == "string"
    assert [(r["id"], r["amount"]) for r in sink(spark, out, "json")] == [(1, "10"), (2, "ten")]


def test_a_new_hive_key_and_a_deeper_directory_are_new_columns(spark: SparkSession, tmp_path: Path) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "day=1/a.csv", csv("id", "1"), OLD)
    hive = {"partitionStyle": "hive"}
    df = build(spark, src, schemas, **hive)
    assert df.columns == ["id", "day"]
    put(src, "day=2/hour=5/b.csv", csv("id", "2"), OLD + 1)
    query = sd.run_stream(lambda: build(spark, src, schemas, **hive), lambda df: start(df, chk, out))
    assert query.exception() is None
    assert [v["added"] for v in versions(schemas)] == [["id", "day"], ["hour"]]
    assert [(r["id"], r["day"], r["hour"]) for r in sink(spark, out)] == [(1, "1", None), (2, "2", "5")]

    drill = tmp_path / "drill"
    put(drill / "in", "2024/a.csv", csv("id", "1"), OLD)
    build(spark, drill / "in", drill / "schemas")
    put(drill / "in", "2024/05/b.csv", csv("id", "2"), OLD + 1)
    sd.run_stream(
        lambda: build(spark, drill / "in", drill / "schemas"),
        lambda df: start(df, drill / "chk", drill / "out"),
    )
    assert [v["added"] for v in versions(drill / "schemas")] == [["id", "dir0"], ["dir1"]]
    rows = sink(spark, drill / "out")
    assert [(r["id"], r["dir0"], r["dir1"]) for r in rows] == [(1, "2024", None), (2, "2024", "05")]


def test_schema_history_lists_each_version_and_what_it_added(spark: SparkSession, tmp_path: Path) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "a.csv", csv("id", "1"), OLD)
    build(spark, src, schemas)
    put(src, "b.csv", csv("id,extra", "2,x"), OLD + 1)
    sd.run_stream(lambda: build(spark, src, schemas), lambda df: start(df, chk, out))
    history = spark.read.format("drill-schemas").load(str(schemas)).orderBy("version").collect()
    assert [(r.version, r.added) for r in history] == [(0, ["id"]), (1, ["extra"])]
    assert history[0].cause is None and history[1].cause.endswith("b.csv")
    assert history[1].schema == "id INT,extra STRING"


# Each mode against each kind of change (issue 28's matrix): version 0 is a.csv's `id, amount` (amount INT,
# under the hive directory day=1), then b.csv brings the change.
CHANGES = {
    "column": ("day=1/b.csv", csv("id,amount,extra", "2,20,x")),
    "type": ("day=1/b.csv", csv("id,amount", "2,ten")),
    "hive": ("day=2/hour=5/b.csv", csv("id,amount", "2,20")),  # a new key, one level deeper
}
NEW_COLUMNS = "SPARK_DRILL_STREAM_NEW_COLUMNS"
# mode -> change -> (the error class the stream stops with, the columns the versions added after version 0,
# b.csv's row in the sink as (amount, the change's column), what _rescued_data holds of it)
Outcome = tuple[str | None, list[str], tuple[object, object] | None, dict[str, str] | None]
MATRIX: dict[str, dict[str, Outcome]] = {
    "addNewColumns": {
        "column": (None, ["extra"], (20, "x"), None),
        "type": (None, [], (None, None), None),
        "hive": (None, ["hour"], (20, "5"), None),
    },
    "addNewColumnsWithTypeWidening": {
        "column": (None, ["extra"], (20, "x"), None),
        "type": (None, ["amount (widened)"], ("ten", None), None),
        "hive": (None, ["hour"], (20, "5"), None),
    },
    "rescue": {
        "column": (None, [], (20, None), {"extra": "x"}),
        "type": (None, [], (None, None), {"amount": "ten"}),
        "hive": (None, [], (20, None), None),
    },
    "none": {
        "column": (None, [], (20, None), None),
        "type": (None, [], (None, None), None),
        "hive": (None, [], (20, None), None),
    },
    "failOnNewColumns": {
        "column": (NEW_COLUMNS, [], None, None),
        "type": (None, [], (None, None), None),
        "hive": (NEW_COLUMNS, [], None, None),
    },
}


@pytest.mark.parametrize("change", list(CHANGES))
@pytest.mark.parametrize("mode", list(MATRIX))
def test_every_mode_meets_a_new_column_a_changed_type_and_a_new_hive_level(
    spark: SparkSession, tmp_path: Path, mode: str, change: str
) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    options = {"schemaEvolutionMode": mode, "partitionStyle": "hive"}
    put(src, "day=1/a.csv", csv("id,amount", "1,10"), OLD)
    build(spark, src, schemas, **options)  # version 0
    name, text = CHANGES[change]
    put(src, name, text, OLD + 1)
    stops, added, row, rescued = MATRIX[mode][change]
    # A JSON sink: a widened column's files could not share one Parquet directory.
    query = start(build(spark, src, schemas, **options), chk, out, "json")
    with contextlib.suppress(StreamingQueryException):
        assert query.awaitTermination(QUERY_TIMEOUT_S), "the stream did not end"
    error = query.exception()
    if error is not None and f"[{CHANGED}]" in str(error):
        # An evolving mode stopped at the change: built again, it goes on from b.csv.
        assert evolves(mode), str(error)
        query = sd.run_stream(
            lambda: build(spark, src, schemas, **options), lambda df: start(df, chk, out, "json")
        )
        error = query.exception()
    else:
        assert not evolves(mode) or not added, f"{mode}/{change} did not stop: {error}"
    if stops is None:
        assert error is None, str(error)
    else:
        assert error is not None and f"[{stops}]" in str(error) and "b.csv" in str(error)
    assert [v["added"] for v in versions(schemas)[1:]] == ([added] if added else [])
    got = {r["id"]: r for r in sink(spark, out, "json")}
    if row is None:
        assert list(got) == [1]  # stopped before b.csv: nothing of it written
        return
    column = {"column": "extra", "type": "amount", "hive": "hour"}[change]
    assert (got[2]["amount"], got[2].get(column) if column != "amount" else None) == row
    if rescued is not None:
        kept = json.loads(got[2]["_rescued_data"])
        assert {k: kept[k] for k in rescued} == rescued
    elif "_rescued_data" in got[2]:
        assert got[2]["_rescued_data"] is None


def evolves(mode: str) -> bool:
    """Whether the mode makes a new schema version (the JVM's EvolutionMode.evolves)."""
    return mode in ("addNewColumns", "addNewColumnsWithTypeWidening")
