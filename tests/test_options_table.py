"""One option table: sd.read's, sd.describe's and sd.read_stream's signatures, Python's table
(_options.OPTIONS) and the JVM's option catalog (sparkdrill.spark.OptionCatalog.json()) name the same options
with compatible types and the same scope (batch, stream or both)."""

from __future__ import annotations

import inspect
import json
import types
import typing
from typing import Any

from pyspark.sql import SparkSession

import spark_drill as sd
from spark_drill import _options
from spark_drill._options import ALIASES, OPTIONS, Scope, kind, snake_case, takes

NOT_OPTIONS = {"spark", "path", *_options.READ_KEYWORDS}


def option_keywords(function: Any) -> list[str]:
    return [name for name in inspect.signature(function).parameters if name not in NOT_OPTIONS]


def flat(tp: Any) -> frozenset[Any]:
    """A type's members, unions flattened: `X | None` and `Optional[X]` compare equal."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return frozenset().union(*(flat(a) for a in typing.get_args(tp)))
    return frozenset([tp])


BATCH = [o for o in OPTIONS if takes("batch", o)]
STREAM = [o for o in OPTIONS if takes("stream", o)]


def test_read_takes_every_batch_option_of_the_table_in_its_order() -> None:
    assert option_keywords(sd.read) == [o.snake for o in BATCH]
    assert set(inspect.signature(sd.read).parameters) == {o.snake for o in BATCH} | NOT_OPTIONS


def test_read_stream_takes_every_stream_option_of_the_table_in_its_order() -> None:
    # The options both reads take, then the streaming ones: the table lists them in that order.
    assert option_keywords(sd.read_stream) == [o.snake for o in STREAM]
    assert [o.scope for o in STREAM] == sorted((o.scope for o in STREAM), key=["both", "stream"].index)
    assert list(inspect.signature(sd.read_stream).parameters)[-3:] == list(_options.READ_KEYWORDS)
    assert set(inspect.signature(sd.read_stream).parameters) == {o.snake for o in STREAM} | NOT_OPTIONS


def test_read_stream_takes_read_s_keywords_and_the_streaming_ones() -> None:
    read = option_keywords(sd.read)
    streaming = [o.snake for o in OPTIONS if o.scope == "stream"]
    assert streaming, "the table has streaming options"
    assert option_keywords(sd.read_stream) == [n for n in read if takes("stream", _options.BY_SNAKE[n])] + [
        n for n in streaming if n not in read
    ]


def test_scopes_are_the_three_kinds() -> None:
    assert {o.scope for o in OPTIONS} <= set(typing.get_args(Scope))
    assert {o.jvm for o in OPTIONS if o.scope == "stream"} == {
        "schemaLocation",
        "includeExistingFiles",
        "minFileAge",
        "maxFilesPerTrigger",
        "maxBytesPerTrigger",
        "includeColumns",
        "schemaEvolutionMode",
    }


def test_every_option_is_keyword_only_and_defaults_to_none() -> None:
    for function in (sd.read, sd.describe, sd.read_stream):
        for name, parameter in inspect.signature(function).parameters.items():
            if name in ("spark", "path"):
                continue
            assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, (function, name)
            assert parameter.default is None, (function, name)


def test_read_and_read_stream_annotate_each_option_with_the_tables_type() -> None:
    for function, options in ((sd.read, BATCH), (sd.read_stream, STREAM)):
        hints = typing.get_type_hints(function)
        for option in options:
            assert flat(hints[option.snake]) == flat(option.type) | {type(None)}, (function, option)
        for name in _options.READ_KEYWORDS:
            assert flat(hints[name]) == flat(typing.get_type_hints(sd.read)[name]), (function, name)


def test_describe_takes_the_same_keywords_as_read_but_a_defined_schema() -> None:
    read = inspect.signature(sd.read).parameters
    described = inspect.signature(sd.describe).parameters
    assert list(described) == [name for name in read if name != "schema"]
    read_hints, describe_hints = typing.get_type_hints(sd.read), typing.get_type_hints(sd.describe)
    for name in described:
        assert flat(describe_hints[name]) == flat(read_hints[name]), name


def test_snake_names_are_the_jvm_names_in_snake_case_and_unique() -> None:
    assert all(o.snake == snake_case(o.jvm) for o in OPTIONS)
    assert len({o.jvm.lower() for o in OPTIONS}) == len(OPTIONS)
    assert all(target in {o.jvm for o in OPTIONS} for target in ALIASES.values())
    assert not {a.lower() for a in ALIASES} & {o.jvm.lower() for o in OPTIONS}


def test_every_type_has_a_kind() -> None:
    assert {kind(o) for o in OPTIONS} == {
        "boolean",
        "int",
        "string",
        "enum",
        "timestamp",
        "schema",
        "duration",
        "size",
        "columns",
    }


# --- against the JVM ---------------------------------------------------------------------------------------

# JVM catalog type -> the kinds of Python type it accepts. Durations, sizes and column lists are text the JVM
# parses (a Python timedelta, int or list is converted to that text), so the catalog may call them strings.
COMPATIBLE = {
    "boolean": {"boolean"},
    "int": {"int"},
    "long": {"int"},
    "string": {"string", "duration", "size", "columns"},
    "duration": {"duration"},
    "size": {"size"},
    "char": {"string"},
    "enum": {"enum"},
    "timestamp": {"timestamp"},
    "schema": {"schema"},
}


def jvm_entries(spark: SparkSession) -> list[dict[str, Any]]:
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    entries: list[dict[str, Any]] = json.loads(jvm.sparkdrill.spark.OptionCatalog.json())
    return entries


def jvm_catalog(spark: SparkSession) -> list[dict[str, Any]]:
    """The options (prefix families such as `format.<column>` are entries of type `prefix`)."""
    return [e for e in jvm_entries(spark) if e["type"] != "prefix"]


def test_python_and_the_jvm_know_the_same_option_families(spark: SparkSession) -> None:
    prefixes = {e["name"] for e in jvm_entries(spark) if e["type"] == "prefix"}
    assert prefixes == {_options.COLUMN_FORMAT_PREFIX + "<column>"}


def test_python_and_the_jvm_know_the_same_options(spark: SparkSession) -> None:
    jvm_names = {e["name"] for e in jvm_catalog(spark)}
    python_names = {o.jvm for o in OPTIONS}
    assert sorted(python_names - jvm_names) == [], "options only Python knows"
    assert sorted(jvm_names - python_names) == [], "options only the JVM knows"


def test_python_types_fit_the_jvm_types(spark: SparkSession) -> None:
    by_jvm = {o.jvm: o for o in OPTIONS}
    for entry in jvm_catalog(spark):
        option = by_jvm[entry["name"]]
        assert kind(option) in COMPATIBLE[entry["type"]], (entry, option)
        if entry["type"] == "enum":
            python_values = {v.lower() for v in typing.get_args(option.type)}
            assert python_values == {v.lower() for v in entry["values"]}, (entry, option)


def test_python_and_the_jvm_give_each_option_the_same_scope(spark: SparkSession) -> None:
    # Every entry has a scope (fails until the JVM's catalog gives one); then each matches Python's.
    entries = jvm_catalog(spark)
    assert [e["name"] for e in entries if e.get("scope") not in ("both", "batch", "stream")] == []
    assert {e["name"]: e["scope"] for e in entries} == {o.jvm: o.scope for o in OPTIONS}


def test_python_and_the_jvm_take_the_same_aliases(spark: SparkSession) -> None:
    jvm_aliases = {a.lower(): e["name"] for e in jvm_catalog(spark) for a in e.get("aliases") or []}
    assert jvm_aliases == {alias.lower(): target for alias, target in ALIASES.items()}


def test_every_jvm_option_has_a_one_line_doc(spark: SparkSession) -> None:
    for entry in jvm_catalog(spark):
        assert entry["doc"] and "\n" not in entry["doc"], entry
