"""ScanError under Spark Connect: built from the error classes and message parameters the server sends.

The client turns a failed call into an exception with `convert_exception(info, message, resp, ...)` (PySpark
4; 3.5's takes `info, message`). `info` (a gRPC ErrorInfo) names the class of the top exception only; `resp`,
the error details the client fetches (`spark.sql.connect.enrichError.enabled`, on by default), holds every
exception of the cause chain, each SparkThrowable with its class and parameters. A bad record fails a task,
so spark-drill's error is a cause of Spark's "Job aborted": it is found in `resp`, not in `info`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from spark_drill._errors import ScanError, is_scan_condition


def scan_error_of_details(info: Any, message: str, resp: Any) -> ScanError | None:
    """The first spark-drill error in the server's error details (root first, down the causes), else in the
    ErrorInfo's own class and parameters; None when neither has one."""
    for error in _chain(resp):
        throwable = error.spark_throwable if error.HasField("spark_throwable") else None
        if (
            throwable is not None
            and throwable.HasField("error_class")
            and is_scan_condition(throwable.error_class)
        ):
            return ScanError.from_parameters(
                throwable.error_class, dict(throwable.message_parameters), error.message
            )
    metadata = getattr(info, "metadata", None) or {}
    condition = metadata.get("errorClass")
    if is_scan_condition(condition):
        raw = metadata.get("messageParameters")
        return ScanError.from_parameters(condition, json.loads(raw) if raw else {}, message)
    return None


def _chain(resp: Any) -> list[Any]:
    if resp is None or not getattr(resp, "errors", None):
        return []
    errors = list(resp.errors)
    index = resp.root_error_idx if resp.HasField("root_error_idx") else 0
    chain: list[Any] = []
    while index is not None and 0 <= index < len(errors) and len(chain) < len(errors):
        error = errors[index]
        chain.append(error)
        index = error.cause_idx if error.HasField("cause_idx") else None
    return chain


def _converting(convert: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(convert)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        converted = convert(*args, **kwargs)
        info = args[0] if args else kwargs.get("info")
        message = args[1] if len(args) > 1 else kwargs.get("truncated_message", kwargs.get("message", ""))
        resp = args[2] if len(args) > 2 else kwargs.get("resp")
        try:
            scan_error = scan_error_of_details(info, str(message), resp)
        except Exception:  # details of a shape this client does not know: Spark's own exception stands
            return converted
        if scan_error is None:
            return converted
        return scan_error

    wrapper.__spark_drill__ = True  # type: ignore[attr-defined]
    return wrapper


def install_connect_error_conversion() -> None:
    """Makes the Spark Connect client raise ScanError for spark-drill's errors (once per process)."""
    from pyspark.sql.connect.client import core as imported

    core: Any = imported  # convert_exception is the module's import, not one of its exports
    current = core.convert_exception
    if not getattr(current, "__spark_drill__", False):
        core.convert_exception = _converting(current)
