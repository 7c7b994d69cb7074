"""SPEC 11: `spark.readStream.format("drill")` reads each arriving file exactly once, through real streaming
queries on real files (memory and Parquet sinks)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming import StreamingQuery
from pyspark.sql.utils import AnalysisException

from streams import QUERY_TIMEOUT_S, available_now, batches, csv, put, source_metrics, to_memory, wait_rows

CSV = {"header": "true", "inferTypes": "true"}  # every stream here, and the batch reads it is compared with
OLD = time.time() - 3600  # an hour ago: old enough for any minFileAge a test sets


def stream(spark: SparkSession, src: Path, schemas: Path, **options: str):  # type: ignore[no-untyped-def]
    reader = spark.readStream.format("drill").option("schemaLocation", str(schemas))
    reader = reader.options(**CSV)
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load(str(src))


def keyed(rows) -> list[tuple]:  # type: ignore[no-untyped-def]
    return sorted(tuple(r) for r in rows)


def test_files_added_between_triggers_arrive_in_the_next_micro_batch(
    spark: SparkSession, tmp_path: Path
) -> None:
    src = tmp_path / "in"
    put(src, "a.csv", csv("id,name", "1,ann", "2,bob"), OLD)
    df = stream(spark, src, tmp_path / "schemas")
    assert df.isStreaming
    assert [(f.name, f.dataType.simpleString()) for f in df.schema.fields] == [
        ("id", "int"),
        ("name", "string"),
    ]
    query = to_memory(df, tmp_path / "chk", "arrivals")
    try:
        assert keyed(wait_rows(spark, query, "arrivals", 2)) == [(1, "ann"), (2, "bob")]
        put(src, "b.csv", csv("id,name", "3,cy"), OLD + 1)
        put(src, "c.csv", csv("name,id", "dee,4"), OLD + 2)  # columns by name, not position
        rows = wait_rows(spark, query, "arrivals", 4)
        assert keyed(rows) == [(1, "ann"), (2, "bob"), (3, "cy"), (4, "dee")]
    finally:
        query.stop()


def test_a_restart_reads_only_new_files_and_the_sink_equals_a_batch_read(
    spark: SparkSession, tmp_path: Path
) -> None:
    src, chk, out, schemas = tmp_path / "in", tmp_path / "chk", tmp_path / "out", tmp_path / "schemas"
    for i in range(5):
        put(src, f"d{i % 2}/f{i}.csv", csv("id,v", *(f"{i * 10 + j},{j}" for j in range(3))), OLD + i)
    available_now(stream(spark, src, schemas), chk, out)
    assert spark.read.parquet(str(out)).count() == 15
    for i in range(5, 8):
        put(src, f"d{i % 2}/f{i}.csv", csv("id,v", *(f"{i * 10 + j},{j}" for j in range(3))), OLD + i)
    query = available_now(stream(spark, src, schemas), chk, out)
    # The restart read the three new files only.
    assert sum(int(source_metrics(p)["numFilesInBatch"]) for p in batches(query)) == 3
    sink = spark.read.parquet(str(out))
    batch = spark.read.format("drill").options(**CSV).load(str(src))
    assert sink.count() == batch.count() == 24
    assert keyed(sink.select("id", "v", "dir0").collect()) == keyed(batch.select("id", "v", "dir0").collect())


def test_max_files_per_trigger_splits_available_now_into_batches(spark: SparkSession, tmp_path: Path) -> None:
    src = tmp_path / "in"
    for i in range(7):
        put(src, f"f{i}.csv", csv("id", str(i)), OLD + i)
    query = available_now(
        stream(spark, src, tmp_path / "schemas", maxFilesPerTrigger="3"), tmp_path / "chk", tmp_path / "out"
    )
    assert [int(source_metrics(p)["numFilesInBatch"]) for p in batches(query)] == [3, 3, 1]
    # Outstanding files are exact at the end of each batch.
    assert [int(source_metrics(p)["numFilesOutstanding"]) for p in batches(query)] == [4, 1, 0]
    assert spark.read.parquet(str(tmp_path / "out")).count() == 7


def test_max_bytes_per_trigger_takes_at_least_one_file(spark: SparkSession, tmp_path: Path) -> None:
    src = tmp_path / "in"
    sizes = []
    for i in range(4):
        sizes.append(put(src, f"f{i}.csv", csv("id,pad", f"{i},{'x' * 100}"), OLD + i).stat().st_size)
    query = available_now(
        stream(spark, src, tmp_path / "schemas", maxBytesPerTrigger="10"), tmp_path / "chk", tmp_path / "out"
    )
    # Each file is larger than the limit: one file per batch.
    assert [int(source_metrics(p)["numFilesInBatch"]) for p in batches(query)] == [1, 1, 1, 1]
    assert [int(source_metrics(p)["numBytesOutstanding"]) for p in batches(query)] == [
        sum(sizes[1:]),
        sum(sizes[2:]),
        sum(sizes[3:]),
        0,
    ]


def test_files_and_bytes_together_end_a_batch_at_whichever_comes_first(
    spark: SparkSession, tmp_path: Path
) -> None:
    src = tmp_path / "in"
    for i in range(6):
        put(src, f"small{i}.csv", csv("id", str(i)), OLD + i)  # 6 bytes each
    put(src, "big.csv", csv("id", *(str(i) for i in range(100, 400))), OLD + 10)
    put(src, "tail.csv", csv("id", "999"), OLD + 11)
    big = (src / "big.csv").stat().st_size
    query = available_now(
        stream(spark, src, tmp_path / "schemas", maxFilesPerTrigger="4", maxBytesPerTrigger=str(big)),
        tmp_path / "chk",
        tmp_path / "out",
    )
    # Four small files (the file limit); two small ones (big would pass the byte limit); big alone; the tail.
    assert [int(source_metrics(p)["numFilesInBatch"]) for p in batches(query)] == [4, 2, 1, 1]


def test_trigger_once_ignores_the_limits(spark: SparkSession, tmp_path: Path) -> None:
    src = tmp_path / "in"
    for i in range(5):
        put(src, f"f{i}.csv", csv("id", str(i)), OLD + i)
    query = available_now(
        stream(spark, src, tmp_path / "schemas", maxFilesPerTrigger="1"),
        tmp_path / "chk",
        tmp_path / "out",
        once=True,
    )
    assert [int(source_metrics(p)["numFilesInBatch"]) for p in batches(query)] == [5]


def test_available_now_reads_what_was_there_when_it_started(spark: SparkSession, tmp_path: Path) -> None:
    src = tmp_path / "in"
    for i in range(4):
        put(src, f"f{i}.csv", csv("id", str(i)), OLD + i)
    df = stream(spark, src, tmp_path / "schemas", maxFilesPerTrigger="2")
    seen: list[int] = []

    # A file lands while the run's first batch is written: the run still ends with the four it found.
    def sink(batch: DataFrame, batch_id: int) -> None:
        seen.extend(r.id for r in batch.collect())
        put(src, "late.csv", csv("id", "99"), OLD + 100)

    def run() -> StreamingQuery:
        query = (
            df.writeStream.foreachBatch(sink)
            .option("checkpointLocation", str(tmp_path / "chk"))
            .trigger(availableNow=True)
            .start()
        )
        assert query.awaitTermination(QUERY_TIMEOUT_S)
        return query

    assert len(batches(run())) == 2
    assert sorted(seen) == [0, 1, 2, 3]
    # The next run takes the late file.
    seen.clear()
    run()
    assert seen == [99]


def test_a_late_file_with_an_old_modification_time_is_read(spark: SparkSession, tmp_path: Path) -> None:
    src, chk, out, schemas = tmp_path / "in", tmp_path / "chk", tmp_path / "out", tmp_path / "schemas"
    put(src, "new.csv", csv("id", "1"), time.time() - 60)
    available_now(stream(spark, src, schemas), chk, out)
    # Older than anything read so far by days: Spark's file source (maxFileAge) would never read it.
    put(src, "late.csv", csv("id", "2"), time.time() - 30 * 86400)
    available_now(stream(spark, src, schemas), chk, out)
    assert sorted(r.id for r in spark.read.parquet(str(out)).collect()) == [1, 2]


def test_a_file_changed_after_it_was_read_is_counted_not_read_again(
    spark: SparkSession, tmp_path: Path
) -> None:
    src, chk, out, schemas = tmp_path / "in", tmp_path / "chk", tmp_path / "out", tmp_path / "schemas"
    put(src, "a.csv", csv("id", "1"), OLD)
    available_now(stream(spark, src, schemas), chk, out)
    put(src, "a.csv", csv("id", "1", "2", "3"), OLD + 5)  # rewritten in place
    put(src, "b.csv", csv("id", "7"), OLD + 6)
    query = available_now(stream(spark, src, schemas), chk, out)
    assert sorted(r.id for r in spark.read.parquet(str(out)).collect()) == [1, 7]
    assert source_metrics(batches(query)[-1])["numFilesChangedAfterRead"] == "1"


def test_min_file_age_holds_back_a_fresh_file(spark: SparkSession, tmp_path: Path) -> None:
    src, chk, out, schemas = tmp_path / "in", tmp_path / "chk", tmp_path / "out", tmp_path / "schemas"
    put(src, "old.csv", csv("id", "1"), OLD)
    put(src, "fresh.csv", csv("id", "2"))  # modified now
    query = available_now(stream(spark, src, schemas, minFileAge="1h"), chk, out)
    assert [r.id for r in spark.read.parquet(str(out)).collect()] == [1]
    assert source_metrics(batches(query)[-1])["numFilesHeldBack"] == "1"
    # Once old enough it is read.
    put(src, "fresh.csv", csv("id", "2"), OLD)
    available_now(stream(spark, src, schemas, minFileAge="1h"), chk, out)
    assert sorted(r.id for r in spark.read.parquet(str(out)).collect()) == [1, 2]


def test_include_existing_files_false_reads_only_files_that_arrive_later(
    spark: SparkSession, tmp_path: Path
) -> None:
    src, chk, out, schemas = tmp_path / "in", tmp_path / "chk", tmp_path / "out", tmp_path / "schemas"
    put(src, "before.csv", csv("id", "1"), OLD)
    df = stream(spark, src, schemas, includeExistingFiles="false")
    available_now(df, chk, out)
    assert spark.read.parquet(str(out)).count() == 0
    put(src, "after.csv", csv("id", "2"), OLD - 100)  # an old time: arrival, not time, decides
    available_now(stream(spark, src, schemas, includeExistingFiles="false"), chk, out)
    assert [r.id for r in spark.read.parquet(str(out)).collect()] == [2]
    # Stored at the first start: changing it later is an error naming it.
    with pytest.raises(Exception, match="includeExistingFiles"):
        available_now(stream(spark, src, schemas, includeExistingFiles="true"), chk, out)


def test_hidden_names_copies_in_progress_and_the_checkpoint_inside_the_input_are_not_read(
    spark: SparkSession, tmp_path: Path
) -> None:
    src = tmp_path / "in"
    put(src, "a.csv", csv("id", "1"), OLD)
    put(src, "_hidden.csv", csv("id", "2"), OLD)
    put(src, ".dot.csv", csv("id", "3"), OLD)
    put(src, "_temporary/0/t.csv", csv("id", "4"), OLD)
    put(src, "b.csv._COPYING_", csv("id", "5"), OLD)
    chk, schemas, out = src / "chk", src / "schemas", tmp_path / "out"
    df = stream(spark, src, schemas, format="csv")  # format=csv: even names without .csv are candidates
    available_now(df, chk, out)
    available_now(stream(spark, src, schemas, format="csv"), chk, out)  # its own state files are not input
    assert [r.id for r in spark.read.parquet(str(out)).collect()] == [1]


def test_no_files_and_no_schema_names_the_path(spark: SparkSession, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    with pytest.raises(Exception, match=r"no files under .*in.*\.schema\(\.\.\.\)"):
        stream(spark, tmp_path / "in", tmp_path / "schemas")


def test_a_defined_schema_needs_no_schema_location_and_freezes_types(
    spark: SparkSession, tmp_path: Path
) -> None:
    src = tmp_path / "in"
    put(src, "a.csv", csv("id,extra", "1,x", "oops,y"), OLD)
    df = (
        spark.readStream.format("drill")
        .schema("id BIGINT, missing STRING")
        .option("header", "true")
        .option("mode", "DROPMALFORMED")
        .load(str(src))
    )
    available_now(df, tmp_path / "chk", tmp_path / "out")
    rows = spark.read.parquet(str(tmp_path / "out")).collect()
    assert [(r.id, r.missing) for r in rows] == [(1, None)]


def test_the_stored_schema_is_version_0_and_a_restart_uses_it(spark: SparkSession, tmp_path: Path) -> None:
    src, schemas = tmp_path / "in", tmp_path / "schemas"
    put(src, "a.csv", csv("id,name", "1,a"), OLD)
    stream(spark, src, schemas)
    assert sorted(p.name for p in schemas.iterdir() if not p.name.startswith(".")) == ["0.json"]
    # Another file with another column lands; the stream's schema stays version 0's.
    put(src, "b.csv", csv("id,name,more", "2,b,z"), OLD + 1)
    df = stream(spark, src, schemas)
    assert df.columns == ["id", "name"]


def test_a_schema_location_belongs_to_one_input_path(spark: SparkSession, tmp_path: Path) -> None:
    put(tmp_path / "one", "a.csv", csv("id", "1"))
    put(tmp_path / "two", "a.csv", csv("id", "1"))
    stream(spark, tmp_path / "one", tmp_path / "schemas")
    with pytest.raises(Exception, match=r"schemaLocation .* belongs to the stream of .*one.* not of .*two"):
        stream(spark, tmp_path / "two", tmp_path / "schemas")


def test_include_columns_adds_hidden_columns_as_ordinary_ones(spark: SparkSession, tmp_path: Path) -> None:
    src = tmp_path / "in"
    put(src, "2024/a.csv", csv("id", "1", "2"), OLD)
    df = stream(spark, src, tmp_path / "schemas", includeColumns="filename, lmt,_line")
    assert df.columns == ["id", "dir0", "filename", "lmt", "_line"]
    available_now(df, tmp_path / "chk", tmp_path / "out")
    rows = spark.read.parquet(str(tmp_path / "out")).orderBy("id").collect()
    assert [(r.id, r.dir0, r.filename, r._line) for r in rows] == [
        (1, "2024", "a.csv", 2),
        (2, "2024", "a.csv", 3),
    ]
    assert rows[0].lmt.timestamp() == pytest.approx(OLD, abs=1)
    with pytest.raises(Exception, match=r"includeColumns.*'nope'.*filename"):
        stream(spark, src, tmp_path / "schemas2", includeColumns="nope")


def test_project_works_in_a_stream(spark: SparkSession, tmp_path: Path) -> None:
    src = tmp_path / "in"
    put(src, "x/a.json", '{"a": 1, "m": {"b": 2, "c": 3}, "z": 0}\n', OLD)
    df = stream(spark, src, tmp_path / "schemas", project="m.b, a, dir0")
    assert df.columns == ["m", "a", "dir0"]
    available_now(df, tmp_path / "chk", tmp_path / "out")
    row = spark.read.parquet(str(tmp_path / "out")).collect()[0]
    assert (row.m.asDict(), row.a, row.dir0) == ({"b": 2}, 1, "x")


def test_batch_and_stream_give_the_same_rows_for_the_same_files(spark: SparkSession, tmp_path: Path) -> None:
    src = tmp_path / "in"
    put(src, "y=2024/a.csv", csv("id,v", "1,1.5", "2,"), OLD)
    put(src, "y=2025/b.csv", csv("v,id,w", "3.5,3,q"), OLD + 1)
    put(src, "y=2025/c.json", '{"id": 4, "w": "r"}\n', OLD + 2)
    opts = {"partitionStyle": "hive"}
    df = stream(spark, src, tmp_path / "schemas", **opts)
    available_now(df, tmp_path / "chk", tmp_path / "out")
    batch = spark.read.format("drill").options(**CSV, **opts).load(str(src))
    assert df.schema == batch.schema
    assert keyed(spark.read.parquet(str(tmp_path / "out")).collect()) == keyed(batch.collect())


def test_streaming_options_on_a_batch_read_are_errors(spark: SparkSession, tmp_path: Path) -> None:
    put(tmp_path / "in", "a.csv", csv("id", "1"))
    with pytest.raises(Exception, match=r"'maxFilesPerTrigger'.*only a stream takes"):
        spark.read.format("drill").option("maxFilesPerTrigger", "5").load(str(tmp_path / "in"))


def test_bad_stream_option_values_are_errors(spark: SparkSession, tmp_path: Path) -> None:
    put(tmp_path / "in", "a.csv", csv("id", "1"))
    for option, value, message in [
        ("minFileAge", "soon", "minFileAge.*duration"),
        ("maxBytesPerTrigger", "lots", "maxBytesPerTrigger.*size"),
        ("maxFilesPerTrigger", "0", "maxFilesPerTrigger.*at least 1"),
    ]:
        with pytest.raises(Exception, match=message):
            stream(spark, tmp_path / "in", tmp_path / "schemas", **{option: value})


def test_state_lists_the_files_read(spark: SparkSession, tmp_path: Path) -> None:
    src, chk = tmp_path / "in", tmp_path / "chk"
    put(src, "a.csv", csv("id", "1"), OLD)
    put(src, "d/b.csv", csv("id", "2", "3"), OLD + 1)
    available_now(stream(spark, src, tmp_path / "schemas", maxFilesPerTrigger="1"), chk, tmp_path / "out")
    state = spark.read.format("drill-state").load(str(chk)).orderBy("batchId").collect()
    assert [(Path(r.path).name, r.length, r.batchId) for r in state] == [
        ("a.csv", (src / "a.csv").stat().st_size, 0),
        ("b.csv", (src / "d/b.csv").stat().st_size, 1),
    ]
    assert state[0].modificationTime.timestamp() == pytest.approx(OLD, abs=1)


def test_metrics_reach_the_progress(spark: SparkSession, tmp_path: Path) -> None:
    src = tmp_path / "in"
    put(src, "a.csv", csv("id", "1"), OLD)
    query = available_now(stream(spark, src, tmp_path / "schemas"), tmp_path / "chk", tmp_path / "out")
    metrics = source_metrics(batches(query)[0])
    for name in [
        "numFilesOutstanding",
        "numBytesOutstanding",
        "numFilesListed",
        "listingTimeMs",
        "discoveryTimeMs",
        "numFilesTracked",
        "stateBytes",
        "numFilesHeldBack",
        "numFilesChangedAfterRead",
        "numNewColumnsIgnored",
        "schemaVersion",
    ]:
        assert name in metrics, name
    assert metrics["numFilesTracked"] == "1" and metrics["schemaVersion"] == "0"
    assert int(metrics["stateBytes"]) > 0


def test_a_stream_query_cannot_select_unknown_columns(spark: SparkSession, tmp_path: Path) -> None:
    put(tmp_path / "in", "a.csv", csv("id", "1"))
    df = stream(spark, tmp_path / "in", tmp_path / "schemas")
    with pytest.raises(AnalysisException):
        df.select("filename")


def test_batch_features_hold_in_each_micro_batch(spark: SparkSession, tmp_path: Path) -> None:
    """Compression, a provided schema, the corrupt-record column and byte-range splits, in a stream as in
    batch: the sink equals a batch read of the same files with the same options."""
    import gzip

    src = tmp_path / "in"
    put(src, "a.csv", csv("id,amount,note", *(f"{i},{i}.5,n{i}" for i in range(2000))), OLD)
    (src / "b.csv.gz").write_bytes(gzip.compress(csv("id,amount", "5000,1.25", "5001,oops").encode()))
    os.utime(src / "b.csv.gz", (OLD + 1, OLD + 1))
    options = {
        "header": "true",
        "providedSchema": "id INT, amount DOUBLE",
        "columnNameOfCorruptRecord": "_bad",
    }
    df = (
        spark.readStream.format("drill")
        .option("schemaLocation", str(tmp_path / "schemas"))
        .options(**options)
        .load(str(src))
    )
    # Small splits: a.csv is read in several byte ranges of one micro-batch.
    spark.conf.set("spark.sql.files.maxPartitionBytes", "4096")
    try:
        query = available_now(df, tmp_path / "chk", tmp_path / "out")
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    assert [int(source_metrics(p)["numFilesInBatch"]) for p in batches(query)] == [2]
    batch = spark.read.format("drill").options(**options).load(str(src))
    sink = spark.read.parquet(str(tmp_path / "out"))
    assert sink.columns == batch.columns == ["id", "amount", "note", "_bad"]
    assert keyed(sink.collect()) == keyed(batch.collect())
    bad = sink.where("_bad IS NOT NULL").collect()
    assert [(r.id, r.amount, r._bad) for r in bad] == [(5001, None, "5001,oops")]


def test_list_changed_directories_only_lists_changed_directories_and_reads_every_file(
    spark: SparkSession, tmp_path: Path
) -> None:
    src = tmp_path / "in"
    put(src, "d1/a.csv", csv("id,name", "1,a"), OLD)
    put(src, "d1/b.csv", csv("id,name", "2,b"), OLD + 1)
    put(src, "d2/a.csv", csv("id,name", "3,c"), OLD + 2)
    for d in (src / "d1", src / "d2", src):  # settled long ago
        os.utime(d, (OLD, OLD))
    options = {"listChangedDirectoriesOnly": "true", "maxFilesPerTrigger": "1"}
    df = stream(spark, src, tmp_path / "schemas", **options)
    # One file per micro-batch: a directory with a file left for later is listed again; one whose files were
    # all taken, unchanged since, is not (d1 in the third batch).
    query = available_now(df, tmp_path / "chk", tmp_path / "out")
    assert [source_metrics(p)["numFilesListed"] for p in batches(query)] == ["3", "3", "1"]
    written = spark.read.parquet(str(tmp_path / "out")).collect()
    assert keyed(written) == [(1, "a", "d1"), (2, "b", "d1"), (3, "c", "d2")]

    # A running query: a file landing in a settled directory changes its time, so it is listed and read;
    # a trigger then lists only the directories that changed since (here the one that got the file, until
    # its new time settles).
    live = to_memory(stream(spark, src, tmp_path / "schemas", **options), tmp_path / "chk2", "changed_dirs")
    try:
        assert len(wait_rows(spark, live, "changed_dirs", 3)) == 3
        put(src, "d1/c.csv", csv("id,name", "4,d"), OLD + 3)
        rows = wait_rows(spark, live, "changed_dirs", 4)
        assert keyed(rows) == [(1, "a", "d1"), (2, "b", "d1"), (3, "c", "d2"), (4, "d", "d1")]
        live.processAllAvailable()
        listed = [int(source_metrics(p)["numFilesListed"]) for p in batches(live)]
        assert listed[0] == 3 and listed[-1] == 3  # d1's three files: root and d2 were not listed
    finally:
        live.stop()
