"""spark-drill: Apache Drill's schema-on-read scan framework as a Spark data source (Spark 4.x and 3.5).

import spark_drill as sd
spark = sd.session()
df = sd.read(spark, "data/logs", header=True)
stream = sd.read_stream(spark, "landing/logs", header=True, schema_location="chk/logs/_schemas")
"""

from spark_drill._describe import describe
from spark_drill._errors import ScanError, install_error_conversion
from spark_drill._jar import jar_path, jar_paths
from spark_drill._parsers import (
    ColumnParser,
    FileInfo,
    ParsedColumn,
    clear_column_parsers,
    register_column_parser,
)
from spark_drill._read_stream import read_stream
from spark_drill._reader import read
from spark_drill._run_stream import SchemaChange, run_stream
from spark_drill._session import CATALOG_CLASS, FORMAT, configure, ensure_loaded, session

__version__ = "0.1.0"

__all__ = [
    "CATALOG_CLASS",
    "FORMAT",
    "ColumnParser",
    "FileInfo",
    "ParsedColumn",
    "ScanError",
    "SchemaChange",
    "__version__",
    "clear_column_parsers",
    "configure",
    "describe",
    "ensure_loaded",
    "install_error_conversion",
    "jar_path",
    "jar_paths",
    "read",
    "read_stream",
    "register_column_parser",
    "run_stream",
    "session",
]
