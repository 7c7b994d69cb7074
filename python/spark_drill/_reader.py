"""Typed helpers over spark-drill's options: they only set options, so they also work on Spark Connect."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.types import StructType

from spark_drill._errors import install_error_conversion
from spark_drill._session import FORMAT

OptionValue = str | bool | int | float


def _option_text(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def option_map(options: Mapping[str, OptionValue]) -> dict[str, str]:
    """Options as Spark takes them: camelCase names, text values."""
    return {_camel(name): _option_text(value) for name, value in options.items()}


def provided_schema_ddl(schema: str | Mapping[str, str] | StructType) -> str:
    """A provided schema as the DDL string the `providedSchema` option takes."""
    if isinstance(schema, str):
        return schema
    if isinstance(schema, StructType):
        return ", ".join(
            f"`{f.name}` {f.dataType.simpleString()}{'' if f.nullable else ' NOT NULL'}"
            for f in schema.fields
        )
    return ", ".join(f"`{name}` {tpe}" for name, tpe in schema.items())


def read(
    spark: SparkSession,
    path: str | list[str],
    *,
    schema: StructType | str | None = None,
    provided_schema: str | Mapping[str, str] | StructType | None = None,
    **options: OptionValue,
) -> DataFrame:
    """Reads `path` (a file, a directory, a glob, or a list of them) with spark-drill.

    Options use SPEC names, in camelCase or snake_case: `read(spark, p, header=True, batch_rows=1024)`.
    `schema` is a defined schema (exactly the output); `provided_schema` types some columns and leaves the
    rest to discovery.
    """
    install_error_conversion()
    reader: Any = spark.read.format(FORMAT)
    if schema is not None:
        reader = reader.schema(schema)
    if provided_schema is not None:
        reader = reader.option("providedSchema", provided_schema_ddl(provided_schema))
    for name, value in option_map(options).items():
        reader = reader.option(name, value)
    df: DataFrame = reader.load(path if isinstance(path, str) else list(path))
    return df
