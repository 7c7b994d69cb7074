"""Sessions with the spark-drill jar on the classpath and the `drill` catalog configured."""

from __future__ import annotations

from typing import Any

from pyspark.sql import SparkSession

from spark_drill._errors import install_error_conversion
from spark_drill._jar import extra_jar_paths, jar_path

FORMAT = "drill"
CATALOG_CLASS = "sparkdrill.spark.DrillCatalog"
SOURCE_CLASS = "sparkdrill.spark.DrillSource"


def _append_jar(existing: str | None, jar: str) -> str:
    jars = [j for j in (existing or "").split(",") if j.strip()]
    if jar not in jars:
        jars.append(jar)
    return ",".join(jars)


def _running_session() -> SparkSession | None:
    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    from pyspark import SparkContext

    if SparkContext._active_spark_context is not None:
        return SparkSession.builder.getOrCreate()
    return None


def is_connect(spark: object) -> bool:
    """Whether `spark` is a Spark Connect session (no JVM in this process, no Py4J)."""
    return type(spark).__module__.startswith("pyspark.sql.connect.")


def ensure_loaded(spark: SparkSession) -> None:
    """Raises RuntimeError when `spark` was started without the spark-drill jar: the jar must be on the
    classpath before the JVM starts, and setting `spark.jars` later is silently ignored."""
    if is_connect(spark):
        raise RuntimeError(
            "this needs a classic SparkSession (Py4J to the driver's JVM); this is a Spark Connect session"
        )
    jvm = spark.sparkContext._jvm
    if jvm is None:
        raise RuntimeError("spark-drill needs a classic Spark session with a JVM (not Spark Connect)")
    loader = jvm.org.apache.spark.util.Utils.getContextOrSparkClassLoader()
    try:
        jvm.java.lang.Class.forName(SOURCE_CLASS, False, loader)
    except Exception as e:
        raise RuntimeError(
            "this Spark session was started without the spark-drill jar, and a jar cannot be added to a "
            "running JVM: stop it (spark.stop()) and build the session with "
            "spark_drill.configure(SparkSession.builder).getOrCreate() or spark_drill.session()"
        ) from e


def configure(builder: SparkSession.Builder) -> SparkSession.Builder:
    """Adds the spark-drill jar (appended to any `spark.jars` already set) and the `drill` catalog to a
    builder. If a session is already running, it is checked instead: it must have been started with the
    jar."""
    running = _running_session()
    if running is not None and not is_connect(running):
        ensure_loaded(running)
    options: dict[str, Any] = getattr(builder, "_options", {})
    if "spark.remote" in options:
        # A Connect client: its errors become ScanError too, for spark.read.format("drill") as for sd.read.
        from spark_drill._connect_errors import install_connect_error_conversion

        install_connect_error_conversion()
    jars = _append_jar(options.get("spark.jars"), jar_path())
    # The excel format's jar (its own, with POI shaded inside) joins by default, found like the core's.
    for extra in extra_jar_paths():
        jars = _append_jar(jars, extra)
    builder = builder.config("spark.jars", jars)
    if "spark.sql.catalog.drill" not in options:
        builder = builder.config("spark.sql.catalog.drill", CATALOG_CLASS)
    return builder


def session(
    master: str = "local[*]", app_name: str = "spark-drill", *, server: bool = False, **conf: str
) -> SparkSession:
    """A SparkSession (local[*] unless told otherwise) ready to read with `format("drill")` and to query
    `drill.`path`` in SQL. Keyword arguments are Spark settings:
    `session(**{"spark.ui.enabled": "false"})`.

    With `server=True`, a Spark Connect session on the user's local server (`spark-drill serve`), started
    first when none runs: it answers at once when the server is warm. `master` does not apply there, and the
    settings must be ones a running session takes (spark.sql.*); Python column parsers need a classic
    session."""
    return _server_session(conf) if server else classic_session(master, app_name, conf)


def classic_session(master: str, app_name: str, conf: dict[str, str]) -> SparkSession:
    """`session()` in this process, with `conf` as a dict (a setting may have any name)."""
    builder = SparkSession.builder.master(master).appName(app_name)
    for key, value in conf.items():
        builder = builder.config(key, value)
    spark = configure(builder).getOrCreate()
    ensure_loaded(spark)
    install_error_conversion()
    return spark


def _server_session(conf: dict[str, str]) -> SparkSession:
    from spark_drill import _serve_client, _serve_control

    info, _ = _serve_control.start()
    spark = _serve_client.connect(info)
    for key, value in conf.items():
        spark.conf.set(key, value)
    return spark
