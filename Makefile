# spark-drill: `make demo` and `make test` set up everything they need on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SBT := dev/sbt
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
JAR := target/scala-2.13/spark-drill_2.13-$(VERSION).jar
WHEEL := dist/spark_drill-$(VERSION)-py3-none-any.whl
JVM_SOURCES := $(shell find jvm/src/main -type f) build.sbt $(wildcard project/*.scala project/*.sbt) project/build.properties
PY_SOURCES := $(shell find python/spark_drill -name '*.py' -o -name py.typed -o -name '*.properties') pyproject.toml README.md
DEV_DEPS = $(shell $(PYTHON) -c "import tomllib;print(' '.join(repr(d) for d in tomllib.load(open('pyproject.toml','rb'))['project']['optional-dependencies']['dev']))")

.PHONY: demo test test-s3 jar wheel install venv scala-test py-test lint fmt clean bench bench-small bench-loader fuzz

# A typed read of the sample tree (its columns, their types and where each comes from), then a SQL aggregate.
demo: install
	$(VENV)/bin/spark-drill schema samples/logs -o header=true -o inferTypes=true
	$(VENV)/bin/spark-drill sql -o header=true -o inferTypes=true "SELECT dir0, count(*) AS events, sum(duration_ms) AS total_ms FROM drill.\`samples/logs\` GROUP BY dir0 ORDER BY dir0"

# Doctests run from the installed wheel, as the tests do (python/spark_drill would clash with it on import).
PYTEST = SPARK_DRILL_WHEEL=$(abspath $(WHEEL)) $(VENV)/bin/pytest tests --doctest-modules \
	"$$($(PY) -c 'import os, spark_drill; print(os.path.dirname(spark_drill.__file__))')"

test: install
	$(SBT) scalafmtCheckAll scalafmtSbtCheck loaderBench/scalafmtCheckAll loaderBench/compile test
	$(VENV)/bin/ruff check python tests conftest.py
	$(VENV)/bin/ruff format --check python tests conftest.py
	$(VENV)/bin/mypy
	$(PYTEST)

# S3A for real: tests/s3 against moto_server on 127.0.0.1, in a pytest run of its own (`make test` leaves
# tests/s3 out: its Spark session needs the S3A jars on the classpath from the start). dev/s3-jars fetches
# them once (~690 MB, in ${SPARK_DRILL_CACHE:-~/.cache/spark-drill}/s3-jars) and prints their classpath.
test-s3: install
	jars="$$(dev/s3-jars)" && SPARK_DRILL_S3_JARS="$$jars" $(VENV)/bin/pytest tests/s3

jar: $(JAR)

$(JAR): $(JVM_SOURCES)
	$(SBT) package
	@touch $@

venv: $(VENV)/.deps

$(VENV)/.deps: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q $(DEV_DEPS)
	@touch $@

wheel: $(WHEEL)

# The jar goes inside the wheel (package data); it is gitignored, so it is copied in just before the build.
$(WHEEL): $(JAR) $(PY_SOURCES) $(VENV)/.deps
	rm -f python/spark_drill/jars/*.jar
	cp $(JAR) python/spark_drill/jars/
	rm -rf build dist/*.whl
	$(VENV)/bin/pip wheel -q --no-deps --no-build-isolation -w dist .
	rm -rf build

install: $(VENV)/.installed

$(VENV)/.installed: $(WHEEL)
	$(VENV)/bin/pip install -q --force-reinstall --no-deps $(WHEEL)
	@touch $@

scala-test:
	$(SBT) test

py-test: install
	$(PYTEST)

# Property-based fuzzing of the CSV and JSON readers through the real scan (jvm/src/test/scala/sparkdrill/fuzz).
# `make test` runs each property on a few dozen to a few hundred examples from a fixed seed; `make fuzz` runs only
# the fuzz suites, FUZZ_EXAMPLES examples per property from a random seed. A failure prints its seed and file;
# `make fuzz FUZZ_SEED=<seed>` replays it. The test JVM is forked, so settings travel as environment variables.
FUZZ_EXAMPLES ?= 5000
FUZZ_SEED ?= random
FUZZ_TIMEOUT_SECONDS ?= 20

fuzz:
	SPARK_DRILL_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) SPARK_DRILL_FUZZ_SEED=$(FUZZ_SEED) \
		SPARK_DRILL_FUZZ_TIMEOUT_SECONDS=$(FUZZ_TIMEOUT_SECONDS) $(SBT) "testOnly sparkdrill.fuzz.*"

fmt: $(VENV)/.deps
	$(SBT) scalafmtAll scalafmtSbt loaderBench/scalafmtAll
	$(VENV)/bin/ruff format python tests conftest.py
	$(VENV)/bin/ruff check --fix python tests conftest.py

# --- benchmark (bench/): `make bench` 1 GiB per format; `make bench-small` a few MB in under 3 minutes.
BENCH_DATA ?= bench/data
BENCH_ARGS ?=
BENCH_SOURCES := bench/gen.py bench/schema.py bench/truth.py

.PHONY: bench-deps bench-data bench-test

bench-deps: $(VENV)/.bench-deps

$(VENV)/.bench-deps: bench/requirements.txt $(VENV)/.deps
	$(VENV)/bin/pip install -q -r bench/requirements.txt
	@touch $@

$(BENCH_DATA)/full/truth.json: $(BENCH_SOURCES) | $(VENV)/.bench-deps
	$(PY) -m bench.gen --out $(BENCH_DATA)/full

$(BENCH_DATA)/small/truth.json: $(BENCH_SOURCES) | $(VENV)/.bench-deps
	$(PY) -m bench.gen --small --out $(BENCH_DATA)/small

bench-data: $(BENCH_DATA)/full/truth.json

bench: $(JAR) $(VENV)/.bench-deps $(BENCH_DATA)/full/truth.json
	$(PY) -m bench.run --data $(BENCH_DATA)/full --jar $(abspath $(JAR)) --label full $(BENCH_ARGS)
	$(PY) -m bench.plot bench/results/full.json docs/performance.png

bench-small: $(JAR) $(VENV)/.bench-deps $(BENCH_DATA)/small/truth.json
	$(PY) -m bench.run --data $(BENCH_DATA)/small --jar $(abspath $(JAR)) --label small \
		--shared-jvm --runs 1 --warmup 1 $(BENCH_ARGS)

# The loader's in-process micro-benchmark (docs/performance.md): loader vs a direct OffHeapColumnVector write.
LOADER_BENCH_PAIRS ?= 10
LOADER_BENCH_WARMUP ?= 6
LOADER_BENCH_FORKS ?= 8

bench-loader:
	$(SBT) "loaderBench/runMain sparkdrill.loader.bench.LoaderBench $(LOADER_BENCH_PAIRS) $(LOADER_BENCH_WARMUP) $(LOADER_BENCH_FORKS)"

bench-test: $(VENV)/.bench-deps
	$(VENV)/bin/pytest bench/tests
	$(VENV)/bin/ruff check bench
	$(VENV)/bin/ruff format --check bench
	$(VENV)/bin/mypy --strict bench

clean:
	rm -rf target project/target dist build $(VENV) python/spark_drill/jars/*.jar
