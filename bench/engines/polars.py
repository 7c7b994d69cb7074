"""Polars, a second single-node reference: a lazy scan per file (scan_csv / scan_ndjson, types inferred),
the scans concatenated by column name (diagonal_relaxed: a column a file lacks is null there, differing
types widen).

Polars infers a file's types again at every collect (about 5 ms a CSV file with try_parse_dates), so
prepare() infers them once, untimed, as the Spark engines build their DataFrame once: Q1-Q4 and Q6 read each
file with its inferred schema given; Q5 measures the inference. Polars has no partition or file-name columns
for a plain tree, so each file's dir0 and file name are literal columns (Q4). As for DuckDB, Q3 is timed as
the check query itself (count of every column, sums of the numeric ones), which makes Polars parse and
convert every column, and Q6 is the same query on the filtered records.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from bench.engines.base import Engine, Unavailable
from bench.schema import (
    DISTINCT_COLUMN,
    FILTER_COLUMN,
    FILTER_VALUE,
    LENGTH_COLUMN,
    SUM_COLUMN,
    columns,
)
from bench.truth import Answer

if TYPE_CHECKING:
    import polars as pl

LITERALS = ("dir0", "filename")


class Polars(Engine):
    family = "polars"

    lf: pl.LazyFrame
    schema: pl.Schema

    def start(self) -> None:
        # Polars sizes its thread pool when it is first imported, so the variable must be set before; the
        # runner gives each engine a process of its own.
        threads = int(os.environ.get("BENCH_POLARS_THREADS", "2"))
        os.environ["POLARS_MAX_THREADS"] = str(threads)
        try:
            import polars as pl
        except ImportError as e:
            raise Unavailable("polars is not installed (pip install -r bench/requirements.txt)") from e
        if pl.thread_pool_size() != threads:
            raise Unavailable(f"polars was imported before start(), with {pl.thread_pool_size()} threads")

    def _read(self, path: Path, schema: pl.Schema | None = None) -> pl.LazyFrame:
        """A scan of one file: its types inferred, or `schema` when given."""
        import polars as pl

        if self.fmt == "json":
            return pl.scan_ndjson(path, schema=schema)
        return pl.scan_csv(path, schema=schema, try_parse_dates=True)

    def _concat(self, scans: Iterable[tuple[Path, pl.LazyFrame]]) -> pl.LazyFrame:
        """The files' scans by column name, each with its dir0 and file name."""
        import polars as pl

        frames = [
            lf.with_columns(
                pl.lit(path.relative_to(self.root).parts[0]).alias("dir0"),
                pl.lit(path.name).alias("filename"),
            )
            for path, lf in scans
        ]
        return pl.concat(frames, how="diagonal_relaxed")

    def prepare(self) -> None:
        files = self.files()
        schemas = [self._read(p).collect_schema() for p in files]
        self.lf = self._concat((p, self._read(p, s)) for p, s in zip(files, schemas, strict=True))
        self.schema = self.lf.collect_schema()

    def _numeric(self, name: str) -> pl.Expr:
        """The column as a number: itself when Polars typed it so, else its text cast to a double."""
        import polars as pl

        c = pl.col(name)
        return c if self.schema[name].is_numeric() else c.cast(pl.Float64, strict=False)

    def q1(self) -> Answer:
        import polars as pl

        return {"rows": self.lf.select(pl.len()).collect().item()}

    def _narrow(self, key: str, column: str, aggregate: pl.Expr) -> Answer:
        """sum(SUM_COLUMN) and an aggregate of `column` (Q2, Q2d): {"sum": ..., key: ...}."""
        if SUM_COLUMN not in self.schema or column not in self.schema:
            return {"sum": None, key: None}
        row = self.lf.select(self._numeric(SUM_COLUMN).sum(), aggregate).collect().row(0)
        return {"sum": row[0], key: row[1]}

    def q2(self) -> Answer:
        import polars as pl

        return self._narrow("length", LENGTH_COLUMN, pl.col(LENGTH_COLUMN).str.len_chars().sum())

    def q2d(self) -> Answer:
        import polars as pl

        # count(distinct) in SQL leaves nulls out; n_unique counts null as a value.
        return self._narrow("distinct", DISTINCT_COLUMN, pl.col(DISTINCT_COLUMN).drop_nulls().n_unique())

    def q3(self) -> Answer:
        return self._column_stats(self.lf)

    def q6(self) -> Answer:
        return self._column_stats(self.lf.filter(self._numeric(FILTER_COLUMN) == FILTER_VALUE))

    def _column_stats(self, lf: pl.LazyFrame) -> Answer:
        """Row count, non-null count of every column and sums of the numeric ones."""
        import polars as pl

        present = [c for c in columns(self.fmt) if c.name in self.schema]
        numeric = [c for c in present if c.numeric]
        exprs = [pl.len()]
        exprs += [pl.col(c.name).count().alias(f"count {c.name}") for c in present]
        exprs += [self._numeric(c.name).sum().alias(f"sum {c.name}") for c in numeric]
        row = lf.select(exprs).collect().row(0)
        k = len(present)
        return {
            "rows": row[0],
            "non_null": {c.name: row[1 + i] for i, c in enumerate(present)},
            "sums": {c.name: row[1 + k + i] for i, c in enumerate(numeric)},
        }

    def q4(self) -> Answer:
        import polars as pl

        rows = self.lf.group_by("dir0", "filename").agg(pl.len()).collect().rows()
        return {"groups": {f"{d}/{f}": n for d, f, n in rows}}

    def q5(self) -> Answer:
        schema = self._concat((p, self._read(p)) for p in self.files()).collect_schema()
        types = {name: str(t) for name, t in schema.items() if name not in LITERALS}
        return {"columns": sorted(types), "types": types}


class PolarsCsv(Polars):
    name = "polars-csv"
    fmt = data = "csv"
    description = "scan_csv(try_parse_dates) per file, concat(diagonal_relaxed), types inferred"


class PolarsJson(Polars):
    name = "polars-json"
    fmt = data = "json"
    description = "scan_ndjson per file, concat(diagonal_relaxed), types inferred"
