"""One option table: the typed keywords sd.read, sd.describe and sd.read_stream take (_options'
BatchKeywords and StreamKeywords), Python's table made from them (_options.OPTIONS) and the JVM's option
catalog (sparkdrill.spark.OptionCatalog.json()) name the same options with compatible types and the same
scope (batch, stream or both)."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import textwrap
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession

import spark_drill as sd
from spark_drill import _options
from spark_drill._options import ALIASES, OPTIONS, Scope, kind, snake_case, takes

OWN_KEYWORDS = {"spark", "path", "keywords", *_options.READ_KEYWORDS}


def table_keywords(table: Any) -> list[str]:
    return list(typing.get_type_hints(table))


def flat(tp: Any) -> frozenset[Any]:
    """A type's members, unions flattened: `X | None` and `Optional[X]` compare equal."""
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        return frozenset().union(*(flat(a) for a in typing.get_args(tp)))
    return frozenset([tp])


BATCH = [o for o in OPTIONS if takes("batch", o)]
STREAM = [o for o in OPTIONS if takes("stream", o)]


def test_the_functions_take_one_typed_keyword_table_and_their_own_few_keywords() -> None:
    # No function spells the options out: each takes **keywords typed by a table of _options.
    for function, table in (
        (sd.read, _options.BatchKeywords),
        (sd.describe, _options.BatchKeywords),
        (sd.read_stream, _options.StreamKeywords),
    ):
        parameters = inspect.signature(function).parameters
        assert set(parameters) <= OWN_KEYWORDS, function
        assert parameters["keywords"].kind is inspect.Parameter.VAR_KEYWORD
        assert str(parameters["keywords"].annotation) == f"Unpack[{table.__name__}]"
    assert "schema" not in inspect.signature(sd.describe).parameters  # no defined schema for a report


def test_the_batch_table_is_every_batch_option_in_order() -> None:
    assert table_keywords(_options.BatchKeywords) == [o.snake for o in BATCH]


def test_the_stream_table_is_every_stream_option_the_shared_ones_first() -> None:
    assert table_keywords(_options.StreamKeywords) == [o.snake for o in STREAM]
    assert [o.scope for o in STREAM] == sorted((o.scope for o in STREAM), key=["both", "stream"].index)


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
        "listChangedDirectoriesOnly",
        "fileEvents",
        "queueUrl",
        "queueRegion",
        "queueEndpoint",
        "queueVisibilityTimeout",
        "backfillInterval",
        "allowOverwrites",
        "cleanSource",
        "cleanSourceArchiveDir",
        "cleanSourceRetention",
    }


def test_every_own_keyword_is_keyword_only_and_defaults_to_none() -> None:
    for function in (sd.read, sd.describe, sd.read_stream):
        for name, parameter in inspect.signature(function).parameters.items():
            if name in ("spark", "path", "keywords"):
                continue
            assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, (function, name)
            assert parameter.default is None, (function, name)


def test_each_keyword_of_a_table_is_its_option_s_type_or_none() -> None:
    for table, options in ((_options.BatchKeywords, BATCH), (_options.StreamKeywords, STREAM)):
        hints = typing.get_type_hints(table)
        assert not table.__required_keys__, table
        for option in options:
            assert flat(hints[option.snake]) == flat(option.type) | {type(None)}, (table, option)


def test_mypy_checks_the_keywords_names_and_types(tmp_path: Path) -> None:
    """What a user's type checker says (the installed package, with its py.typed)."""
    pytest.importorskip("mypy", reason="mypy is in .venv; test-compat's virtualenvs have PySpark and pytest")
    (tmp_path / "use.py").write_text(
        textwrap.dedent(
            """
            import spark_drill as sd
            from pyspark.sql import SparkSession

            def use(spark: SparkSession) -> None:
                sd.read(spark, "p", header=True, infer_types=True, options={"widths": "3"})
                sd.describe(spark, "p", mode="FAILFAST", provided_schema={"a": "int"})
                sd.read_stream(spark, "p", schema_location="s", max_files_per_trigger=3)
                sd.read(spark, "p", headr=True)  # line 9
                sd.read(spark, "p", header="yes")  # line 10
                sd.describe(spark, "p", mode="FAIL")  # line 11
                sd.read(spark, "p", max_files_per_trigger=3)  # line 12
            """
        )
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--ignore-missing-imports", "use.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [int(line.split(":")[1]) for line in errors] == [9, 10, 11, 12], done.stdout
    assert 'did you mean "header"' in errors[0], errors


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
