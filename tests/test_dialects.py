"""Real-world text and JSON dialects (SPEC 2, 9.1): blanks around quotes, empty fields as null, JSON values.

The cases run under each mode: none of their inputs is malformed, so the rows are the same in all three
(the last test is the one broken input, per mode).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import DataFrame, SparkSession

import spark_drill as sd
from conftest import write_files

MODES = ["PERMISSIVE", "DROPMALFORMED", "FAILFAST"]


def drill(spark: SparkSession, path: Path, **options: str) -> DataFrame:
    reader = spark.read.format("drill")
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load(str(path))


def rows(df: DataFrame) -> list[tuple[Any, ...]]:
    """Rows in file order (each case reads one small file: one split)."""
    return [tuple(r) for r in df.collect()]


def sorted_rows(df: DataFrame) -> list[tuple[Any, ...]]:
    return sorted((tuple(r) for r in df.collect()), key=repr)


def counts(df: DataFrame) -> tuple[Any, ...]:
    """count(col) for each column, then count(*)."""
    exprs = [f"count(`{c}`)" for c in df.columns] + ["count(*)"]
    return tuple(df.selectExpr(*exprs).first())


# --- CSV quoting (SPEC 2) ---


@pytest.mark.parametrize("mode", MODES)
def test_blanks_between_a_closing_quote_and_the_delimiter_or_line_end_are_dropped(
    spark: SparkSession, tmp_path: Path, mode: str
) -> None:
    write_files(
        tmp_path,
        {
            "lf.csv": 'name,sep\n"onions"  ,","\n"leeks"\t,";" \n',
            "crlf.csv": 'name,sep\r\n"a" \t,"b"  \r\n',
            "eof.csv": 'name,sep\n"c","d" \t',
        },
    )
    df = drill(spark, tmp_path, header="true", mode=mode)
    assert df.columns == ["name", "sep"]
    assert sorted_rows(df) == sorted([("onions", ","), ("leeks", ";"), ("a", "b"), ("c", "d")], key=repr)
    assert df.count() == 4


@pytest.mark.parametrize("mode", MODES)
def test_a_line_of_only_spaces_and_tabs_is_a_blank_line(
    spark: SparkSession, tmp_path: Path, mode: str
) -> None:
    # Before the header, between records and at the end, with LF and CRLF: no row, as Spark's reader reads it.
    write_files(tmp_path, {"a.csv": "  \t\nid,name\n1,a\n   \n\t\n2,b\r\n \r\n3,c\n  "})
    df = drill(spark, tmp_path, header="true", providedSchema="id INT, name STRING", mode=mode)
    assert rows(df) == [(1, "a"), (2, "b"), (3, "c")]
    assert df.count() == 3
    assert rows(drill(spark, tmp_path, header="true", mode=mode).select("name", "_line")) == [
        ("a", 3),
        ("b", 6),
        ("c", 8),
    ]


def test_a_tsv_line_of_one_tab_is_a_record_of_two_empty_fields(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"a.tsv": "x\ty\n1\t2\n\t\n  \n3\t4\n"})
    df = drill(spark, tmp_path, header="true")
    assert rows(df) == [("1", "2"), (None, None), ("3", "4")]
    assert df.count() == 3


def test_blanks_after_a_closing_quote_leave_nothing_malformed(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"lf.csv": 'name,sep\n"onions"  ,","\n'})
    df = drill(spark, tmp_path, header="true", columnNameOfCorruptRecord="_corrupt")
    assert rows(df) == [("onions", ",", None)]


def test_the_corrupt_record_text_leaves_out_a_custom_line_delimiter(
    spark: SparkSession, tmp_path: Path
) -> None:
    write_files(tmp_path, {"pipes.csv": "id,name||1,a||x,b||3,c||"})
    df = drill(
        spark,
        tmp_path,
        header="true",
        lineDelimiter="||",
        providedSchema="id INT, name STRING",
        columnNameOfCorruptRecord="_corrupt",
    )
    assert rows(df) == [(1, "a", None), (None, "b", "x,b"), (3, "c", None)]


@pytest.mark.parametrize("mode", MODES)
def test_a_quote_after_leading_blanks_opens_a_quoted_field(
    spark: SparkSession, tmp_path: Path, mode: str
) -> None:
    write_files(
        tmp_path,
        {"movies.csv": '"Year", "Score", "Title"\n1970,  73, "Hi, Mom!"\n1971, 81,\t"Bye, ""Dad"""\n'},
    )
    df = drill(spark, tmp_path, header="true", mode=mode)
    assert df.columns == ["Year", "Score", "Title"]
    # Unquoted fields keep their text as it is; the quoted ones lose the blanks before their quote.
    assert rows(df) == [("1970", "  73", "Hi, Mom!"), ("1971", " 81", 'Bye, "Dad"')]
    typed = drill(spark, tmp_path, header="true", inferTypes="true", mode=mode)
    assert [(f.name, f.dataType.simpleString()) for f in typed.schema.fields] == [
        ("Year", "int"),
        ("Score", "int"),
        ("Title", "string"),
    ]
    assert rows(typed) == [(1970, 73, "Hi, Mom!"), (1971, 81, 'Bye, "Dad"')]


@pytest.mark.parametrize("mode", MODES)
def test_an_empty_quote_option_turns_quoting_off(spark: SparkSession, tmp_path: Path, mode: str) -> None:
    write_files(tmp_path, {"q.csv": 'a,b\n"x" ,"y\n'})
    df = drill(spark, tmp_path, header="true", quote="", mode=mode)
    assert rows(df) == [('"x" ', '"y')]


# --- empty fields (SPEC 9.1) ---


@pytest.mark.parametrize("mode", MODES)
def test_an_empty_unquoted_field_is_null_and_a_quoted_one_is_empty(
    spark: SparkSession, tmp_path: Path, mode: str
) -> None:
    write_files(tmp_path, {"e.csv": 'a,b,c\nx,,z\nx,"",z\n,y,\n'})
    df = drill(spark, tmp_path, header="true", mode=mode)
    assert rows(df) == [("x", None, "z"), ("x", "", "z"), (None, "y", None)]
    assert counts(df) == (2, 2, 2, 3)
    assert rows(df.where("b IS NULL")) == [("x", None, "z")]
    assert rows(df.where("b = ''")) == [("x", "", "z")]
    assert df.where("c IS NULL").count() == 1


@pytest.mark.parametrize("mode", MODES)
def test_an_empty_field_quoted_or_not_is_null_in_a_typed_column(
    spark: SparkSession, tmp_path: Path, mode: str
) -> None:
    write_files(tmp_path, {"n.csv": 'id,n,s\n1,10,a\n2,,b\n3,"",c\n4," ",d\n'})
    inferred = drill(spark, tmp_path, header="true", inferTypes="true", mode=mode)
    assert [f.dataType.simpleString() for f in inferred.schema.fields] == ["int", "int", "string"]
    assert rows(inferred) == [(1, 10, "a"), (2, None, "b"), (3, None, "c"), (4, None, "d")]
    assert counts(inferred) == (4, 1, 4, 4)
    provided = drill(spark, tmp_path, header="true", providedSchema="id INT, n DOUBLE", mode=mode)
    assert rows(provided) == [(1, 10.0, "a"), (2, None, "b"), (3, None, "c"), (4, None, "d")]
    assert provided.where("n IS NULL").count() == 3


@pytest.mark.parametrize("mode", MODES)
def test_a_not_null_string_column_takes_its_default_for_an_empty_unquoted_field(
    spark: SparkSession, tmp_path: Path, mode: str
) -> None:
    write_files(tmp_path, {"d.csv": 'a,s\n1,\n2,""\n3,v\n'})
    df = drill(spark, tmp_path, header="true", providedSchema="s STRING NOT NULL DEFAULT 'none'", mode=mode)
    assert rows(df) == [("none", "1"), ("", "2"), ("v", "3")]


@pytest.mark.parametrize("mode", MODES)
def test_headerless_columns_keep_empty_fields_as_empty_strings(
    spark: SparkSession, tmp_path: Path, mode: str
) -> None:
    write_files(tmp_path, {"h.csv": 'x,,"", "y" ,\n'})
    df = drill(spark, tmp_path, mode=mode)
    assert rows(df) == [(["x", "", "", "y", ""],)]
    # Bound by position to a provided schema, the fields follow the null rule.
    positional = drill(spark, tmp_path, providedSchema="a STRING, b STRING, c STRING, d STRING", mode=mode)
    assert rows(positional) == [("x", None, "", "y")]


@pytest.mark.parametrize("mode", MODES)
def test_null_value_and_empty_value_as_in_spark(spark: SparkSession, tmp_path: Path, mode: str) -> None:
    write_files(tmp_path, {"nv.csv": 'a,b\nNA,""\n,"NA"\nx,y\n'})
    both = drill(spark, tmp_path, header="true", nullValue="NA", emptyValue="E", mode=mode)
    assert rows(both) == [(None, "E"), (None, None), ("x", "y")]
    # nullValue="" (Spark's default) makes a quoted empty field null too.
    empty_null = drill(spark, tmp_path, header="true", nullValue="", mode=mode)
    assert rows(empty_null) == [("NA", None), (None, "NA"), ("x", "y")]
    same = drill(spark, tmp_path, header="true", nullValue="NA", emptyValue="NA", mode=mode)
    assert rows(same) == [(None, None), (None, None), ("x", "y")]


@pytest.mark.parametrize("mode", MODES)
def test_null_value_in_a_typed_column(spark: SparkSession, tmp_path: Path, mode: str) -> None:
    write_files(tmp_path, {"t.csv": 'a,b\nNA,1\n"",2\n,3\n5,4\n'})
    df = drill(spark, tmp_path, header="true", nullValue="NA", providedSchema="a INT", mode=mode)
    assert rows(df) == [(None, "1"), (None, "2"), (None, "3"), (5, "4")]
    assert counts(df) == (1, 4, 4)


# --- JSON top-level values (SPEC 2) ---


def _json(spark: SparkSession, root: Path, name: str, text: str, **options: str) -> DataFrame:
    write_files(root / name.replace(".", "_"), {name: text})
    return drill(spark, root / name.replace(".", "_") / name, **options)


@pytest.mark.parametrize("mode", MODES)
def test_json_top_level_values_are_rows_of_value(spark: SparkSession, tmp_path: Path, mode: str) -> None:
    lines = _json(spark, tmp_path, "lines.json", "1\n2\n", mode=mode)
    assert [(f.name, f.dataType.simpleString()) for f in lines.schema.fields] == [("value", "bigint")]
    assert rows(lines) == [(1,), (2,)]
    strings = _json(spark, tmp_path, "strings.json", '"a"\n"b"\n', mode=mode)
    assert rows(strings) == [("a",), ("b",)]
    # A file that is one array of scalars: its elements are the rows, typed by the usual widening.
    widened = _json(spark, tmp_path, "root.json", '[4, "hello"]', mode=mode)
    assert widened.schema["value"].dataType.simpleString() == "string"
    assert rows(widened) == [("4",), ("hello",)]
    doubles = _json(spark, tmp_path, "fractions.json", "[1, 2.5]\n", mode=mode)
    assert doubles.schema["value"].dataType.simpleString() == "double"
    assert rows(doubles) == [(1.0,), (2.5,)]
    # A stream of arrays, one per line: each array is one row.
    arrays = _json(spark, tmp_path, "arrays.jsonl", "[1, 2]\n[3]\n", mode=mode)
    assert arrays.schema["value"].dataType.simpleString() == "array<bigint>"
    assert rows(arrays) == [([1, 2],), ([3],)]
    typed = _json(spark, tmp_path, "typed.json", "1\n2\n", providedSchema="value DOUBLE", mode=mode)
    assert rows(typed) == [(1.0,), (2.0,)]


@pytest.mark.parametrize("mode", MODES)
def test_json_objects_and_other_values_in_one_file(spark: SparkSession, tmp_path: Path, mode: str) -> None:
    df = _json(spark, tmp_path, "mixed.json", '{"a": 1}\n5\n{"a": 2}\n"x"\nnull\n', mode=mode)
    assert [(f.name, f.dataType.simpleString()) for f in df.schema.fields] == [
        ("a", "bigint"),
        ("value", "string"),
    ]
    assert rows(df) == [(1, None), (None, "5"), (2, None), (None, "x"), (None, None)]
    assert counts(df) == (2, 2, 5)
    assert df.where("value IS NULL").count() == 3


def test_json_a_broken_top_level_value_per_mode(spark: SparkSession, tmp_path: Path) -> None:
    write_files(tmp_path, {"b.json": "1\n2x\n3\n"})
    permissive = drill(spark, tmp_path / "b.json", columnNameOfCorruptRecord="_corrupt")
    assert rows(permissive) == [(1, None), (None, "2x"), (3, None)]
    assert rows(drill(spark, tmp_path / "b.json", mode="DROPMALFORMED")) == [(1,), (3,)]
    with pytest.raises(sd.ScanError) as err:
        drill(spark, tmp_path / "b.json", mode="FAILFAST").collect()
    assert err.value.line == 2
