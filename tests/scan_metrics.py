"""Reads spark-drill's scan metrics from an executed plan."""

from __future__ import annotations

from typing import Any

from pyspark.sql import DataFrame


def _nodes(plan: Any) -> list[Any]:
    found, stack = [], [plan]
    while stack:
        node = stack.pop()
        found.append(node)
        children = node.children()
        stack.extend(children.apply(i) for i in range(children.size()))
        if node.nodeName() == "WholeStageCodegen":
            stack.append(node.child())
        if node.nodeName() == "AdaptiveSparkPlan":
            stack.append(node.executedPlan())
    return found


def scan_metrics(df: DataFrame) -> dict[str, int]:
    """The BatchScan node's metrics after the DataFrame was collected."""
    plan = df._jdf.queryExecution().executedPlan()
    for node in _nodes(plan):
        if node.nodeName().startswith("BatchScan"):
            metrics = node.metrics()
            keys = metrics.keys().toList()
            return {str(keys.apply(i)): int(metrics.apply(keys.apply(i)).value()) for i in range(keys.size())}
    raise AssertionError("no BatchScan in the plan")


def scan_description(df: DataFrame) -> str:
    plan = df._jdf.queryExecution().executedPlan()
    for node in _nodes(plan):
        if node.nodeName().startswith("BatchScan"):
            return str(node.simpleString(1000))
    raise AssertionError("no BatchScan in the plan")
