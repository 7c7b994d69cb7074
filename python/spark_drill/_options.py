"""spark-drill's reader options: the table made from the typed keywords of `_keywords` (`OPTIONS`: keyword,
JVM name, type, scope), which a test checks against the JVM's option table, re-exported here with them.

Checking and converting values, the `options=` escape hatch and the CLI's `-o key=value` go through this
module. A key it does not know (a format plugin's own option, or a misspelling) goes to the JVM, whose option
table knows every registered format's options, to be judged when the read is planned.
"""

from __future__ import annotations

import datetime as dt
import difflib
import functools
import inspect
import operator
import re
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import (
    Any,
    Literal,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

from pyspark.sql.types import StructType

from spark_drill._keywords import (
    BatchKeywords as BatchKeywords,
)
from spark_drill._keywords import (
    ColumnList as ColumnList,
)
from spark_drill._keywords import (
    Duration as Duration,
)
from spark_drill._keywords import (
    LogPattern as LogPattern,
)
from spark_drill._keywords import (
    MemoryMode as MemoryMode,
)
from spark_drill._keywords import (
    Mode as Mode,
)
from spark_drill._keywords import (
    Option as Option,
)
from spark_drill._keywords import (
    PartitionStyle as PartitionStyle,
)
from spark_drill._keywords import (
    ProvidedSchema as ProvidedSchema,
)
from spark_drill._keywords import (
    ReadKind as ReadKind,
)
from spark_drill._keywords import (
    SchemaEvolutionMode as SchemaEvolutionMode,
)
from spark_drill._keywords import (
    SchemaMode as SchemaMode,
)
from spark_drill._keywords import (
    Scope as Scope,
)
from spark_drill._keywords import (
    SharedKeywords as SharedKeywords,
)
from spark_drill._keywords import (
    Size as Size,
)
from spark_drill._keywords import (
    StreamKeywords as StreamKeywords,
)
from spark_drill._keywords import (
    Timestamp as Timestamp,
)
from spark_drill._keywords import (
    TypeConflict as TypeConflict,
)
from spark_drill._keywords import (
    Validate as Validate,
)


def camel_case(snake: str) -> str:
    """`column_name_of_corrupt_record` -> `columnNameOfCorruptRecord`."""
    first, *rest = snake.split("_")
    return first + "".join(part.capitalize() for part in rest)


def _without_none(tp: Any) -> Any:
    """`X | None` -> X (the union of the rest when X is itself a union)."""
    args = tuple(a for a in get_args(tp) if a is not type(None))
    if get_origin(tp) not in (Union, types.UnionType) or len(args) == len(get_args(tp)):
        return tp
    return args[0] if len(args) == 1 else functools.reduce(operator.or_, args)


def _table() -> tuple[Option, ...]:
    shared = get_type_hints(SharedKeywords)
    batch, stream = get_type_hints(BatchKeywords), get_type_hints(StreamKeywords)
    # The shared options, then the batch-only ones, then the streaming ones.
    names = list(shared) + [n for n in batch if n not in shared] + [n for n in stream if n not in shared]
    scopes: dict[str, Scope] = {
        n: "both" if n in shared else "batch" if n in batch else "stream" for n in names
    }
    hints = {**batch, **stream}
    return tuple(Option(n, camel_case(n), _without_none(hints[n]), scopes[n]) for n in names)


OPTIONS: tuple[Option, ...] = _table()

# Spark's csv/json names the JVM also takes, by the spark-drill option they mean.
ALIASES: Mapping[str, str] = {
    "inferSchema": "inferTypes",
    "sep": "delimiter",
    "fieldDelimiter": "delimiter",
    "lineSep": "lineDelimiter",
    "primitivesAsString": "allTextMode",
}

# Keys of the `options=` mapping (and `-o`) that go to Hadoop's Configuration unchecked.
HADOOP_PREFIXES = ("fs.", "hadoop.", "dfs.", "mapreduce.", "io.", "yarn.")
# `format.<column>`: a date/timestamp pattern for one column.
COLUMN_FORMAT_PREFIX = "format."

# sd.read's keywords that are not options of the table.
READ_KEYWORDS = ("schema", "column_formats", "options")


def takes(read: ReadKind, option: Option) -> bool:
    """Whether a batch read or a stream takes `option`."""
    return option.scope in ("both", read)


def scope_error(option: Option, name: str) -> str:
    """Why a read of the other kind refuses `option` (spelt `name` by the user), and what takes it."""
    if option.scope == "stream":
        return (
            f"{name} is a streaming-only option: a batch read does not take it "
            "(sd.read_stream, spark.readStream and spark-drill ingest do)"
        )
    return (
        f"{name} is a batch-only option: a stream does not take it "
        "(sd.read, spark.read and spark-drill's other commands do)"
    )


def snake_case(name: str) -> str:
    """`columnNameOfCorruptRecord` -> `column_name_of_corrupt_record`."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


BY_SNAKE: Mapping[str, Option] = {o.snake: o for o in OPTIONS}
# Every spelling a key may take, lower-cased: JVM names, snake_case names, Spark's aliases in both forms.
_BY_KEY: Mapping[str, Option] = {
    **{o.jvm.lower(): o for o in OPTIONS},
    **{o.snake: o for o in OPTIONS},
    **{alias.lower(): BY_SNAKE[snake_case(target)] for alias, target in ALIASES.items()},
    **{snake_case(alias): BY_SNAKE[snake_case(target)] for alias, target in ALIASES.items()},
}


def lookup(key: str) -> Option | None:
    """The option a key names: its JVM name (any case), its snake_case name or one of Spark's aliases."""
    return _BY_KEY.get(key.lower()) or _BY_KEY.get(snake_case(key))


def nearest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate closest to `name` (case-insensitively), or None when none is close."""
    by_lower = {c.lower(): c for c in candidates}
    found = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[found[0]] if found else None


def is_hadoop_key(key: str) -> bool:
    return key.startswith(HADOOP_PREFIXES)


def _literal_values(tp: Any) -> tuple[str, ...] | None:
    return tuple(get_args(tp)) if get_origin(tp) is Literal else None


def kind(option: Option) -> str:
    """The option's kind as the JVM's catalog names it (`long` options are `int` here)."""
    if option.type is bool:
        return "boolean"
    if option.type is int:
        return "int"
    if option.type is str:
        return "string"
    if _literal_values(option.type) is not None:
        return "enum"
    if option.type == Timestamp:
        return "timestamp"
    if option.type == ProvidedSchema:
        return "schema"
    if option.type == Duration:
        return "duration"
    if option.type == Size:
        return "size"
    if option.type == ColumnList:
        return "columns"
    raise AssertionError(f"no kind for {option}")


def provided_schema_ddl(schema: str | Mapping[str, str] | StructType) -> str:
    """A provided schema as the DDL string the `providedSchema` option takes."""
    if isinstance(schema, str):
        return schema
    if isinstance(schema, StructType):
        return ", ".join(
            f"{_quoted(f.name)} {f.dataType.simpleString()}{'' if f.nullable else ' NOT NULL'}"
            for f in schema.fields
        )
    return ", ".join(f"{_quoted(name)} {tpe}" for name, tpe in schema.items())


def _quoted(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def duration_text(delta: dt.timedelta) -> str:
    """A non-negative timedelta as duration text: whole seconds (`90s`), else milliseconds (`1500ms`)."""
    if delta < dt.timedelta(0):
        raise ValueError(f"a duration cannot be negative, got {delta!r}")
    if delta.microseconds == 0:
        return f"{delta.days * 86400 + delta.seconds}s"
    if delta.microseconds % 1000:
        raise ValueError(f"a duration is at most millisecond-precise, got {delta!r}")
    return f"{delta // dt.timedelta(milliseconds=1)}ms"


def _columns_text(option: Option, value: object) -> str:
    if isinstance(value, str):
        return value
    if not isinstance(value, Sequence) or not all(isinstance(c, str) for c in value):
        raise _type_error(option, "a comma-separated string or a sequence of column names", value)
    bad = [c for c in value if not c.strip() or "," in c]
    if bad:
        raise ValueError(f"{option.snake} takes column names without commas, got {bad[0]!r}")
    return ",".join(c.strip() for c in value)


def _type_error(option: Option, expected: str, value: object) -> TypeError:
    return TypeError(f"{option.snake} takes {expected}, got {type(value).__name__} {value!r}")


def _enum_value(option: Option, value: str) -> str:
    values = _literal_values(option.type) or ()
    for v in values:
        if v.lower() == value.strip().lower():
            return v
    hint = nearest(value.strip(), values)
    name = option.snake if option.snake == option.jvm else f"{option.snake} ({option.jvm})"
    raise ValueError(
        f"{name} takes one of {', '.join(values)}, got {value!r}"
        + (f"; did you mean {hint}?" if hint else "")
    )


def text_value(option: Option, value: object) -> str:
    """A typed keyword value as the text the JVM takes; TypeError or ValueError when it does not fit."""
    k = kind(option)
    if k == "boolean":
        if not isinstance(value, bool):
            raise _type_error(option, "True or False", value)
        return "true" if value else "false"
    if k == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise _type_error(option, "an int", value)
        return str(value)
    if k == "enum":
        if not isinstance(value, str):
            raise _type_error(option, "a string", value)
        return _enum_value(option, value)
    if k == "timestamp":
        if isinstance(value, dt.datetime):
            if value.tzinfo is not None:
                raise ValueError(
                    f"{option.snake} takes a naive datetime (a wall-clock time in the session time zone), "
                    f"got {value!r}"
                )
            return value.isoformat()
        if not isinstance(value, str):
            raise _type_error(option, "a datetime or a string like 2024-01-31T12:00:00", value)
        return value
    if k == "schema":
        if not isinstance(value, (str, Mapping, StructType)):
            raise _type_error(option, "a DDL string, a {column: type} mapping or a StructType", value)
        return provided_schema_ddl(value)
    if k == "duration":
        if isinstance(value, dt.timedelta):
            return duration_text(value)
        if not isinstance(value, str):
            raise _type_error(option, "a timedelta or a string like 30s, 5m, 1h", value)
        return value  # the JVM parses duration text and names the option when it does not
    if k == "size":
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise _type_error(option, "a number of bytes or a string like 10g, 512m", value)
        if isinstance(value, int) and value < 0:
            raise ValueError(f"{option.snake} takes a number of bytes, got {value}")
        return str(value)
    if k == "columns":
        return _columns_text(option, value)
    if not isinstance(value, str):
        raise _type_error(option, "a string", value)
    return value


def parse_text(option: Option, text: str) -> object:
    """Option text (`-o key=value`, `options={...}`) as the keyword's typed value; ValueError if it does
    not parse."""
    k = kind(option)
    if k == "boolean":
        lowered = text.strip().lower()
        if lowered not in ("true", "false"):
            raise ValueError(f"{option.jvm} takes true or false, got {text!r}")
        return lowered == "true"
    if k == "int":
        try:
            return int(text.strip())
        except ValueError:
            raise ValueError(f"{option.jvm} takes an integer, got {text!r}") from None
    if k == "enum":
        return _enum_value(option, text)
    return text


def jvm_options(
    given: Mapping[str, object],
    column_formats: Mapping[str, str] | None = None,
    options: Mapping[str, str] | None = None,
    read: ReadKind = "batch",
) -> dict[str, str]:
    """The reader options to send: `given` keyword values by snake_case name (None: not sent), per-column
    formats, then the `options` mapping. A key of `options` that names one of the table's options is checked
    and converted here (a streaming option on a batch read fails here, naming it, before Spark sees it);
    Hadoop settings and keys this table does not know pass as given: a format plugin's own options, or a
    misspelling, which the JVM's option table judges when the read is planned, naming the nearest option."""
    out: dict[str, str] = {}
    for name, value in given.items():
        if value is not None:
            out[BY_SNAKE[name].jvm] = text_value(BY_SNAKE[name], value)
    for column, pattern in (column_formats or {}).items():
        if not isinstance(pattern, str):
            raise TypeError(f"column_formats[{column!r}] takes a pattern string, got {pattern!r}")
        out[COLUMN_FORMAT_PREFIX + column] = pattern
    for key, text in (options or {}).items():
        if not isinstance(text, str):
            raise TypeError(f"options[{key!r}] takes a string, got {type(text).__name__} {text!r}")
        if is_hadoop_key(key):
            out[key] = text
            continue
        if key.lower().startswith(COLUMN_FORMAT_PREFIX) and len(key) > len(COLUMN_FORMAT_PREFIX):
            out[COLUMN_FORMAT_PREFIX + key[len(COLUMN_FORMAT_PREFIX) :]] = text
            continue
        option = lookup(key)
        if option is None:
            # The JVM knows every registered format's options; Python knows spark-drill's own.
            out[key] = text
            continue
        if not takes(read, option):
            raise TypeError("option " + scope_error(option, repr(key)))
        if option.jvm in out:
            raise TypeError(f"option {option.jvm} is given twice (key {key!r} of options names it too)")
        out[option.jvm] = text_value(option, parse_text(option, text))
    return out


F = TypeVar("F", bound=Callable[..., Any])


def check_keywords(table: type) -> Callable[[F], F]:
    """Makes an unknown keyword a TypeError that names the nearest valid one (`infer_typs` -> `infer_types`,
    also for JVM spellings and Spark's aliases: `inferSchema` -> `infer_types`). The valid keywords are the
    function's own and the keys of `table` (a TypedDict of options, which its `**keywords` take)."""

    def decorate(function: F) -> F:
        own = [
            name
            for name, p in inspect.signature(function).parameters.items()
            if name not in ("spark", "path") and p.kind is not inspect.Parameter.VAR_KEYWORD
        ]
        allowed = list(get_type_hints(table)) + own
        allowed_set = frozenset(allowed)

        @functools.wraps(function)
        def checked(*args: Any, **kwargs: Any) -> Any:
            for name in kwargs:
                if name not in allowed_set and name not in ("spark", "path"):
                    option = lookup(name)
                    unexpected = f"{function.__name__}() got an unexpected keyword argument {name!r}"
                    if option is not None and option.snake not in allowed_set and option.scope != "both":
                        # An option of the other kind of read: say so rather than suggest a look-alike.
                        raise TypeError(f"{unexpected}: {scope_error(option, name)}")
                    hint = option.snake if option is not None and option.snake in allowed_set else None
                    hint = hint or nearest(name, allowed)
                    raise TypeError(unexpected + (f"; did you mean {hint}?" if hint else ""))
            return function(*args, **kwargs)

        return cast(F, checked)

    return decorate
