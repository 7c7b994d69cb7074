"""The error a bad input raises, with the fields the JVM's message names."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

_PATTERN = re.compile(
    r"spark-drill: (?P<reason>[^\n]*?): file (?P<file>[^\n]+?)"
    r"(?:, line (?P<line>\d+))?(?:, byte offset (?P<offset>\d+))?"
    r"(?:, column '(?P<column>[^']*)')?(?:, value '(?P<value>.*?)')?(?: \((?P<option>[^)]*)\))?(?:\n|$)"
)


@dataclass
class ScanError(Exception):
    """A scan failed on bad input: names the file, line, byte offset, column, value and the option that
    changes the outcome (the fields are None where the error does not have them)."""

    message: str
    reason: str | None = None
    file: str | None = None
    line: int | None = None
    offset: int | None = None
    column: str | None = None
    value: str | None = None
    option: str | None = None

    def __str__(self) -> str:
        return self.message

    @classmethod
    def from_message(cls, message: str) -> ScanError | None:
        """Parses the first spark-drill error in a (JVM) message, or None when there is none."""
        m = _PATTERN.search(message)
        if m is None:
            return None
        g = m.groupdict()
        return cls(
            message=m.group(0).strip(),
            reason=g["reason"],
            file=g["file"],
            line=int(g["line"]) if g["line"] else None,
            offset=int(g["offset"]) if g["offset"] else None,
            column=g["column"],
            value=g["value"],
            option=g["option"],
        )


def _converting(call: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(call)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, **kwargs)
        except ScanError:
            raise
        except Exception as e:
            scan_error = ScanError.from_message(str(e))
            if scan_error is None:
                raise
            raise scan_error from e

    wrapper.__spark_drill__ = True  # type: ignore[attr-defined]
    return wrapper


def install_error_conversion() -> None:
    """Makes JVM calls that fail on bad input raise ScanError (chained to Spark's own exception).

    PySpark wraps py4j's result handling to turn Java exceptions into Python ones; this wraps that once more.
    It is installed by `session()`, `read()` and `describe()`. PySpark installs its own again with every
    SparkSession object it builds, wrapping py4j.protocol's function anew; so py4j.protocol's is wrapped too,
    and PySpark's next handler wraps spark-drill's (which raises ScanError, an exception PySpark passes on).
    """
    from py4j import java_gateway, protocol

    for module in (java_gateway, protocol):
        current = module.get_return_value
        if not getattr(current, "__spark_drill__", False):
            module.get_return_value = _converting(current)
