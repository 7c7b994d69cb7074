"""Python column parsers: teach the scan new column names, with per-file values computed on the driver.

class IngestDate(sd.ColumnParser):
    def columns(self): return ["ingest_date"]
    def parse(self, name): return sd.ParsedColumn(name, "date") if name == "ingest_date" else None
    def value(self, name, file): return parse_date_from(file.path)
sd.register_column_parser(spark, IngestDate())
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from pyspark.sql import SparkSession
from pyspark.sql.types import DataType

from spark_drill._session import is_connect


@dataclass(frozen=True)
class FileInfo:
    """One file of the scan: its full path as the user sees it, the directory names between the scan root
    and the file (nearest the root first), its length in bytes and its last-modified time (UTC)."""

    path: str
    dirs: tuple[str, ...]
    length: int
    modification_time: dt.datetime

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class ParsedColumn:
    """A column a parser claims: its name and its Spark SQL type (a DDL string such as "date" or
    "decimal(10,2)", or a pyspark DataType)."""

    name: str
    type: str | DataType = "string"

    def ddl(self) -> str:
        return self.type if isinstance(self.type, str) else self.type.simpleString()


class ColumnParser:
    """Base class of a Python column parser. The scan asks `parse` for each projected name no file has
    (names in the `project` option, and the names `columns()` lists, which become hidden columns selectable
    by name from the DataFrame API and SQL); the first parser that claims a name serves it. `value` is then
    asked once per file, on the driver, while the query is planned; executors only see the values. A data
    column of the same name wins over a parser."""

    def columns(self) -> Sequence[str]:
        """Names this parser serves without a `project` list (hidden columns)."""
        return []

    def parse(self, name: str) -> ParsedColumn | None:
        raise NotImplementedError

    def value(self, name: str, file: FileInfo) -> Any:
        raise NotImplementedError


def _error(e: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(e), e)).strip()


def _as_text(value: Any) -> str | None:
    """A parser's value as the text the JVM casts to the column's type."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, (dt.date, int, float, str, decimal.Decimal)):
        return value.isoformat() if isinstance(value, dt.date) else str(value)
    raise TypeError(
        "a column parser value must be a scalar (str, int, float, bool, Decimal, date, datetime), "
        f"got {type(value).__name__}"
    )


class _Proxy:
    """The Py4J face of a ColumnParser: values cross as JSON text. Exceptions are returned, not raised, so
    the JVM can fail the query with the parser's own message and the file it was reading."""

    def __init__(self, parser: ColumnParser) -> None:
        self._parser = parser

    def id(self) -> str:
        return type(self._parser).__name__

    def columns(self) -> str:
        return json.dumps([str(c) for c in self._parser.columns()])

    def parse(self, name: str) -> str | None:
        try:
            parsed = self._parser.parse(name)
        except Exception as e:
            return json.dumps({"error": _error(e)})
        if parsed is None:
            return None
        return json.dumps({"type": parsed.ddl()})

    def values(self, name: str, files: str) -> str:
        out: list[dict[str, Any]] = []
        for f in json.loads(files):
            info = FileInfo(
                path=f["path"],
                dirs=tuple(f["dirs"]),
                length=int(f["length"]),
                modification_time=dt.datetime.fromtimestamp(f["modificationTime"] / 1000, dt.timezone.utc),
            )
            try:
                out.append({"value": _as_text(self._parser.value(name, info))})
            except Exception as e:
                out.append({"error": _error(e)})
        return json.dumps(out)

    class Java:
        implements: ClassVar[list[str]] = ["sparkdrill.spark.python.PythonColumnParser"]


CONNECT_MESSAGE = (
    "Python column parsers need a classic SparkSession; this is a Spark Connect session "
    "(parsers run on the driver and are called over Py4J): start one with sd.session(), not "
    "sd.session(server=True) nor SparkSession.builder.remote(...)"
)


def _require_classic(spark: SparkSession) -> None:
    if is_connect(spark):
        raise RuntimeError(CONNECT_MESSAGE)


# Strong references, by parser class (as the JVM keys them): Py4J holds proxies weakly on the Python side.
_LIVE: dict[str, _Proxy] = {}


DEFAULT_TIMEOUT = 120.0


def register_column_parser(
    spark: SparkSession, parser: ColumnParser, *, timeout: float | None = DEFAULT_TIMEOUT
) -> None:
    """Registers `parser` for the tables this session opens from now on (after any registered before it;
    a parser of the same class replaces the earlier one). Needs a classic session: under Spark Connect it
    raises RuntimeError at once.

    `timeout` is the longest, in seconds, one call from the driver may take (`parse` for a name, or `value`
    for all the files of a query, which are asked in one call); past it the load or the query fails naming
    the parser. None waits for ever."""
    _require_classic(spark)
    if timeout is not None and not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
    from pyspark.java_gateway import ensure_callback_server_started

    from spark_drill._session import ensure_loaded

    ensure_loaded(spark)
    sc = spark.sparkContext
    # Planning may call back from a JVM thread other than the one serving this call.
    ensure_callback_server_started(sc._gateway)  # type: ignore[no-untyped-call]
    proxy = _Proxy(parser)
    _LIVE[proxy.id()] = proxy
    jvm = sc._jvm
    assert jvm is not None
    millis = 0 if timeout is None else max(1, round(timeout * 1000))
    jvm.sparkdrill.spark.python.ColumnParserRegistry.register(spark._jsparkSession, proxy, millis)


def clear_column_parsers(spark: SparkSession) -> None:
    """Forgets this session's parsers (tables already opened keep theirs)."""
    _require_classic(spark)
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    jvm.sparkdrill.spark.python.ColumnParserRegistry.clear(spark._jsparkSession)
