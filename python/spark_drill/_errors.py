"""The error a bad input (or a bad option) raises, built from the error class and the message parameters the
JVM's exception carries (docs/errors.md), never by reading its message: a value with a quote or a parenthesis
comes through as it was."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

# spark-drill's conditions all start so; the stream's own (sd.run_stream matches them) are not scan errors.
_PREFIX = "SPARK_DRILL_"
_STREAM_PREFIX = "SPARK_DRILL_STREAM_"
# How far down a cause chain to look (Spark wraps a task's error in a few layers).
_MAX_CAUSES = 20


def is_scan_condition(condition: object) -> TypeGuard[str]:
    """Whether `condition` is one of the classes a ScanError stands for."""
    return (
        isinstance(condition, str)
        and condition.startswith(_PREFIX)
        and not condition.startswith(_STREAM_PREFIX)
    )


@dataclass
class ScanError(Exception):
    """A scan failed on bad input or a bad option: `condition` is the JVM's error class
    (SPARK_DRILL_MALFORMED_RECORD, SPARK_DRILL_UNCONVERTIBLE_VALUE, SPARK_DRILL_UNKNOWN_OPTION, ...; the list
    is in docs/errors.md); the other fields name the file, line, byte offset, column, value (as read, up to
    4,096 characters) and the option, and are None where the error does not have them. `option` is the
    option that changes the outcome (a record's error) or the option at fault (an option's error)."""

    message: str
    reason: str | None = None
    file: str | None = None
    line: int | None = None
    offset: int | None = None
    column: str | None = None
    value: str | None = None
    option: str | None = None
    condition: str | None = None
    parameters: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.message

    @property
    def error_class(self) -> str | None:
        """The condition under the name Spark 3.5 gives it."""
        return self.condition

    @classmethod
    def from_parameters(cls, condition: str, parameters: Mapping[str, str], message: str) -> ScanError:
        """The error of class `condition` with its message parameters; `message` is the JVM's, whose leading
        `[CONDITION] ` is dropped (the condition is a field of its own)."""
        lead = f"[{condition}] "
        text = message[len(lead) :] if message.startswith(lead) else message
        return cls(
            message=text.strip(),
            reason=parameters.get("reason"),
            file=parameters.get("file"),
            line=_number(parameters.get("line")),
            offset=_number(parameters.get("offset")),
            column=parameters.get("column"),
            value=parameters.get("value"),
            option=parameters.get("option"),
            condition=condition,
            parameters=dict(parameters),
        )

    @classmethod
    def from_java(cls, error: Any) -> ScanError | None:
        """From a Py4J Java exception: the first spark-drill SparkThrowable in its cause chain, or None."""
        for cause in _java_causes(error):
            condition = _java_condition(cause)
            if is_scan_condition(condition):
                parameters = {str(k): str(v) for k, v in dict(cause.getMessageParameters()).items()}
                return cls.from_parameters(condition, parameters, str(cause.getMessage()))
        return None


@dataclass(frozen=True)
class DrillErrorInfo:
    """Any spark-drill error (a scan's or a stream's): its class, its message parameters and the JVM's message
    without the leading `[CLASS] ` tag."""

    condition: str
    parameters: dict[str, str]
    message: str


def drill_error_of(error: BaseException, condition: str | None = None) -> DrillErrorInfo | None:
    """The first spark-drill error (of class `condition`, when given) behind `error`, read from the classes
    and parameters Spark carries: the Python exception's own (PySpark 4, classic or Connect, for the failed
    call's top exception), then each Java cause of a classic session. None when neither has one; the
    message text is never parsed."""

    def wanted(found: object) -> bool:
        ok = isinstance(found, str) and found.startswith(_PREFIX)
        return ok and (condition is None or found == condition)

    if isinstance(error, ScanError) and wanted(error.condition):
        assert error.condition is not None
        return DrillErrorInfo(error.condition, dict(error.parameters), error.message)
    own = _python_condition(error)
    if wanted(own):
        assert own is not None
        parameters = _python_parameters(error)
        return DrillErrorInfo(own, parameters, _untagged(own, _python_message(error)))
    java = getattr(error, "java_exception", None) or getattr(error, "_origin", None)
    for cause in _java_causes(java):
        found = _java_condition(cause)
        if wanted(found):
            assert found is not None
            return DrillErrorInfo(found, _java_parameters(cause), _untagged(found, str(cause.getMessage())))
    return None


def _java_parameters(error: Any) -> dict[str, str]:
    # A class that leaves SparkThrowable's default getMessageParameters (the stream engine's own, until it
    # calls the factory) is one Py4J finds no such method on: no parameters, as it has none.
    try:
        found = error.getMessageParameters()
    except Exception:
        return {}
    return {str(k): str(v) for k, v in dict(found).items()}


def _python_condition(error: BaseException) -> str | None:
    # PySpark 4 names it getCondition (getErrorClass is deprecated there, with a warning); 3.5 getErrorClass.
    name = "getCondition" if hasattr(error, "getCondition") else "getErrorClass"
    method = getattr(error, name, None)
    if not callable(method):
        return None
    try:
        value = method()
    except Exception:  # an error class PySpark's own table does not know
        return None
    return value if isinstance(value, str) else None


def _python_parameters(error: BaseException) -> dict[str, str]:
    method = getattr(error, "getMessageParameters", None)
    try:
        found = method() if callable(method) else None
    except Exception:
        found = None
    return {str(k): str(v) for k, v in dict(found or {}).items()}


def _python_message(error: BaseException) -> str:
    method = getattr(error, "getMessage", None)
    try:
        text = method() if callable(method) else None
    except Exception:
        text = None
    return str(text) if text else str(error)


def _untagged(condition: str, message: str) -> str:
    lead = f"[{condition}] "
    at = message.find(lead)
    return (message[at + len(lead) :] if at >= 0 else message).strip()


def _number(text: str | None) -> int | None:
    return int(text) if text is not None else None


def _java_causes(error: Any) -> Iterator[Any]:
    for _ in range(_MAX_CAUSES):
        if error is None:
            return
        yield error
        try:
            error = error.getCause()
        except Exception:  # not a Java object after all
            return


def _java_condition(error: Any) -> str | None:
    # Spark 4 names it getCondition (getErrorClass is deprecated there); 3.5 has getErrorClass only. A Java
    # exception that is no SparkThrowable has neither: Py4J raises.
    for name in ("getCondition", "getErrorClass"):
        try:
            value = getattr(error, name)()
        except Exception:
            continue
        return value if isinstance(value, str) else None
    return None


def scan_error_of(error: BaseException) -> ScanError | None:
    """The ScanError behind an exception of a classic session (Py4J's, or PySpark's captured one), if any."""
    if isinstance(error, ScanError):
        return error
    java = getattr(error, "java_exception", None)  # py4j.protocol.Py4JJavaError
    if java is None:
        java = getattr(error, "_origin", None)  # PySpark's CapturedException keeps the Java exception there
    return ScanError.from_java(java) if java is not None else None


def _converting(call: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(call)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return call(*args, **kwargs)
        except ScanError:
            raise
        except Exception as e:
            scan_error = scan_error_of(e)
            if scan_error is None:
                raise
            raise scan_error from e

    wrapper.__spark_drill__ = True  # type: ignore[attr-defined]
    return wrapper


def install_error_conversion(spark: object | None = None) -> None:
    """Makes calls that fail on bad input raise ScanError: over Py4J in a classic session (chained to Spark's
    own exception), or in the Spark Connect client when `spark` is a Connect session.

    PySpark wraps py4j's result handling to turn Java exceptions into Python ones; this wraps that once more.
    It is installed by `session()`, `read()` and `describe()`. PySpark installs its own again with every
    SparkSession object it builds, wrapping py4j.protocol's function anew; so py4j.protocol's is wrapped too,
    and PySpark's next handler wraps spark-drill's (which raises ScanError, an exception PySpark passes on).
    """
    if spark is not None and type(spark).__module__.startswith("pyspark.sql.connect."):
        from spark_drill._connect_errors import install_connect_error_conversion

        install_connect_error_conversion()
        return
    from py4j import java_gateway, protocol

    for module in (java_gateway, protocol):
        current = module.get_return_value
        if not getattr(current, "__spark_drill__", False):
            module.get_return_value = _converting(current)
