"""Spark engines: the built-in CSV and JSON readers (several configurations) and spark-drill.

Each runs in its own process with one local[2] session. Q1-Q4 and Q6 read one DataFrame built (and its
files listed) once, untimed; Q5 builds a fresh one each run. Spark's readers keep no schema from one load to
the next; spark-drill does (its discovery cache), so its Q5 turns the cache off, as a first load() finds it,
and its Q5c and Q5c-dir time the re-load the cache serves (issue 30).
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from bench.discovery import Found
from bench.engines.base import Engine, NotApplicable, Unavailable
from bench.queries import DIR0_REGEX
from bench.schema import (
    DISTINCT_COLUMN,
    FILTER_COLUMN,
    FILTER_VALUE,
    LENGTH_COLUMN,
    SUM_COLUMN,
    columns,
    ddl,
)
from bench.truth import Answer

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame, DataFrameReader, SparkSession

SPARK_CONF = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "4",
    "spark.sql.session.timeZone": "UTC",
    "spark.driver.memory": os.environ.get("BENCH_DRIVER_MEMORY", "4g"),
}
DRILL_CATALOG = "sparkdrill.spark.DrillCatalog"
DRILL_SOURCE = "sparkdrill.spark.DrillSource"
DRILL_TABLE = "sparkdrill.spark.DrillTable"
PARTITION_COLUMN = re.compile(r"dir\d+")


class Shared:
    """With `jvm` set (the runner's --shared-jvm), every Spark engine of the process gets its own
    session (`newSession()`) of one SparkContext, started with the spark-drill jar when there is one."""

    jvm = False


class SparkEngine(Engine):
    family = "spark"
    source = "csv"  # the format name given to spark.read.format
    options: ClassVar[dict[str, str]] = {}  # reader options
    explicit_schema = False  # read with .schema(DDL of the canonical columns)
    discovery_options: ClassVar[dict[str, str]] = {}  # Q5: options (the schema is never given)

    spark: SparkSession
    df: DataFrame

    # ------------------------------------------------------------------------------------------ session
    def configure(self, builder: SparkSession.Builder) -> SparkSession.Builder:
        return builder

    def start(self) -> None:
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.master("local[2]")
        builder = builder.appName("bench-shared" if Shared.jvm else f"bench-{self.name}")
        for k, v in SPARK_CONF.items():
            builder = builder.config(k, v)
        if Shared.jvm and SparkSession.getActiveSession() is None:
            with contextlib.suppress(Unavailable):
                builder = add_drill(builder, self.settings)
        spark = self.configure(builder).getOrCreate()
        spark.sparkContext.setLogLevel("ERROR")
        self.spark = spark.newSession() if Shared.jvm else spark

    def stop(self) -> None:
        if not Shared.jvm:
            self.spark.stop()

    # ------------------------------------------------------------------------------------------ reading
    def reader(self, options: dict[str, str], schema: bool) -> DataFrameReader:
        r = self.spark.read.format(self.source).options(**options)
        return r.schema(ddl(self.fmt)) if schema else r

    def prepare(self) -> None:
        self.df = self.reader(self.options, self.explicit_schema).load(str(self.root))

    def dir0(self) -> Column:
        from pyspark.sql import functions as F

        return F.regexp_extract(F.col("_metadata.file_path"), DIR0_REGEX, 1)

    def filename(self) -> Column:
        from pyspark.sql import functions as F

        return F.col("_metadata.file_name")

    def _col(self, name: str) -> str | None:
        """The DataFrame's spelling of a column, or None when it has none."""
        return next((c for c in self.df.columns if c.lower() == name.lower()), None)

    def _type(self, name: str) -> str:
        return str(self.df.schema[name].dataType.simpleString())

    def _numeric(self, name: str) -> Column:
        """The column as a number: itself when typed, else try_cast of its text to double."""
        from pyspark.sql import functions as F

        if self._type(name) in ("int", "bigint", "double", "smallint", "tinyint", "float"):
            return F.col(f"`{name}`")
        return F.expr(f"try_cast(`{name}` AS DOUBLE)")

    def _present(self, name: str) -> Column:
        """1 when the column has a value (blank text counts as no value), else null: count() counts them."""
        from pyspark.sql import functions as F

        c = F.col(f"`{name}`")
        return F.nullif(c, F.lit("")) if self._type(name) == "string" else c

    # ------------------------------------------------------------------------------------------ queries
    def q1(self) -> Answer:
        return {"rows": self.df.count()}

    def _narrow(self, key: str, column: str, aggregate: Callable[[Column], Column]) -> Answer:
        """sum(SUM_COLUMN) and an aggregate of `column` (Q2, Q2d): {"sum": ..., key: ...}."""
        from pyspark.sql import functions as F

        s, c = self._col(SUM_COLUMN), self._col(column)
        if s is None or c is None:
            return {"sum": None, key: None}
        row = self.df.agg(F.sum(self._numeric(s)), aggregate(F.col(f"`{c}`"))).first()
        assert row is not None
        return {"sum": row[0], key: row[1]}

    def q2(self) -> Answer:
        from pyspark.sql import functions as F

        return self._narrow("length", LENGTH_COLUMN, lambda c: F.sum(F.length(c)))

    def q2d(self) -> Answer:
        from pyspark.sql import functions as F

        return self._narrow("distinct", DISTINCT_COLUMN, F.countDistinct)

    def q3(self) -> Answer | None:
        self.df.write.format("noop").mode("overwrite").save()
        return None

    def _filtered(self) -> DataFrame:
        """The records Q6 keeps. On a typed column the predicate is a plain comparison, a data filter Spark
        pushes to the reader; on text (every column a string) it compares the text's value."""
        name = self._col(FILTER_COLUMN)
        if name is None:
            raise ValueError(f"no column {FILTER_COLUMN}")
        return self.df.filter(self._numeric(name) == FILTER_VALUE)

    def q6(self) -> Answer | None:
        self._filtered().write.format("noop").mode("overwrite").save()
        return None

    def check_answer(self, query: str) -> Answer:
        """The row count, non-null counts and numeric sums of what Q3 or Q6 wrote."""
        from pyspark.sql import functions as F

        df = self._filtered() if query == "Q6" else self.df
        cols = [(c, self._col(c.name)) for c in columns(self.fmt)]
        present = [(c, name) for c, name in cols if name is not None]
        exprs = [F.count(F.lit(1))]
        exprs += [F.count(self._present(name)) for _, name in present]
        numeric = [(c, name) for c, name in present if c.numeric]
        exprs += [F.sum(self._numeric(name)) for _, name in numeric]
        row = df.agg(*exprs).first()
        assert row is not None
        n = len(present)
        non_null = {c.name: row[1 + i] for i, (c, _) in enumerate(present)}
        sums = {c.name: row[1 + n + i] for i, (c, _) in enumerate(numeric)}
        return {"rows": row[0], "non_null": non_null, "sums": sums}

    def q4(self) -> Answer:
        rows = self.df.groupBy(self.dir0().alias("d"), self.filename().alias("f")).count().collect()
        return {"groups": {f"{r['d']}/{r['f']}": r["count"] for r in rows}}

    def q5(self) -> Answer:
        if self.explicit_schema and not self.discovery_options:
            raise NotApplicable("schema given")
        return self._columns(self.reader(self.discovery_options, False).load(str(self.root)))

    def _columns(self, df: DataFrame) -> Answer:
        """Q5's answer: the data columns of a freshly loaded DataFrame, and their types."""
        fields = [f for f in df.schema.fields if not PARTITION_COLUMN.fullmatch(f.name)]
        return {
            "columns": sorted(f.name for f in fields),
            "types": {f.name: f.dataType.simpleString() for f in fields},
        }


# ---------------------------------------------------------------------------------------------- built-in
HEADER = {"header": "true"}
RECURSIVE = {"recursiveFileLookup": "true"}


class SparkCsvDefault(SparkEngine):
    name = "spark-csv-default"
    description = "header, explicit schema, no recursiveFileLookup (Q5: header only)"
    options: ClassVar[dict[str, str]] = HEADER
    explicit_schema = True
    discovery_options: ClassVar[dict[str, str]] = HEADER


class SparkCsvInfer(SparkEngine):
    name = "spark-csv-infer"
    description = "header, inferSchema, recursiveFileLookup"
    options: ClassVar[dict[str, str]] = {**HEADER, **RECURSIVE, "inferSchema": "true"}
    discovery_options = options


class SparkCsvSchema(SparkEngine):
    name = "spark-csv-schema"
    description = "header, explicit schema, recursiveFileLookup"
    options: ClassVar[dict[str, str]] = {**HEADER, **RECURSIVE}
    explicit_schema = True


class SparkCsvAligned(SparkEngine):
    name = "spark-csv-aligned"
    data = "csv_aligned"
    description = "aligned copy; header, explicit schema, recursiveFileLookup"
    options: ClassVar[dict[str, str]] = {**HEADER, **RECURSIVE}
    explicit_schema = True


class SparkCsvAlignedInfer(SparkEngine):
    name = "spark-csv-aligned-infer"
    data = "csv_aligned"
    description = "aligned copy; header, inferSchema, recursiveFileLookup"
    options: ClassVar[dict[str, str]] = {**HEADER, **RECURSIVE, "inferSchema": "true"}
    discovery_options = options


class SparkJsonDefault(SparkEngine):
    name = "spark-json-default"
    fmt = data = source = "json"
    description = "explicit schema, no recursiveFileLookup (Q5: inferred)"
    explicit_schema = True
    discovery_options: ClassVar[dict[str, str]] = {"samplingRatio": "1.0"}


class SparkJsonInfer(SparkEngine):
    """Its Q5 (inference over every record) is what spark-drill-json's discovery is compared with."""

    name = "spark-json-infer"
    fmt = data = source = "json"
    description = "inferred schema (samplingRatio 1.0), recursiveFileLookup"
    options: ClassVar[dict[str, str]] = {**RECURSIVE, "samplingRatio": "1.0"}
    discovery_options = options


class SparkJsonSchema(SparkEngine):
    name = "spark-json-schema"
    fmt = data = source = "json"
    description = "explicit schema, recursiveFileLookup"
    options: ClassVar[dict[str, str]] = RECURSIVE
    explicit_schema = True


# ---------------------------------------------------------------------------------------------- spark-drill
def found(df: DataFrame) -> Found:
    """How the spark-drill load() behind `df` found its files' schemas: the DiscoveryStats of the table it
    planned (`TableScan.discoveryStats`), reached over Py4J through the DataFrame's relation and its
    DrillTable. Not the in-memory cache's hit counter (`InMemorySchemaCache.session.stats`): that one is the
    JVM's, which every session of a shared JVM adds to, it sees no schemaCache hit, and a load with
    sessionSchemaCache=false never asks it; these counts are this one load's, every source included."""
    try:
        stats = _drill_table(df).scan().discoveryStats()
        return Found(
            files=int(stats.files()),
            memory=int(stats.fromMemory()),
            directory=int(stats.fromDirectory()),
            discovered=int(stats.discovered()),
        )
    except Exception as e:
        text = str(e).strip().splitlines()
        raise RuntimeError(
            f"cannot tell how spark-drill found the schemas (its DiscoveryStats): {text[0] if text else e!r}"
        ) from e


def _drill_table(df: DataFrame) -> Any:
    """The DrillTable of the DataSourceV2Relation in the DataFrame's analyzed plan (a load()'s root)."""
    stack = [df._jdf.queryExecution().analyzed()]
    while stack:
        node = stack.pop()
        if node.getClass().getSimpleName() == "DataSourceV2Relation":
            table = node.table()
            if table.getClass().getName() != DRILL_TABLE:
                raise LookupError(f"the relation's table is a {table.getClass().getName()}")
            return table
        children = node.children()
        stack.extend(children.apply(i) for i in range(children.size()))
    raise LookupError("no DataSourceV2Relation in the plan")


def drill_jar(settings: dict[str, Any]) -> str | None:
    jar = settings.get("jar") or os.environ.get("SPARK_DRILL_JAR")
    return str(jar) if jar else None


def add_drill(builder: SparkSession.Builder, settings: dict[str, Any]) -> SparkSession.Builder:
    """The builder with the spark-drill jar and catalog: the jar given (--jar, $SPARK_DRILL_JAR), else the
    one spark_drill ships; raises Unavailable when there is neither."""
    jar = drill_jar(settings)
    if jar is not None:
        if not os.path.isfile(jar):
            raise Unavailable(f"no jar at {jar}")
        return builder.config("spark.jars", jar).config("spark.sql.catalog.drill", DRILL_CATALOG)
    try:
        import spark_drill  # type: ignore[import-not-found,unused-ignore]
    except ImportError as e:
        raise Unavailable("spark_drill is not importable and no --jar / SPARK_DRILL_JAR given") from e
    configured: SparkSession.Builder = spark_drill.configure(builder)
    return configured


# The options of spark-drill's discovery cache (docs/options.md, Discovery cache).
SESSION_CACHE = "sessionSchemaCache"
CACHE_DIR = "schemaCache"


class Drill(SparkEngine):
    family = "spark-drill"
    source = "drill"
    schema_cache = True

    _last: DataFrame | None = None  # the DataFrame the last discovery query loaded
    _cache_dir: tempfile.TemporaryDirectory[str] | None = None  # Q5c-dir's schemaCache

    def configure(self, builder: SparkSession.Builder) -> SparkSession.Builder:
        return add_drill(builder, self.settings)

    def stop(self) -> None:
        if self._cache_dir is not None:
            self._cache_dir.cleanup()
            self._cache_dir = None
        super().stop()

    # ------------------------------------------------------------------------------------------ discovery
    def discovery(self, query: str) -> dict[str, str]:
        """The options each discovery query loads with. Q5: both caches off, as a user's first load() finds
        them (the cache's in-memory default would serve every run after the warm-up); Q5c: the session's
        cache, which setup() filled; Q5c-dir: a schemaCache directory alone, which setup() filled."""
        options = {k: v for k, v in self.discovery_options.items() if k not in (SESSION_CACHE, CACHE_DIR)}
        if query == "Q5":
            return {**options, SESSION_CACHE: "false"}
        if query == "Q5c":
            return {**options, SESSION_CACHE: "true"}
        if query == "Q5c-dir":
            if self._cache_dir is None:
                raise RuntimeError("Q5c-dir before its setup")
            return {**options, SESSION_CACHE: "false", CACHE_DIR: self._cache_dir.name}
        raise ValueError(f"{query} is no discovery query")

    def setup(self, query: str) -> None:
        """Q5c and Q5c-dir time a re-load: one untimed load first fills the cache it reads (for Q5c-dir, a new
        schemaCache directory outside the data tree), so that every run, the first timed one too, re-loads."""
        if query == "Q5c-dir":
            if self._cache_dir is not None:
                self._cache_dir.cleanup()
            self._cache_dir = tempfile.TemporaryDirectory(prefix="bench-schema-cache-")
        if query in ("Q5c", "Q5c-dir"):
            self.reader(self.discovery(query), False).load(str(self.root))

    def _load(self, query: str) -> Answer:
        self._last = self.reader(self.discovery(query), False).load(str(self.root))
        return self._columns(self._last)

    def q5(self) -> Answer:
        return self._load("Q5")

    def q5c(self) -> Answer:
        return self._load("Q5c")

    def q5c_dir(self) -> Answer:
        return self._load("Q5c-dir")

    def last_discovery(self) -> Found | None:
        df, self._last = self._last, None
        return None if df is None else found(df)

    def start(self) -> None:
        super().start()
        jvm = self.spark.sparkContext._jvm
        assert jvm is not None
        loader = jvm.org.apache.spark.util.Utils.getContextOrSparkClassLoader()
        try:
            jvm.java.lang.Class.forName(DRILL_SOURCE, False, loader)
        except Exception as e:
            self.stop()
            raise Unavailable(f"{DRILL_SOURCE} not on the classpath") from e

    def dir0(self) -> Column:
        from pyspark.sql import functions as F

        return F.col("dir0")

    def filename(self) -> Column:
        from pyspark.sql import functions as F

        return F.col("filename")


class DrillCsv(Drill):
    name = "spark-drill-csv"
    description = "header, providedSchema (DDL of all columns)"
    options: ClassVar[dict[str, str]] = {**HEADER, "providedSchema": ddl("csv")}
    discovery_options = options


class DrillCsvInfer(Drill):
    name = "spark-drill-csv-infer"
    description = "header, inferTypes (types from a sample of each file)"
    options: ClassVar[dict[str, str]] = {**HEADER, "inferTypes": "true"}
    discovery_options = options


class DrillCsvText(Drill):
    name = "spark-drill-csv-text"
    description = "header only: every column a string"
    options: ClassVar[dict[str, str]] = HEADER
    discovery_options = options


class DrillJson(Drill):
    name = "spark-drill-json"
    fmt = data = "json"
    description = "default options (types from the data)"


class DrillJsonSchema(Drill):
    name = "spark-drill-json-schema"
    fmt = data = "json"
    description = "providedSchema (DDL of all columns)"
    options: ClassVar[dict[str, str]] = {"providedSchema": ddl("json")}
    discovery_options = options
