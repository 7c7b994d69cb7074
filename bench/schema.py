"""The benchmark data's logical columns, shared by the generator, the truth and the engines.

One list describes every column: its type, the numeric scale it is generated at (doubles are
integers divided by a power of ten, so their sums are exact in the truth), whether it can be null,
the month it first appears in, and whether only the JSON data has it.
"""

from __future__ import annotations

from dataclasses import dataclass

YEARS = (2023, 2024)
MONTHS = tuple(range(1, 13))


@dataclass(frozen=True)
class Column:
    name: str
    type: str  # Spark SQL type name: bigint, int, double, string, boolean, date, timestamp, or a DDL type
    scale: int = 1  # doubles: the generated integer is divided by this
    nullable: bool = False  # some values are null (blank in CSV, null or absent in JSON)
    since: tuple[int, int] | None = None  # (year, month) the column first appears in
    json_only: bool = False

    @property
    def numeric(self) -> bool:
        return self.type in ("int", "bigint", "double")

    def present_in(self, year: int, month: int) -> bool:
        return self.since is None or (year, month) >= self.since


DEVICE_TYPE = "struct<os:string,version:bigint,screen:struct<w:bigint,h:bigint>>"

COLUMNS: tuple[Column, ...] = (
    Column("id", "bigint"),
    Column("user_id", "int"),
    Column("user_name", "string"),
    Column("event_ts", "timestamp"),
    Column("event_date", "date"),
    Column("country", "string"),
    Column("city", "string"),  # some values need CSV quoting; some files lack the column
    Column("status", "string"),
    Column("category", "string"),
    Column("quantity", "int"),
    Column("price", "double", scale=100),
    Column("amount", "double", scale=100, nullable=True),
    Column("score", "double", scale=1000, nullable=True),
    Column("rating", "int", nullable=True),  # some files lack the column
    Column("latency_ms", "double", scale=10),
    Column("session_id", "bigint"),
    Column("is_active", "boolean"),
    Column("is_mobile", "boolean", nullable=True),
    Column("comment", "string"),  # commas, quotes, unicode
    Column("ip", "string"),
    Column("discount", "double", scale=100, nullable=True, since=(2024, 7)),
    Column("channel", "string", since=(2024, 10)),
    Column("device", DEVICE_TYPE, nullable=True, json_only=True),
    Column("tags", "array<string>", nullable=True, json_only=True),
)

# The columns the narrow queries read: Q2 sums SUM_COLUMN and the lengths of LENGTH_COLUMN's values, Q2d sums
# SUM_COLUMN and counts DISTINCT_COLUMN's distinct values.
SUM_COLUMN = "quantity"
LENGTH_COLUMN = "user_name"
DISTINCT_COLUMN = "user_name"
# The selective filter (Q6): quantity is drawn uniformly from 1..100, so one value keeps 1 % of the records in
# either format, and an equality on a typed column is a filter Spark pushes to the reader.
FILTER_COLUMN = "quantity"
FILTER_VALUE = 42
PREDICATE = f"{FILTER_COLUMN} = {FILTER_VALUE}"
# Columns that some files lack entirely (besides the ones that appear in later months).
SOMETIMES_MISSING = ("city", "rating")


def columns(fmt: str) -> tuple[Column, ...]:
    return tuple(c for c in COLUMNS if fmt == "json" or not c.json_only)


def json_type(c: Column) -> str:
    """The type JSON inference gives a column: JSON integers are bigints, dates and timestamps strings."""
    return {"int": "bigint", "date": "string", "timestamp": "string"}.get(c.type, c.type)


def column_type(c: Column, fmt: str) -> str:
    return json_type(c) if fmt == "json" else c.type


def ddl(fmt: str) -> str:
    """The schema as a Spark DDL string, in canonical (aligned) column order. Types keep their case: the
    names of a struct's fields are in them, and JSON fields are matched by exact name."""
    return ", ".join(f"{c.name} {column_type(c, fmt)}" for c in columns(fmt))


def month_index(year: int, month: int) -> int:
    return (year - YEARS[0]) * 12 + (month - 1)


def file_has(c: Column, year: int, month: int, part: int) -> bool:
    """Whether the file YYYY/MM/part-N has the column at all."""
    if not c.present_in(year, month):
        return False
    m = month_index(year, month)
    if c.name == "city":
        return (m + part) % 7 != 3
    if c.name == "rating":
        return (3 * m + part) % 5 != 1
    return True
