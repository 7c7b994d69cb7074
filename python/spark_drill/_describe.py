"""`describe`: what each file says about each column."""

from __future__ import annotations

from pyspark.sql import DataFrame, SparkSession

from spark_drill._errors import install_error_conversion
from spark_drill._reader import OptionValue, option_map


def describe(spark: SparkSession, path: str, **options: OptionValue) -> DataFrame:
    """One row per file and column: the type found there, the table's type, whether it was seen in a header
    or a sample, which file first brought the column, and any conflict."""
    install_error_conversion()
    jvm = spark.sparkContext._jvm
    if jvm is None:
        raise RuntimeError("describe needs a classic Spark session with a JVM (not Spark Connect)")
    conf = jvm.java.util.HashMap()
    for key, value in {**option_map(options), "path": path}.items():
        conf.put(key, value)
    jdf = jvm.sparkdrill.spark.Describe.describe(spark._jsparkSession, conf)
    return DataFrame(jdf, spark)
