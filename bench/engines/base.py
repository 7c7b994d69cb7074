"""What an engine is: something that can answer the benchmark's queries over one data directory."""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from bench.discovery import Found
from bench.truth import Answer


class NotApplicable(Exception):
    """The engine does not do this query (e.g. schema discovery when the schema is given)."""


class Unavailable(Exception):
    """The engine cannot run here (e.g. the spark-drill jar is missing)."""


class Engine(ABC):
    name: str = ""
    fmt: str = "csv"  # the truth section its answers are checked against: csv or json
    data: str = "csv"  # the directory under the data root it reads: csv, csv_aligned or json
    family: str = ""  # spark, spark-drill, duckdb, polars, cat
    description: str = ""
    # Keeps discovered schemas between loads (spark-drill): its discovery queries' timed runs are checked for
    # where the schemas came from (bench/discovery.py). The other engines infer again at every load.
    schema_cache = False

    def __init__(self, data_root: Path, **settings: Any) -> None:
        self.data_root = Path(data_root)
        self.settings = settings  # runner settings (e.g. jar=PATH)

    @property
    def root(self) -> Path:
        return self.data_root / self.data

    def files(self) -> list[Path]:
        suffix = ".json" if self.fmt == "json" else ".csv"
        return sorted(p for p in self.root.rglob("*" + suffix) if p.is_file())

    def glob(self) -> str:
        return str(self.root / ("**/*.json" if self.fmt == "json" else "**/*.csv"))

    def start(self) -> None:  # noqa: B027 (optional hook)
        """Starts the engine (a Spark session, a DuckDB connection); raises Unavailable."""

    def stop(self) -> None:  # noqa: B027 (optional hook)
        """Releases what start() took."""

    def prepare(self) -> None:  # noqa: B027 (optional hook)
        """Untimed: builds the relation Q1-Q4 and Q6 read (for Spark, a DataFrame whose files are listed)."""

    def setup(self, query: str) -> None:  # noqa: B027 (optional hook)
        """Untimed, before a query's first run (spark-drill: fills the cache Q5c re-loads from)."""

    def last_discovery(self) -> Found | None:
        """Untimed, after a run: how the run's load() found its files' schemas; None when the engine keeps no
        schemas between loads or the run loaded nothing."""
        return None

    # The queries. Each returns its answer (bench.truth.expected's shape), or raises NotApplicable. Q5's
    # answer may add "types" (column -> type name, as the engine spells it): reported, not checked.
    def q0(self) -> Answer:
        raise NotApplicable("only cat measures Q0")

    @abstractmethod
    def q1(self) -> Answer: ...

    @abstractmethod
    def q2(self) -> Answer: ...

    @abstractmethod
    def q2d(self) -> Answer: ...

    @abstractmethod
    def q3(self) -> Answer | None:
        """Materialises every column; returns None when the answer comes from check_answer."""

    def check_answer(self, query: str) -> Answer:
        """Untimed: the answer of a query whose timed form returned None (a noop write, Q3 and Q6)."""
        raise NotApplicable("no check")

    @abstractmethod
    def q4(self) -> Answer: ...

    @abstractmethod
    def q5(self) -> Answer: ...

    @abstractmethod
    def q6(self) -> Answer | None:
        """Materialises every column of the records schema.PREDICATE keeps; None as for q3."""

    def q5c(self) -> Answer:
        raise NotApplicable("no schema cache: every load infers again")

    def q5c_dir(self) -> Answer:
        raise NotApplicable("no schema cache: every load infers again")

    def run(self, query: str) -> Answer | None:
        result: Answer | None = getattr(self, query.lower().replace("-", "_"))()  # Q5c-dir: q5c_dir
        return result
