"""VARIANT on Spark 4 (SPEC 14, issue 42) through PySpark: `singleVariantColumn` over JSON (a differential
test against Spark's own `parse_json` of the same lines: `to_json`, `schema_of_variant`, `variant_get` of
chosen paths and the bytes of the collected VariantVal), over CSV, TSV and a log; a VARIANT member in a
provided or defined schema at depths 1 and 3; `rescuedDataType=variant`; bad records per mode; the typed
keywords of sd.read, sd.read_stream and sd.describe; a stream whose records grow members under a VARIANT
column without a new schema version. On PySpark 3.5 only the last test runs: each option is refused, naming
Spark 4.0."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import pyspark
import pytest
from pyspark.sql import DataFrame, SparkSession

import spark_drill as sd
from conftest import write_files
from streams import available_now, batches, put, source_metrics

SPARK4 = int(pyspark.__version__.split(".")[0]) >= 4
spark4 = pytest.mark.skipif(not SPARK4, reason="VARIANT is Spark 4's (SPEC 14)")
DUPLICATES = "spark.sql.variant.allowDuplicateKeys"
OLD = time.time() - 3600

# One JSON document per line, each with the paths `variant_get` reads from it: every scalar kind and number
# form parse_json distinguishes, escapes and Unicode (escaped, surrogate pairs, raw multi-byte), nesting 20
# deep, and sizes past the encoding's one-byte widths (objects and arrays over 255 entries, more than 255
# distinct keys, strings over 63 bytes (no longer a short string) and over 65,535 bytes (3-byte offsets)).
WIDE_OBJECT = "{" + ",".join(f'"k{i}":{i}' for i in range(300)) + "}"
WIDE_ARRAY = '{"arr":[' + ",".join(str(i) for i in range(300)) + "]}"
DEEP_OBJECT = '{"o":' * 20 + '"bottom"' + "}" * 20
DEEP_ARRAY = '{"d":' + "[" * 20 + '"x"' + "]" * 20 + "}"
SHAPES: list[tuple[str, tuple[str, ...]]] = [
    ('{"a":1,"b":-2,"c":300,"d":70000,"e":5000000000,"f":-9223372036854775808}', ("$.a", "$.e", "$.f")),
    (
        '{"big":123456789012345678901234567890,"n19":9223372036854775807,"o19":9223372036854775808,'
        '"neg19":-9223372036854775809,"neg":-17}',
        ("$.big", "$.n19", "$.o19", "$.neg19", "$.neg"),
    ),
    (
        '{"d1":1.50,"d2":-0.0,"d3":0.1,"d4":-12.345,"p40":1.234567890123456789012345678901234567890,'
        '"i44":12345678901234567890123456789012345678901234,'
        '"tiny":0.000000000000000000000000000000000000012}',
        ("$.d1", "$.d2", "$.d3", "$.d4", "$.p40", "$.i44", "$.tiny"),
    ),
    ('{"e1":1e10,"e2":1.5E-7,"e3":-2e+3,"e4":0e0,"e5":-1.25e-5}', ("$.e1", "$.e2", "$.e3", "$.e5")),
    (r'{"esc":"a\nb\"c\\d\/e\tf","u":"\u00e9\ud83d\ude00","ctl":"\u0001\b\f\r"}', ("$.esc", "$.u", "$.ctl")),
    ('{"raw":"éü漢字😀","clé":"v","😀":1,"":2,"ключ":{"ü":[true]}}', ("$.raw", "$['clé']", "$['😀']")),
    ('{"t":true,"f":false,"nil":null,"o":{},"arr":[],"s":""}', ("$.t", "$.f", "$.nil", "$.o", "$.arr")),
    (
        '{"s64":"' + "x" * 64 + '","s300":"' + "é" * 300 + '","s70k":"' + "y" * 70_000 + '"}',
        ("$.s64", "$.s300"),
    ),
    (WIDE_OBJECT, ("$.k0", "$.k255", "$.k299")),
    (WIDE_ARRAY, ("$.arr[0]", "$.arr[255]", "$.arr[299]")),
    (DEEP_OBJECT, ("$" + ".o" * 20, "$" + ".o" * 10)),
    (DEEP_ARRAY, ("$.d" + "[0]" * 20, "$.d" + "[0]" * 5)),
    (
        '{"nested":{"x":[1,{"y":[2,3,{"z":null}]},"w"],"v":{"k":{"j":{"i":1}}}},"a":{"a":{"a":1}}}',
        ("$.nested.x[1].y[2]", "$.nested.v.k.j.i", "$.nested.x[2]", "$.a.a.a"),
    ),
    ('{"zed":1,"alpha":2,"Mid":3,"mixed":[1,"two",3.0,true,null,{"a":[]},[[]]]}', ("$.mixed[5]", "$.Mid")),
    ('{ "ws" : { "a" : [ 1 , 2 ] } ,\t"b" : "c" }', ("$.ws.a[1]", "$.b")),
    ('[1,{"a":2},"x"]', ("$[1].a", "$[2]")),
    ('"top"', ("$",)),
]


def lines(texts: Sequence[str]) -> str:
    return "".join(t + "\n" for t in texts)


def spark_variants(spark: SparkSession, texts: Sequence[str]) -> DataFrame:
    """Spark's own: `parse_json` of each text, by its 1-based line (column `_line`, as spark-drill's)."""
    from pyspark.sql import functions as F

    rows = [(i, t) for i, t in enumerate(texts, start=1)]
    df = spark.createDataFrame(rows, "_line BIGINT, text STRING")
    return df.select("_line", F.parse_json("text").alias("v"))


def keyed(df: DataFrame, keys: Sequence[str], *exprs: Any) -> dict[tuple[Any, ...], tuple[Any, ...]]:
    """Per value of the `keys` columns, the row of `exprs` (Columns or SQL expressions)."""
    from pyspark.sql import functions as F

    columns = [F.expr(e) if isinstance(e, str) else e for e in (*keys, *exprs)]
    n = len(keys)
    return {tuple(r[:n]): tuple(r[n:]) for r in df.select(*columns).collect()}


def by_line(df: DataFrame, *exprs: Any) -> dict[int, tuple[Any, ...]]:
    """Per `_line`, the row of `exprs`."""
    return {k[0]: row for k, row in keyed(df, ["_line"], *exprs).items()}


def views(paths: Sequence[str]) -> list[Any]:
    """What both sides are compared on: the JSON text, the schema, and each path's value as a string."""
    from pyspark.sql import functions as F

    v = F.col("v")
    return [F.to_json(v), F.schema_of_variant(v)] + [F.variant_get(v, p, "string") for p in paths]


def variant_bytes(df: DataFrame, keys: Sequence[str]) -> dict[tuple[Any, ...], tuple[bytes, bytes] | None]:
    """Per key, the collected VariantVal's value and metadata bytes (None for SQL NULL)."""
    out: dict[tuple[Any, ...], tuple[bytes, bytes] | None] = {}
    for k, (val,) in keyed(df, keys, "v").items():
        out[k] = None if val is None else (bytes(val.value), bytes(val.metadata))
    return out


def assert_same_variants(
    ours: DataFrame, theirs: DataFrame, paths: Sequence[str], keys: Sequence[str] = ("_line",)
) -> None:
    """The column `v` of both, matched by `keys`: the same views and the same bytes."""
    mine, spark_s = keyed(ours, keys, *views(paths)), keyed(theirs, keys, *views(paths))
    assert mine.keys() == spark_s.keys()
    for key in sorted(mine):
        assert mine[key] == spark_s[key], f"record {key}"
    assert variant_bytes(ours, keys) == variant_bytes(theirs, keys)


def read_variant(spark: SparkSession, path: Path, **options: str) -> DataFrame:
    return spark.read.format("drill").option("singleVariantColumn", "v").options(**options).load(str(path))


# --- JSON records as one VARIANT ----------------------------------------------------------------------------


@spark4
def test_every_json_shape_is_parse_json_s_variant(spark: SparkSession, tmp_path: Path) -> None:
    texts = [t for t, _ in SHAPES]
    paths = sorted({p for _, ps in SHAPES for p in ps})
    write_files(tmp_path, {"in/shapes.json": lines(texts)})
    df = read_variant(spark, tmp_path / "in")
    assert df.columns == ["v"] and dict(df.dtypes)["v"] == "variant"
    assert_same_variants(df, spark_variants(spark, texts), paths)
    # Spot checks that the comparison above compares something.
    got = by_line(df, "to_json(v)", "schema_of_variant(v)")
    assert got[1] == (
        '{"a":1,"b":-2,"c":300,"d":70000,"e":5000000000,"f":-9223372036854775808}',
        "OBJECT<a: BIGINT, b: BIGINT, c: BIGINT, d: BIGINT, e: BIGINT, f: BIGINT>",
    )
    assert got[len(texts)] == ('"top"', "STRING")


@spark4
def test_the_bench_s_json_records_are_parse_json_s_variant(spark: SparkSession, tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from bench.gen import generate

    generate(tmp_path / "bench", seed=3, size_mb=0.05, parts=1, jobs=1, newline=False, log=False)
    root = tmp_path / "bench" / "json"
    files = sorted(root.rglob("*.json"))
    assert len(files) > 2
    # Each line of each file, by the file's path under root (dir0/dir1/filename) and its 1-based line.
    texts = [
        (f.relative_to(root).as_posix(), n, text)
        for f in files
        for n, text in enumerate(f.read_text(encoding="utf-8").splitlines(), start=1)
    ]
    theirs = spark.createDataFrame(texts, "rel STRING, line BIGINT, text STRING").selectExpr(
        "rel", "line", "parse_json(text) AS v"
    )
    df = read_variant(spark, root)
    assert df.columns == ["v", "dir0", "dir1"]
    ours = df.selectExpr("concat_ws('/', dir0, dir1, filename) AS rel", "_line AS line", "v")
    assert ours.count() == len(texts)
    paths = ["$.id", "$.price", "$.comment", "$.device.os", "$.device.screen.w", "$.tags[0]", "$.is_mobile"]
    assert_same_variants(ours, theirs, paths, keys=("rel", "line"))


@spark4
def test_partition_and_hidden_columns_stand_beside_the_variant(spark: SparkSession, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {"in/year=2024/x.json": '{"a":1}\n{"b":[2]}\n', "in/year=2025/y.json": '{"c":{"d":null}}\n'},
    )
    df = read_variant(spark, tmp_path / "in")
    assert df.columns == ["v", "dir0"]
    rows = df.selectExpr("dir0", "filename", "_line", "to_json(v)").collect()
    assert sorted(tuple(r) for r in rows) == [
        ("year=2024", "x.json", 1, '{"a":1}'),
        ("year=2024", "x.json", 2, '{"b":[2]}'),
        ("year=2025", "y.json", 1, '{"c":{"d":null}}'),
    ]
    hive = read_variant(spark, tmp_path / "in", partitionStyle="hive")
    assert hive.columns == ["v", "year"]
    assert sorted(tuple(r) for r in hive.selectExpr("year", "fqn").distinct().collect()) == [
        ("2024", f"{tmp_path}/in/year=2024/x.json"),
        ("2025", f"{tmp_path}/in/year=2025/y.json"),
    ]
    assert hive.where("year = '2025'").count() == 1
    assert hive.selectExpr("filename").count() == 3  # a projection without the variant


# --- bad records --------------------------------------------------------------------------------------------


@spark4
def test_a_key_twice_is_a_malformed_record_per_mode(spark: SparkSession, tmp_path: Path) -> None:
    from pyspark.sql import functions as F

    write_files(tmp_path, {"in/x.json": '{"ok":1}\n{"a":1,"a":2}\n{"z":[3]}\n'})
    # Spark's own refuses the document outright.
    with pytest.raises(Exception, match="VARIANT_DUPLICATE_KEY"):
        spark_variants(spark, ['{"a":1,"a":2}']).select(F.to_json("v")).collect()
    permissive = read_variant(spark, tmp_path / "in", columnNameOfCorruptRecord="_corrupt")
    assert by_line(permissive, F.to_json("v"), "_corrupt") == {
        1: ('{"ok":1}', None),
        2: (None, '{"a":1,"a":2}'),
        3: ('{"z":[3]}', None),
    }
    assert by_line(read_variant(spark, tmp_path / "in"), "v")[2] == (None,)  # no corrupt column: still null
    dropped = read_variant(spark, tmp_path / "in", mode="DROPMALFORMED")
    assert sorted(by_line(dropped, F.to_json("v"))) == [1, 3]
    with pytest.raises(sd.ScanError) as raised:
        read_variant(spark, tmp_path / "in", mode="FAILFAST").selectExpr("to_json(v)").collect()
    assert raised.value.file == f"{tmp_path}/in/x.json"
    assert raised.value.line == 2


@spark4
def test_allow_duplicate_keys_keeps_the_last_as_parse_json_does(spark: SparkSession, tmp_path: Path) -> None:
    texts = ['{"a":1,"b":{"c":1,"c":[2]},"a":3}', '{"k":"x","k":null}']
    write_files(tmp_path, {"in/x.json": lines(texts)})
    spark.conf.set(DUPLICATES, "true")
    try:
        df = read_variant(spark, tmp_path / "in")
        assert_same_variants(df, spark_variants(spark, texts), ["$.a", "$.b.c[0]", "$.k"])
        assert by_line(df, "to_json(v)") == {
            1: ('{"a":3,"b":{"c":[2]}}',),
            2: ('{"k":null}',),
        }
    finally:
        spark.conf.unset(DUPLICATES)


@spark4
def test_broken_json_is_a_malformed_record_per_mode(spark: SparkSession, tmp_path: Path) -> None:
    from pyspark.sql import functions as F

    write_files(tmp_path, {"in/x.json": '{"ok":1}\n{"a":1,\n{"b":2}\n'})
    permissive = read_variant(spark, tmp_path / "in", columnNameOfCorruptRecord="_corrupt")
    rows = permissive.select(F.to_json("v"), "_corrupt").collect()
    assert (None, '{"a":1,') in [tuple(r) for r in rows]
    assert ('{"ok":1}', None) in [tuple(r) for r in rows]
    assert ('{"b":2}', None) in [tuple(r) for r in rows]  # reading goes on after it
    with pytest.raises(sd.ScanError) as raised:
        read_variant(spark, tmp_path / "in", mode="FAILFAST").selectExpr("to_json(v)").collect()
    assert raised.value.file == f"{tmp_path}/in/x.json"
    assert raised.value.line == 2


# --- text and log fields as one object ----------------------------------------------------------------------


@spark4
def test_csv_and_tsv_records_are_objects_of_their_fields(spark: SparkSession, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {"csv/a.csv": "id,name,n\n1,ann,10\n2,,20\n", "tsv/b.tsv": "id\tname\tn\n3\tcy\t-4\n"},
    )

    def objects(path: Path, **keywords: Any) -> list[tuple[Any, ...]]:
        df = sd.read(spark, path, header=True, single_variant_column="v", **keywords)
        assert df.columns == ["v"]
        rows = df.selectExpr("_line", "to_json(v)", "variant_get(v, '$.n', 'int')", "schema_of_variant(v)")
        return [tuple(r)[1:] for r in sorted(rows.collect())]

    strings = "OBJECT<id: STRING, n: STRING, name: STRING>"
    typed = "OBJECT<id: BIGINT, n: BIGINT, name: STRING>"
    # An unquoted empty field is null (SPEC 9.1), as in a string column.
    assert objects(tmp_path / "csv") == [
        ('{"id":"1","n":"10","name":"ann"}', 10, strings),
        ('{"id":"2","n":"20","name":null}', 20, "OBJECT<id: STRING, n: STRING, name: VOID>"),
    ]
    assert objects(tmp_path / "csv", infer_types=True) == [
        ('{"id":1,"n":10,"name":"ann"}', 10, typed),
        ('{"id":2,"n":20,"name":null}', 20, "OBJECT<id: BIGINT, n: BIGINT, name: VOID>"),
    ]
    assert objects(tmp_path / "tsv") == [('{"id":"3","n":"-4","name":"cy"}', -4, strings)]
    assert objects(tmp_path / "tsv", infer_types=True) == [('{"id":3,"n":-4,"name":"cy"}', -4, typed)]


@spark4
def test_log_lines_are_objects_of_the_pattern_s_fields(spark: SparkSession, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "httpd/access.log": (
                '192.0.2.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326\n'
                '192.0.2.2 - - [10/Oct/2000:13:55:37 -0700] "GET /b HTTP/1.0" 404 17\n'
                "not an access log line\n"
            )
        },
    )
    df = sd.read(
        spark,
        tmp_path / "httpd",
        format="log",
        log_pattern="common",
        infer_types=True,
        single_variant_column="v",
        column_name_of_corrupt_record="_corrupt",
    )
    rows = df.selectExpr(
        "_line",
        "variant_get(v, '$.host', 'string')",
        "variant_get(v, '$.user', 'string')",
        "variant_get(v, '$.status', 'int')",
        "variant_get(v, '$.bytes', 'bigint')",
        "_corrupt",
    ).collect()
    assert [tuple(r)[1:] for r in sorted(rows)] == [
        ("192.0.2.1", "frank", 200, 2326, None),
        ("192.0.2.2", None, 404, 17, None),
        (None, None, None, None, "not an access log line"),
    ]
    schema = df.where("_line = 1").selectExpr("schema_of_variant(v)").head()[0]
    assert "status: BIGINT" in schema and "host: STRING" in schema


# --- VARIANT members in a provided or defined schema --------------------------------------------------------

MEMBERS = [
    '{"x":[1,{"y":2.50}],"z":"é"}',
    "[1,2,[3]]",
    "7",
    "12345678901234567890123",
    "-1.5e-3",
    '"s"',
    "true",
    "null",
    "{}",
]


@spark4
def test_a_member_as_variant_at_depth_1_whatever_its_shape(spark: SparkSession, tmp_path: Path) -> None:
    from pyspark.sql import functions as F

    records = [f'{{"id":{i},"attrs":{m},"other":"o"}}' for i, m in enumerate(MEMBERS, start=1)]
    write_files(tmp_path, {"in/x.json": lines([*records, '{"id":99,"other":"p"}'])})
    missing = len(records) + 1
    expected = spark_variants(spark, MEMBERS)

    def check(df: DataFrame) -> None:
        assert dict(df.dtypes)["attrs"] == "variant"
        ours = df.select("_line", F.col("attrs").alias("v"))
        assert by_line(ours, "v")[missing] == (None,)  # no member: SQL NULL, not a variant null
        present = ours.where(f"_line < {missing}")
        assert_same_variants(present, expected, ["$.x[1].y", "$[2][0]", "$"])
        assert sorted(r.id for r in df.select("id").collect()) == [*range(1, len(records) + 1), 99]

    provided = sd.read(spark, tmp_path / "in", provided_schema="id BIGINT, attrs VARIANT")
    assert provided.columns[:2] == ["id", "attrs"]
    check(provided)
    check(
        spark.read.format("drill")
        .option("providedSchema", "id BIGINT, attrs VARIANT")
        .load(str(tmp_path / "in"))
    )
    defined = spark.read.format("drill").schema("id BIGINT, attrs VARIANT").load(str(tmp_path / "in"))
    assert defined.columns == ["id", "attrs"]
    check(defined)


@spark4
def test_a_member_as_variant_at_depth_3_with_projection(spark: SparkSession, tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "in/x.json": lines(
                [
                    '{"id":1,"a":{"b":{"c":{"p":[1,2],"q":"r"},"d":4}}}',
                    '{"id":2,"a":{"b":{"c":[{"n":null}],"d":5}}}',
                    '{"id":3,"a":{"b":{"d":6}}}',
                    '{"id":4,"a":{"b":{"c":"text","d":7}}}',
                ]
            )
        },
    )
    ddl = "id BIGINT, a STRUCT<b: STRUCT<c: VARIANT, d: INT>>"
    expected = ['{"p":[1,2],"q":"r"}', '[{"n":null}]', None, '"text"']
    for df in (
        spark.read.format("drill").option("providedSchema", ddl).load(str(tmp_path / "in")),
        spark.read.format("drill").schema(ddl).load(str(tmp_path / "in")),
        sd.read(spark, tmp_path / "in", provided_schema=ddl),
    ):
        got = df.selectExpr("_line", "to_json(a.b.c)").collect()
        assert [r[1] for r in sorted(got)] == expected
        assert [r[0] for r in df.select("a.b.c").collect()].count(None) == 1
        assert sorted(r.id for r in df.select("id").collect()) == [1, 2, 3, 4]
        assert sorted(r.d for r in df.select("a.b.d").collect()) == [4, 5, 6, 7]
        q = df.selectExpr("id", "variant_get(a.b.c, '$.q', 'string') AS q").where("q IS NOT NULL").collect()
        assert [tuple(r) for r in q] == [(1, "r")]


# --- the rescued-data column as a VARIANT -------------------------------------------------------------------


@spark4
def test_rescued_data_as_variant_holds_what_the_string_form_holds(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(
        tmp_path,
        {
            "in/x.json": lines(
                [
                    '{"id":1,"extra":{"k":[1.5,"é"]},"n":"x","flag":true}',
                    '{"id":2}',
                    '{"id":3,"big":123456789012345678901234567890,"arr":[null,{}]}',
                ]
            )
        },
    )

    def read(kind: Literal["string", "variant"]) -> DataFrame:
        return sd.read(
            spark,
            tmp_path / "in",
            provided_schema="id BIGINT",
            strict_schema=True,
            rescued_data_column="_rescued",
            rescued_data_type=kind,
        )

    variant = read("variant")
    assert variant.columns == ["id", "_rescued"] and dict(variant.dtypes)["_rescued"] == "variant"
    as_variant = {r[0]: r[1] for r in variant.selectExpr("id", "to_json(_rescued)").collect()}
    string = read("string")
    assert dict(string.dtypes)["_rescued"] == "string"
    as_string = {r[0]: r[1] for r in string.select("id", "_rescued").collect()}
    assert as_variant.keys() == as_string.keys() == {1, 2, 3}
    assert as_variant[2] is None and as_string[2] is None
    for i in (1, 3):
        assert json.loads(as_variant[i]) == json.loads(as_string[i]), i
    assert json.loads(as_variant[1])["extra"] == {"k": [1.5, "é"]}
    assert json.loads(as_variant[3])["_line"] == 3
    got = variant.selectExpr("id", "variant_get(_rescued, '$.extra.k[1]', 'string')").where("id = 1").head()
    assert got[1] == "é"


@spark4
def test_a_rescued_data_type_not_known_names_the_option_and_its_values(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(tmp_path, {"in/x.json": '{"id":1}\n'})
    with pytest.raises(Exception) as raised:
        spark.read.format("drill").option("rescuedDataType", "xml").load(str(tmp_path / "in")).collect()
    message = str(raised.value)
    assert "rescuedDataType" in message and "string" in message and "variant" in message, message
    with pytest.raises(ValueError, match=r"rescued_data_type.*string, variant"):
        sd.read(spark, tmp_path / "in", rescued_data_type="xml")  # type: ignore[typeddict-item]


# --- typed keywords, describe -------------------------------------------------------------------------------


@spark4
def test_the_typed_keywords_send_the_variant_options(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"in/x.json": '{"id":1,"attrs":{"k":[1]},"more":"m"}\n'})
    single = sd.read(spark, tmp_path / "in", single_variant_column="record")
    assert single.columns == ["record"]
    assert single.selectExpr("to_json(record)").head()[0] == '{"attrs":{"k":[1]},"id":1,"more":"m"}'
    rescued = sd.read(
        spark,
        tmp_path / "in",
        provided_schema={"id": "bigint", "attrs": "variant"},
        strict_schema=True,
        rescued_data_column="_rescued",
        rescued_data_type="variant",
    )
    row = rescued.selectExpr("id", "to_json(attrs)", "variant_get(_rescued, '$.more', 'string')").head()
    assert tuple(row) == (1, '{"k":[1]}', "m")


@spark4
def test_describe_shows_variant_columns(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"in/x.json": '{"id":1,"attrs":{"k":1}}\n{"id":2,"attrs":[2]}\n'})
    provided = sd.describe(spark, tmp_path / "in", provided_schema="id BIGINT, attrs VARIANT").collect()
    assert {(r.column, r.table_type) for r in provided} >= {("id", "bigint"), ("attrs", "variant")}
    single = sd.describe(spark, tmp_path / "in", single_variant_column="v").collect()
    assert [(r.column, r.table_type) for r in single if r.column == "v"] == [("v", "variant")]


# --- streams ------------------------------------------------------------------------------------------------


@spark4
@pytest.mark.parametrize("evolution", ["addNewColumns", "failOnNewColumns"])
def test_members_growing_under_a_variant_column_are_no_schema_change(
    spark: SparkSession, tmp_path: Path, evolution: str
) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"

    def build() -> DataFrame:
        return (
            spark.readStream.format("drill")
            .option("schemaLocation", str(schemas))
            .option("providedSchema", "id BIGINT, attrs VARIANT")
            .option("schemaEvolutionMode", evolution)
            .load(str(src))
            .selectExpr("id", "to_json(attrs) AS attrs")
        )

    put(src, "a.json", '{"id":1,"attrs":{"a":1}}\n', OLD)
    first = available_now(build(), chk, out)
    put(src, "b.json", '{"id":2,"attrs":{"a":2,"new":{"deep":[1,{"x":"y"}]}}}\n', OLD + 1)
    put(src, "c.json", '{"id":3,"attrs":[1,2]}\n{"id":4,"attrs":"now a string"}\n{"id":5}\n', OLD + 2)
    second = available_now(build(), chk, out)  # raises when the stream fails
    rows = spark.read.parquet(str(out)).collect()
    assert sorted(tuple(r) for r in rows) == [
        (1, '{"a":1}'),
        (2, '{"a":2,"new":{"deep":[1,{"x":"y"}]}}'),
        (3, "[1,2]"),
        (4, '"now a string"'),
        (5, None),
    ]
    assert [p.name for p in schemas.glob("*.json")] == ["0.json"]  # no new version
    for query in (first, second):
        assert {source_metrics(p)["schemaVersion"] for p in batches(query)} == {"0"}


@spark4
def test_read_stream_takes_single_variant_column(spark: SparkSession, tmp_path: Path) -> None:
    src, schemas, chk, out = tmp_path / "in", tmp_path / "schemas", tmp_path / "chk", tmp_path / "out"
    put(src, "a.json", '{"id":1}\n', OLD)
    put(src, "b.json", '{"id":2,"brand":{"new":true}}\n', OLD + 1)
    stream = sd.read_stream(spark, src, single_variant_column="v", schema_location=str(schemas))
    assert stream.isStreaming and dict(stream.dtypes)["v"] == "variant"
    available_now(stream.selectExpr("to_json(v) AS v"), chk, out)
    rows = spark.read.parquet(str(out)).collect()
    assert sorted(r.v for r in rows) == ['{"brand":{"new":true},"id":2}', '{"id":1}']


# --- Spark 3.5 ----------------------------------------------------------------------------------------------


@pytest.mark.skipif(SPARK4, reason="Spark 3.5's refusal of VARIANT (SPEC 14)")
@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"singleVariantColumn": "v"}, "singleVariantColumn"),
        ({"rescuedDataColumn": "_r", "rescuedDataType": "variant"}, "rescuedDataType"),
        ({"providedSchema": "id BIGINT, attrs VARIANT"}, "providedSchema"),
    ],
)
def test_spark_3_5_refuses_each_variant_option_naming_spark_4(
    spark: SparkSession, tmp_path: Path, options: dict[str, str], named: str
) -> None:
    write_files(tmp_path, {"in/x.json": '{"id":1,"attrs":{"k":1}}\n'})
    with pytest.raises(Exception) as raised:
        spark.read.format("drill").options(**options).load(str(tmp_path / "in")).collect()
    message = str(raised.value)
    assert "Spark 4.0" in message and named in message, message
