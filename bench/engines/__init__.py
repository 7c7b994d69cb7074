"""The engines the runner knows, in the order it runs them."""

from __future__ import annotations

from bench.engines.base import Engine, NotApplicable, Unavailable
from bench.engines.cat import CatCsv, CatJson
from bench.engines.duck import DuckDbCsv, DuckDbJson
from bench.engines.polars import PolarsCsv, PolarsJson
from bench.engines.spark import (
    DrillCsv,
    DrillCsvInfer,
    DrillCsvText,
    DrillJson,
    DrillJsonSchema,
    SparkCsvAligned,
    SparkCsvAlignedInfer,
    SparkCsvDefault,
    SparkCsvInfer,
    SparkCsvSchema,
    SparkJsonDefault,
    SparkJsonInfer,
    SparkJsonSchema,
)

ENGINES: tuple[type[Engine], ...] = (
    CatCsv,
    DrillCsv,
    DrillCsvInfer,
    DrillCsvText,
    SparkCsvAligned,
    SparkCsvAlignedInfer,
    SparkCsvSchema,
    SparkCsvInfer,
    SparkCsvDefault,
    DuckDbCsv,
    PolarsCsv,
    CatJson,
    DrillJson,
    DrillJsonSchema,
    SparkJsonSchema,
    SparkJsonInfer,
    SparkJsonDefault,
    DuckDbJson,
    PolarsJson,
)
BY_NAME: dict[str, type[Engine]] = {e.name: e for e in ENGINES}
# The engine each query's ratio is taken against, per format: spark-drill with the schema given, as the
# targets' main comparisons (with Spark's readers given the same schema) are.
BASELINE = {"csv": DrillCsv.name, "json": DrillJsonSchema.name}

__all__ = ["BASELINE", "BY_NAME", "ENGINES", "Engine", "NotApplicable", "Unavailable"]
