"""sd.read_stream's typed keywords: what they send (without Spark), what they and batch reads refuse, and
that it builds the same stream as spark.readStream with the raw options (through Spark: AvailableNow queries
on files in tmp dirs, read into the memory sink)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import DataFrame, Row, SparkSession

import spark_drill as sd
import streams
from conftest import write_files
from spark_drill._options import OPTIONS, Option, jvm_options, kind, scope_error, takes

# --- without Spark: a stream reader that records what it is given -------------------------------------------


class RecordingStreamReader:
    def __init__(self) -> None:
        self.source: str | None = None
        self.defined: Any = None
        self.sent: dict[str, str] = {}
        self.path: Any = None

    def format(self, source: str) -> RecordingStreamReader:
        self.source = source
        return self

    def schema(self, schema: Any) -> RecordingStreamReader:
        self.defined = schema
        return self

    def options(self, **options: str) -> RecordingStreamReader:
        self.sent.update(options)
        return self

    def load(self, path: Any) -> RecordingStreamReader:
        self.path = path
        return self


class ConnectLikeSession:
    """Looks like a Spark Connect session: read_stream must only set options, and touch no Py4J."""

    def __init__(self) -> None:
        self.readStream = RecordingStreamReader()
        self.read = RecordingStreamReader()  # what sd.read would use, were it not to refuse first


ConnectLikeSession.__module__ = "pyspark.sql.connect.session"


def streamed(path: Any = "landing", **keywords: Any) -> RecordingStreamReader:
    reader: RecordingStreamReader = sd.read_stream(ConnectLikeSession(), path, **keywords)  # type: ignore[arg-type]
    assert reader.source == "drill"
    return reader


def sent(**keywords: Any) -> dict[str, str]:
    return streamed(**keywords).sent


STREAM = [o for o in OPTIONS if takes("stream", o)]
STREAM_ONLY = [o for o in OPTIONS if o.scope == "stream"]

SAMPLE_VALUES: dict[str, tuple[Any, str]] = {
    "boolean": (True, "true"),
    "int": (7, "7"),
    "string": ("x", "x"),
    "timestamp": (dt.datetime(2024, 1, 31, 12, 0), "2024-01-31T12:00:00"),
    "schema": ({"a": "int"}, "`a` int"),
    "duration": (dt.timedelta(seconds=90), "90s"),
    "size": (1024, "1024"),
    "columns": (["filename", "_line"], "filename,_line"),
}


def sample(option: Option) -> tuple[Any, str]:
    if kind(option) == "enum":
        value = option.type.__args__[-1]
        return value, value
    return SAMPLE_VALUES[kind(option)]


@pytest.mark.parametrize("option", STREAM, ids=[o.snake for o in STREAM])
def test_each_keyword_is_sent_under_its_jvm_name(option: Option) -> None:
    value, text = sample(option)
    assert sent(**{option.snake: value}) == {option.jvm: text}


def test_none_sends_nothing_and_the_path_is_one_string() -> None:
    reader = streamed(Path("landing") / "events", max_files_per_trigger=None)
    assert (reader.sent, reader.path, reader.defined) == ({}, "landing/events", None)
    assert streamed(schema="id INT").defined == "id INT"


def test_a_timedelta_is_sent_as_seconds_or_milliseconds() -> None:
    assert sent(min_file_age=dt.timedelta(minutes=5)) == {"minFileAge": "300s"}
    assert sent(min_file_age=dt.timedelta(days=1, seconds=1)) == {"minFileAge": "86401s"}
    assert sent(min_file_age=dt.timedelta(0)) == {"minFileAge": "0s"}
    assert sent(min_file_age=dt.timedelta(milliseconds=1500)) == {"minFileAge": "1500ms"}
    assert sent(min_file_age="30s") == {"minFileAge": "30s"}  # text goes as it is: the JVM parses it
    with pytest.raises(ValueError, match="cannot be negative"):
        sent(min_file_age=dt.timedelta(seconds=-1))
    with pytest.raises(ValueError, match="millisecond"):
        sent(min_file_age=dt.timedelta(microseconds=5))


def test_a_size_is_text_or_a_number_of_bytes() -> None:
    assert sent(max_bytes_per_trigger="512m") == {"maxBytesPerTrigger": "512m"}
    assert sent(max_bytes_per_trigger=10 * 2**30) == {"maxBytesPerTrigger": "10737418240"}
    with pytest.raises(ValueError, match="number of bytes"):
        sent(max_bytes_per_trigger=-1)


def test_include_columns_is_text_or_a_sequence_joined_with_commas() -> None:
    assert sent(include_columns="filename,lmt,_line") == {"includeColumns": "filename,lmt,_line"}
    assert sent(include_columns=("filename", " lmt")) == {"includeColumns": "filename,lmt"}
    with pytest.raises(ValueError, match="without commas"):
        sent(include_columns=["filename,lmt"])
    with pytest.raises(ValueError, match="without commas"):
        sent(include_columns=["filename", ""])


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"max_files_per_trigger": "10"}, "max_files_per_trigger takes an int, got str '10'"),
        ({"max_files_per_trigger": True}, "max_files_per_trigger takes an int"),
        ({"include_existing_files": "true"}, "include_existing_files takes True or False"),
        ({"min_file_age": 30}, "min_file_age takes a timedelta or a string"),
        ({"max_bytes_per_trigger": True}, "max_bytes_per_trigger takes a number of bytes"),
        ({"max_bytes_per_trigger": 1.5}, "max_bytes_per_trigger takes a number of bytes"),
        ({"include_columns": [1]}, "include_columns takes a comma-separated string or a sequence"),
        ({"schema_location": Path("x")}, "schema_location takes a string"),
    ],
)
def test_keyword_types_are_checked(keywords: dict[str, Any], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        sent(**keywords)


def test_choices_and_names_are_checked() -> None:
    assert sent(schema_evolution_mode="RESCUE") == {"schemaEvolutionMode": "rescue"}
    with pytest.raises(ValueError, match="did you mean rescue"):
        sent(schema_evolution_mode="rescu")
    with pytest.raises(TypeError, match="did you mean max_files_per_trigger"):
        sent(max_files_per_triger=1)
    with pytest.raises(TypeError, match="did you mean schema_location"):
        sent(schemaLocation="/chk")


def test_options_mapping_takes_streaming_names_checked_like_keywords() -> None:
    given = {"maxFilesPerTrigger": "1", "min_file_age": "5m", "SchemaEvolutionMode": "none", "header": "TRUE"}
    assert sent(options=given) == {
        "maxFilesPerTrigger": "1",
        "minFileAge": "5m",
        "schemaEvolutionMode": "none",
        "header": "true",
    }
    with pytest.raises(ValueError, match="maxFilesPerTrigger takes an integer"):
        sent(options={"maxFilesPerTrigger": "many"})
    with pytest.raises(TypeError, match="given twice"):
        sent(max_files_per_trigger=1, options={"maxFilesPerTrigger": "2"})


@pytest.mark.parametrize("option", STREAM_ONLY, ids=[o.snake for o in STREAM_ONLY])
def test_batch_reads_refuse_each_streaming_keyword_naming_it(option: Option) -> None:
    value, text = sample(option)
    for function in (sd.read, sd.describe):
        with pytest.raises(TypeError, match=f"'{option.snake}': {option.snake} is a streaming-only option"):
            function(ConnectLikeSession(), "data", **{option.snake: value})  # type: ignore[arg-type]
    for key in (option.jvm, option.snake):
        with pytest.raises(TypeError, match=f"option '{key}' is a streaming-only option"):
            sd.read(ConnectLikeSession(), "data", options={key: text})  # type: ignore[arg-type]


def test_a_batch_only_option_would_be_refused_on_a_stream() -> None:
    # None exists yet; the rule is the table's, so a made-up entry shows it.
    batch_only = Option("some_batch_thing", "someBatchThing", bool, "batch")
    assert takes("batch", batch_only) and not takes("stream", batch_only)
    assert scope_error(batch_only, "someBatchThing").startswith(
        "someBatchThing is a batch-only option: a stream does not take it"
    )
    assert jvm_options({}, None, {"maxFilesPerTrigger": "3"}, read="stream") == {"maxFilesPerTrigger": "3"}


# --- through Spark: real streams (the JVM's streaming source) -----------------------------------------------

CSV_FILES = {
    "2024/a.csv": "id,name\n1,ann\n2,bob\n",
    "2024/b.csv": "id,name\n3,cy\n",
    "2025/c.csv": "id,name\n4,dee\n",
}


def available_now(spark: SparkSession, df: DataFrame, checkpoint: Path, name: str) -> tuple[list[Row], int]:
    """Runs `df` to the memory sink with Trigger.AvailableNow: its rows (sorted) and how many batches ran."""
    query = (
        df.writeStream.format("memory")
        .queryName(name)
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    try:
        assert query.awaitTermination(180), "the AvailableNow query did not end"
        batches = len(query.recentProgress)
    finally:
        query.stop()
    rows = sorted(spark.table(name).collect(), key=repr)
    spark.catalog.dropTempView(name)
    return rows, batches


@pytest.mark.compat
def test_read_stream_builds_the_same_stream_as_the_raw_options(spark: SparkSession, tmp_path: Path) -> None:
    src = write_files(tmp_path / "in", CSV_FILES)
    typed = sd.read_stream(
        spark,
        src,
        header=True,
        infer_types=True,
        schema_location=str(tmp_path / "schemas-typed"),
        include_existing_files=True,
        min_file_age=dt.timedelta(0),
        max_files_per_trigger=1,
        max_bytes_per_trigger=10 * 2**30,
        include_columns=["filename"],
        schema_evolution_mode="addNewColumns",
        list_changed_directories_only=True,
    )
    raw = (
        spark.readStream.format("drill")
        .option("header", "true")
        .option("inferTypes", "true")
        .option("schemaLocation", str(tmp_path / "schemas-raw"))
        .option("includeExistingFiles", "true")
        .option("minFileAge", "0s")
        .option("maxFilesPerTrigger", "1")
        .option("maxBytesPerTrigger", "10g")
        .option("includeColumns", "filename")
        .option("schemaEvolutionMode", "addNewColumns")
        .option("listChangedDirectoriesOnly", "true")
        .load(str(src))
    )
    assert typed.isStreaming and raw.isStreaming
    assert typed.schema == raw.schema
    assert typed.columns == ["id", "name", "dir0", "filename"]
    typed_rows, typed_batches = available_now(spark, typed, tmp_path / "chk-typed", "read_stream_typed")
    raw_rows, raw_batches = available_now(spark, raw, tmp_path / "chk-raw", "read_stream_raw")
    assert typed_rows == raw_rows
    assert [(r.id, r.name, r.dir0, r.filename) for r in typed_rows] == [
        (1, "ann", "2024", "a.csv"),
        (2, "bob", "2024", "a.csv"),
        (3, "cy", "2024", "b.csv"),
        (4, "dee", "2025", "c.csv"),
    ]
    assert typed_batches == raw_batches == len(CSV_FILES)  # maxFilesPerTrigger=1: a batch per file


def test_a_defined_schema_needs_no_schema_location(spark: SparkSession, tmp_path: Path) -> None:
    src = write_files(tmp_path / "in", CSV_FILES)
    stream = sd.read_stream(spark, src, header=True, schema="id INT, name STRING")
    assert stream.columns == ["id", "name"]
    rows, _ = available_now(spark, stream, tmp_path / "chk", "read_stream_defined")
    assert [(r.id, r.name) for r in rows] == [(1, "ann"), (2, "bob"), (3, "cy"), (4, "dee")]


def test_existing_files_can_be_left_out_and_new_ones_read(spark: SparkSession, tmp_path: Path) -> None:
    src = write_files(tmp_path / "in", CSV_FILES)
    stream = sd.read_stream(
        spark,
        src,
        header=True,
        schema="id INT, name STRING",
        include_existing_files=False,
        schema_evolution_mode="none",
    )
    # A file sink: the memory sink cannot restart from a checkpoint.
    out = tmp_path / "out"
    streams.available_now(stream, tmp_path / "chk", out)
    assert spark.read.parquet(str(out)).count() == 0
    write_files(src, {"2025/d.csv": "id,name\n5,eve\n"})
    streams.available_now(stream, tmp_path / "chk", out)
    assert [(r.id, r.name) for r in spark.read.parquet(str(out)).collect()] == [(5, "eve")]


def test_a_file_younger_than_min_file_age_is_held_back(spark: SparkSession, tmp_path: Path) -> None:
    src = write_files(tmp_path / "in", CSV_FILES)
    stream = sd.read_stream(
        spark,
        src,
        header=True,
        schema_location=str(tmp_path / "schemas"),
        min_file_age=dt.timedelta(hours=1),
        max_bytes_per_trigger="10g",
    )
    rows, _ = available_now(spark, stream, tmp_path / "chk", "read_stream_held_back")
    assert rows == []


def test_the_object_store_keywords_reach_the_stream(spark: SparkSession, tmp_path: Path) -> None:
    """SPEC 11.1's keywords, through Spark: file events on a local input fail at start naming what they
    need (the queue's keywords parsed on the way); cleanSource archives what a run read, allowOverwrites
    with it."""
    from spark_drill._errors import drill_error_of

    src = write_files(tmp_path / "in", CSV_FILES)
    events = sd.read_stream(
        spark,
        src,
        header=True,
        schema="id INT, name STRING",
        file_events="sqs",
        queue_url="https://sqs.eu-west-3.amazonaws.com/123456789012/events",
        queue_region="eu-west-3",
        queue_endpoint="http://127.0.0.1:9",
        queue_visibility_timeout=dt.timedelta(minutes=2),
        backfill_interval="1d",
    )
    with pytest.raises(Exception) as raised:
        streams.available_now(events, tmp_path / "chk-events", tmp_path / "out-events")
    found = drill_error_of(raised.value)
    assert found is not None and found.condition == "SPARK_DRILL_STREAM_FILE_EVENTS", raised.value
    assert "must be on S3" in found.message
    cleaned = sd.read_stream(
        spark,
        src,
        header=True,
        schema="id INT, name STRING",
        allow_overwrites=True,
        clean_source="archive",
        clean_source_archive_dir=str(tmp_path / "archive"),
        clean_source_retention="0s",
    )
    streams.available_now(cleaned, tmp_path / "chk", tmp_path / "out")
    # Cleaning runs between triggers: the next run's first trigger archives what the last one committed.
    streams.available_now(cleaned, tmp_path / "chk", tmp_path / "out")
    assert sorted(
        p.relative_to(tmp_path / "archive").as_posix() for p in (tmp_path / "archive").rglob("*.csv")
    ) == sorted(CSV_FILES)
    assert not list(src.rglob("*.csv"))
    assert spark.read.parquet(str(tmp_path / "out")).count() == 4


def test_every_streaming_option_is_exercised_through_spark_above() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    through_spark = source[
        source.index("# --- through Spark") : source.index("def test_every_streaming_option_is_exercised")
    ]
    assert [o.snake for o in STREAM_ONLY if f"{o.snake}=" not in through_spark] == []
