"""DuckDB, the single-node reference: read_csv / read_json with union_by_name and filename.

Every query re-binds the table function, so Q1-Q4 include DuckDB's per-file sniffing (its schema
discovery); Q5 measures that alone. Q3 (all columns) is timed as the check query itself: count of every
column and sums of the numeric ones, which makes DuckDB parse and convert every column; Q6 is the same
query with the filter as its WHERE clause.
"""

from __future__ import annotations

import os
from typing import Any

from bench.engines.base import Engine
from bench.queries import DIR0_REGEX
from bench.schema import (
    DISTINCT_COLUMN,
    FILTER_COLUMN,
    FILTER_VALUE,
    LENGTH_COLUMN,
    SUM_COLUMN,
    columns,
)
from bench.truth import Answer

NUMERIC = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "DOUBLE", "FLOAT")


class DuckDb(Engine):
    family = "duckdb"

    con: Any
    types: dict[str, str]

    def source(self) -> str:
        g = self.glob().replace("'", "''")
        if self.fmt == "json":
            return f"read_json('{g}', format='newline_delimited', union_by_name=true, filename=true)"
        return (
            f"read_csv('{g}', header=true, delim=',', quote='\"', escape='\"', "
            "union_by_name=true, filename=true)"
        )

    def start(self) -> None:
        import duckdb

        self.con = duckdb.connect(config={"threads": int(os.environ.get("BENCH_DUCKDB_THREADS", "2"))})

    def stop(self) -> None:
        self.con.close()

    def sql(self, query: str) -> list[tuple[Any, ...]]:
        rows: list[tuple[Any, ...]] = self.con.execute(query).fetchall()
        return rows

    def prepare(self) -> None:
        self.types = {r[0]: r[1] for r in self.sql(f"DESCRIBE SELECT * FROM {self.source()}")}

    def _col(self, name: str) -> str | None:
        return next((c for c in self.types if c.lower() == name.lower() and c != "filename"), None)

    def _numeric(self, name: str) -> str:
        return f'"{name}"' if self.types[name] in NUMERIC else f'try_cast("{name}" AS DOUBLE)'

    def q1(self) -> Answer:
        return {"rows": self.sql(f"SELECT count(*) FROM {self.source()}")[0][0]}

    def _narrow(self, key: str, column: str, aggregate: str) -> Answer:
        """sum(SUM_COLUMN) and `aggregate` ("{}" the quoted column) of `column` (Q2, Q2d)."""
        s, c = self._col(SUM_COLUMN), self._col(column)
        if s is None or c is None:
            return {"sum": None, key: None}
        agg = aggregate.format(f'"{c}"')
        row = self.sql(f"SELECT sum({self._numeric(s)}), {agg} FROM {self.source()}")[0]
        return {"sum": row[0], key: row[1]}

    def q2(self) -> Answer:
        return self._narrow("length", LENGTH_COLUMN, "sum(length({}))")  # length(): characters

    def q2d(self) -> Answer:
        return self._narrow("distinct", DISTINCT_COLUMN, "count(DISTINCT {})")

    def q3(self) -> Answer:
        return self._column_stats("")

    def q6(self) -> Answer:
        f = self._col(FILTER_COLUMN)
        if f is None:
            raise ValueError(f"no column {FILTER_COLUMN}")
        return self._column_stats(f"WHERE {self._numeric(f)} = {FILTER_VALUE}")

    def _column_stats(self, where: str) -> Answer:
        """Row count, non-null count of every column and sums of the numeric ones, of the rows `where`
        keeps."""
        present = [(c, n) for c in columns(self.fmt) if (n := self._col(c.name)) is not None]
        numeric = [(c, n) for c, n in present if c.numeric]
        exprs = ["count(*)"] + [f'count("{n}")' for _, n in present]
        exprs += [f"sum({self._numeric(n)})" for _, n in numeric]
        row = self.sql(f"SELECT {', '.join(exprs)} FROM {self.source()} {where}")[0]
        k = len(present)
        return {
            "rows": row[0],
            "non_null": {c.name: row[1 + i] for i, (c, _) in enumerate(present)},
            "sums": {c.name: row[1 + k + i] for i, (c, _) in enumerate(numeric)},
        }

    def q4(self) -> Answer:
        rows = self.sql(
            f"SELECT regexp_extract(filename, '{DIR0_REGEX}', 1), parse_filename(filename), "
            f"count(*) FROM {self.source()} GROUP BY ALL"
        )
        return {"groups": {f"{d}/{f}": n for d, f, n in rows}}

    def q5(self) -> Answer:
        rows = [r for r in self.sql(f"DESCRIBE SELECT * FROM {self.source()}") if r[0] != "filename"]
        return {"columns": sorted(r[0] for r in rows), "types": {r[0]: r[1] for r in rows}}


class DuckDbCsv(DuckDb):
    name = "duckdb-csv"
    fmt = data = "csv"
    description = "read_csv(union_by_name, filename), types sniffed"


class DuckDbJson(DuckDb):
    name = "duckdb-json"
    fmt = data = "json"
    description = "read_json(union_by_name, filename), types sniffed"
