"""SPEC 11, "One schema, batch or stream": every version a stream writes is what batch discovery gives for the
same files (map inference, widening, partition columns, a provided schema), and the sink equals a batch read
of the landing directory row by row."""

from __future__ import annotations

import json
import time
from pathlib import Path

from pyspark.sql import DataFrame, SparkSession

import spark_drill as sd
from streams import QUERY_TIMEOUT_S, put

OLD = time.time() - 3600


def versions(schemas: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads((schemas / f"{n}.json").read_text()) for n in range(len(list(schemas.glob("*.json"))))]


def drain(spark: SparkSession, src: Path, tmp: Path, fmt: str = "parquet", **options: object) -> DataFrame:
    """Runs the stream to the end with sd.run_stream (rebuilding it at each schema change); the sink (JSON for
    a stream whose types widen: Parquet files of one column as int and as double do not merge)."""
    schemas, chk, out = tmp / "schemas", tmp / "chk", tmp / "out"

    def build() -> DataFrame:
        return sd.read_stream(spark, str(src), schema_location=str(schemas), **options)  # type: ignore[arg-type]

    def start(df: DataFrame):  # type: ignore[no-untyped-def]
        return (
            df.writeStream.format(fmt)
            .option("checkpointLocation", str(chk))
            .trigger(availableNow=True)
            .start(str(out))
        )

    query = sd.run_stream(build, start, max_schema_changes=5)
    assert query.awaitTermination(QUERY_TIMEOUT_S) is not False
    return spark.read.option("mergeSchema", "true").format(fmt).load(str(out))


def test_an_object_keyed_by_data_is_the_map_a_batch_read_makes_not_a_struct_of_every_key(
    spark: SparkSession, tmp_path: Path
) -> None:
    # Issue 38 as a user met it: ids first, then five files at once, each keying `attrs` by 60 user ids.
    src = tmp_path / "in"
    put(src, "a.json", '{"id": 1}\n', OLD)
    schemas = tmp_path / "schemas"
    first = sd.read_stream(spark, str(src), schema_location=str(schemas))
    assert first.schema.simpleString() == "struct<id:bigint>"
    for f in range(5):
        attrs = ", ".join(f'"user{f * 60 + k}": {k}' for k in range(60))
        put(src, f"b{f}.json", f'{{"id": {f + 2}, "attrs": {{{attrs}}}}}\n', OLD + 1 + f)
    sink = drain(spark, src, tmp_path)
    batch = spark.read.format("drill").load(str(src))
    assert batch.schema["attrs"].dataType.simpleString() == "map<string,bigint>"
    assert sink.schema["attrs"].dataType == batch.schema["attrs"].dataType
    assert [v["added"] for v in versions(schemas)] == [["id"], ["attrs"]]
    assert sorted(sink.collect()) == sorted(batch.select(*sink.columns).collect())


def test_widening_partitions_and_case_as_a_batch_read_gives_them(spark: SparkSession, tmp_path: Path) -> None:
    src = tmp_path / "in"
    put(src, "2024/a.csv", "id,n\n1,2\n", OLD)
    put(src, "2024/b.csv", "id,N,city\n2,3,oslo\n", OLD + 1)
    put(src, "2025/q1/c.csv", "id,n,city\n3,4.5,rome\n", OLD + 2)
    put(src, "2025/d.csv", "ID,n\n4,7\n", OLD + 3)
    options: dict[str, object] = {
        "header": True,
        "infer_types": True,
        "schema_evolution_mode": "addNewColumnsWithTypeWidening",
    }
    # Start with one file only, so that every later column and type is a change of the stream's.
    later = [src / "2024/b.csv", src / "2025/q1/c.csv", src / "2025/d.csv"]
    texts = {p: p.read_text() for p in later}
    for p in later:
        p.unlink()
    schemas = str(tmp_path / "schemas")
    sd.read_stream(spark, str(src), schema_location=schemas, **options)  # type: ignore[arg-type]
    for i, p in enumerate(later):
        put(src, str(p.relative_to(src)), texts[p], OLD + 1 + i)
    sink = drain(spark, src, tmp_path, "json", **options)
    final = sd.read_stream(spark, str(src), schema_location=schemas, **options)  # type: ignore[arg-type]
    batch = spark.read.format("drill").option("header", "true").option("inferTypes", "true").load(str(src))
    want = {f.name.lower(): f.dataType for f in batch.schema.fields}
    got = {f.name.lower(): f.dataType for f in final.schema.fields}
    assert got == want and want["n"].simpleString() == "double" and "dir1" in want
    # The three files land at once: one change, at b.csv, made from all three as batch discovery joins them.
    assert [v["added"] for v in versions(Path(schemas))] == [
        ["id", "n", "dir0"],
        ["city", "dir1", "n (widened)"],
    ]
    columns = [f.name for f in final.schema.fields]
    assert sorted(sink.select(*columns).collect()) == sorted(batch.select(*columns).collect())
