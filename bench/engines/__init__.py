"""The engines the runner knows, in the order it runs them."""

from __future__ import annotations

from bench.engines.base import Engine, NotApplicable, Unavailable
from bench.engines.cat import CatCsv, CatJson
from bench.engines.duck import DuckDbCsv, DuckDbJson
from bench.engines.spark import (
    DrillCsv,
    DrillCsvText,
    DrillJson,
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
    DrillCsvText,
    SparkCsvAligned,
    SparkCsvAlignedInfer,
    SparkCsvSchema,
    SparkCsvInfer,
    SparkCsvDefault,
    DuckDbCsv,
    CatJson,
    DrillJson,
    SparkJsonSchema,
    SparkJsonInfer,
    SparkJsonDefault,
    DuckDbJson,
)
BY_NAME: dict[str, type[Engine]] = {e.name: e for e in ENGINES}
# The engine each query's ratio is taken against, per format.
BASELINE = {"csv": DrillCsv.name, "json": DrillJson.name}

__all__ = ["BASELINE", "BY_NAME", "ENGINES", "Engine", "NotApplicable", "Unavailable"]
