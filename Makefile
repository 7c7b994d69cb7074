# spark-drill: `make demo` and `make test` set up everything they need on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SBT := dev/sbt
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
# One jar per Spark line (README, "Spark versions"), each built by sbt into target/<line>/
# (project/Versions.scala). The wheel carries all three; the package picks the one for the Spark a session
# starts (python/spark_drill/_jar.py).
SBT_35 := $(SBT) -Dspark.version=3.5.0
SBT_35_213 := $(SBT) -Dspark.version=3.5.0 -Dscala.binary=2.13
line_jar = target/$(1)/spark-drill-$(1)-$(VERSION).jar
JAR := $(call line_jar,spark4_2.13)
JAR_35 := $(call line_jar,spark3.5_2.12)
JAR_35_213 := $(call line_jar,spark3.5_2.13)
# The excel format's jar per line (`format=excel`, a module of its own with Apache POI shaded inside): the wheel
# carries them beside the core's and sd.session() puts the line's on the classpath (python/spark_drill/_jar.py).
excel_jar = jvm/excel/target/assembly/$(1)/spark-drill-excel-$(1)-$(VERSION).jar
EXCEL_JAR := $(call excel_jar,spark4_2.13)
EXCEL_JAR_35 := $(call excel_jar,spark3.5_2.12)
EXCEL_JAR_35_213 := $(call excel_jar,spark3.5_2.13)
JARS := $(JAR) $(JAR_35) $(JAR_35_213) $(EXCEL_JAR) $(EXCEL_JAR_35) $(EXCEL_JAR_35_213)
EXCEL_SOURCES := $(shell find jvm/excel/src/main -type f)
# The example format's jar (examples/fixedwidth, a format plugin in a jar of its own): tests/test_plugins.py
# adds it to a session with spark.jars, so the targets that run pytest build it for their Spark line.
example_jar = examples/fixedwidth/target/$(1)/spark-drill-example-fixedwidth-$(1)-$(VERSION).jar
EXAMPLE_JAR := $(call example_jar,spark4_2.13)
EXAMPLE_JAR_35 := $(call example_jar,spark3.5_2.12)
EXAMPLE_SOURCES := $(shell find examples/fixedwidth/src/main -type f)
WHEEL := dist/spark_drill-$(VERSION)-py3-none-any.whl
# `make test-fast`'s wheel: the Spark 4 jar only, so a change does not rebuild the other lines' jars.
FAST_WHEEL := dist/fast/spark_drill-$(VERSION)-py3-none-any.whl
JVM_SOURCES := $(shell find jvm/src/main -type f) build.sbt $(wildcard project/*.scala project/*.sbt) project/build.properties
PY_SOURCES := $(shell find python/spark_drill -name '*.py' -o -name py.typed -o -name '*.properties') pyproject.toml README.md
DEV_DEPS = $(shell $(PYTHON) -c "import tomllib;print(' '.join(repr(d) for d in tomllib.load(open('pyproject.toml','rb'))['project']['optional-dependencies']['dev']))")

.PHONY: demo test test-fast test-compat test-compat-4x test-compat-3.5 test-compat-3.5-2.13 test-s3 test-scalar-scan jar wheel \
	install venv scala-test py-test lint fmt clean bench bench-small bench-loader bench-variant fuzz

# A typed read of the sample tree (its columns, their types and where each comes from), then a SQL aggregate.
demo: install
	$(VENV)/bin/spark-drill schema samples/logs -o header=true -o inferTypes=true
	$(VENV)/bin/spark-drill sql -o header=true -o inferTypes=true "SELECT dir0, count(*) AS events, sum(duration_ms) AS total_ms FROM drill.\`samples/logs\` GROUP BY dir0 ORDER BY dir0"

# pytest in the virtualenv $(1), against the spark_drill installed there: its doctests run from that copy, as
# the tests do (python/spark_drill would clash with it on import). With a wheel $(2), SPARK_DRILL_WHEEL names it
# for tests/test_packaging.py.
# --durations: the slowest tests, for the day `make test` must shed time (its target is 20 minutes).
# PYTEST_WORKERS pytest processes (pytest-xdist), each with a Spark session of its own, share the test files
# out (a file's tests stay in one process: its fixtures are built once): most tests wait on Spark's
# scheduling, a stream's trigger or a JVM's start, so two use this machine's two cores better than one.
# PYTEST_WORKERS=0 runs them in this process, one at a time; $(3), when given, is the count for that call:
# PySpark 3.5 runs its tests one at a time (there its standalone-cluster stream test lost a task to something
# other than the stream's stop while another file's tests shared the machine; one at a time it passes).
PYTEST_WORKERS ?= 2
pytest_in = $(if $(2),SPARK_DRILL_WHEEL=$(abspath $(2)) )$(1)/bin/pytest tests --doctest-modules --durations=25 \
	-n $(if $(3),$(3),$(PYTEST_WORKERS)) --dist loadfile \
	"$$($(1)/bin/python -c 'import os, spark_drill; print(os.path.dirname(spark_drill.__file__))')"
PYTEST = $(call pytest_in,$(VENV),$(WHEEL))

# Everything on Spark 4: formatting, every ScalaTest suite, ruff, mypy, and every pytest on PySpark 4.3.
test: install $(EXAMPLE_JAR)
	$(SBT) scalafmtCheckAll scalafmtSbtCheck loaderBench/scalafmtCheckAll loaderBench/compile test
	$(VENV)/bin/ruff check python tests conftest.py
	$(VENV)/bin/ruff format --check python tests conftest.py
	$(VENV)/bin/mypy
	$(PYTEST)

# The quick loop while changing code (target: under 4 minutes): the ScalaTest suites not tagged
# sparkdrill.tags.Slow, and pytest without the tests marked slow, cluster or connect (pyproject.toml), against
# a wheel with the Spark 4 jar only. `make test` still runs everything.
test-fast: $(VENV)/.installed-fast $(EXAMPLE_JAR)
	$(SBT) "testOnly -- -l sparkdrill.tags.Slow"
	$(call pytest_in,$(VENV)) -m "not slow and not cluster and not connect"

# The reader suites (every format's conformance and differential suites, the reader layer's, and the fuzz
# suites, slow ones too) once more with count(*)'s Vector API search forced off (issue 41): the word-at-a-time
# search that Spark 3.5, or a JVM without the module, runs. `make test` runs them with it on.
test-scalar-scan: $(EXAMPLE_JAR)
	SPARK_DRILL_VECTOR=off $(SBT) "testOnly sparkdrill.formats.* sparkdrill.reader.* sparkdrill.fuzz.*"

# Every other Spark a user runs (README, "Spark versions"). Each PySpark has a virtualenv of its own, cached in
# ${SPARK_DRILL_CACHE:-~/.cache/spark-drill}/venvs (dev/compat-venv), with this wheel installed; each part
# prints its wall time. PySpark 4.0, 4.1 and 4.2: the smoke subset (pytest -m compat) with the Spark 4 jar.
# Spark 3.5 on Scala 2.12: every ScalaTest suite, then every pytest on PySpark 3.5 with its jar (its Connect
# test fetches the Connect server from Maven Central: spark-connect_2.12 is not published for every 3.5.x, the
# newest there when this was written being 3.5.7). Spark 3.5 on Scala 2.13: compiled, and the ScalaTest suites
# not tagged Slow (the slow ones run on Spark 3.5 with Scala 2.12 and on Scala 2.13 with Spark 4 already, and
# CI's budget is 60 minutes).
COMPAT_4X ?= 4.0.5 4.1.4 4.2.1
COMPAT_35 ?= 3.5.9
COMPAT_35_CONNECT ?= org.apache.spark:spark-connect_2.12:3.5.7
# What sbt runs for Spark 3.5 on Scala 2.13; `COMPAT_35_213_TESTS=test` runs every suite.
COMPAT_35_213_TESTS ?= "testOnly -- -l sparkdrill.tags.Slow"

test-compat: test-compat-4x test-compat-3.5 test-compat-3.5-2.13

test-compat-4x: $(WHEEL)
	@failed=""; for v in $(COMPAT_4X); do \
	  start=$$SECONDS; echo "== test-compat: PySpark $$v, the Spark 4 jar, pytest -m compat"; \
	  venv=$$(PYTHON=$(PYTHON) dev/compat-venv $$v $(abspath $(WHEEL))) && \
	    SPARK_DRILL_WHEEL=$(abspath $(WHEEL)) $$venv/bin/pytest tests -m compat || failed="$$failed $$v"; \
	  echo "== test-compat: PySpark $$v took $$((SECONDS - start)) s"; \
	done; [ -z "$$failed" ] || { echo "== test-compat: failed on PySpark$$failed"; exit 1; }

test-compat-3.5: $(WHEEL) $(EXAMPLE_JAR_35)
	@echo "== test-compat: Spark 3.5, Scala 2.12: ScalaTest"; start=$$SECONDS; $(SBT_35) test; status=$$?; \
	  echo "== test-compat: Spark 3.5, Scala 2.12 ScalaTest took $$((SECONDS - start)) s"; exit $$status
	@echo "== test-compat: PySpark $(COMPAT_35), the Spark 3.5 jar, every pytest"; start=$$SECONDS; \
	  venv=$$(PYTHON=$(PYTHON) dev/compat-venv $(COMPAT_35) $(abspath $(WHEEL))) && \
	    SPARK_DRILL_CONNECT_PACKAGES=$(COMPAT_35_CONNECT) $(call pytest_in,$$venv,$(WHEEL),0); status=$$?; \
	  echo "== test-compat: PySpark $(COMPAT_35) took $$((SECONDS - start)) s"; exit $$status

test-compat-3.5-2.13:
	@echo "== test-compat: Spark 3.5, Scala 2.13: ScalaTest"; start=$$SECONDS; \
	  $(SBT_35_213) $(COMPAT_35_213_TESTS); status=$$?; \
	  echo "== test-compat: Spark 3.5, Scala 2.13 ScalaTest took $$((SECONDS - start)) s"; exit $$status

# S3A for real: tests/s3 against moto_server on 127.0.0.1, in a pytest run of its own (`make test` leaves
# tests/s3 out: its Spark session needs the S3A jars on the classpath from the start). dev/s3-jars fetches
# them once (~690 MB, in ${SPARK_DRILL_CACHE:-~/.cache/spark-drill}/s3-jars) and prints their classpath.
test-s3: install
	jars="$$(dev/s3-jars)" && SPARK_DRILL_S3_JARS="$$jars" $(VENV)/bin/pytest tests/s3

jar: $(JARS)

# sbt leaves a jar untouched when nothing in it changed; the touch keeps make from building it again (and
# `test -s` first: a jar sbt did not write under this name must fail here, not become an empty file).
$(JAR): $(JVM_SOURCES)
	$(SBT) package
	@test -s $@ && touch $@

$(JAR_35): $(JVM_SOURCES)
	$(SBT_35) package
	@test -s $@ && touch $@

$(JAR_35_213): $(JVM_SOURCES)
	$(SBT_35_213) package
	@test -s $@ && touch $@

$(EXCEL_JAR): $(JVM_SOURCES) $(EXCEL_SOURCES)
	$(SBT) excel/assembly
	@test -s $@ && touch $@

$(EXCEL_JAR_35): $(JVM_SOURCES) $(EXCEL_SOURCES)
	$(SBT_35) excel/assembly
	@test -s $@ && touch $@

$(EXCEL_JAR_35_213): $(JVM_SOURCES) $(EXCEL_SOURCES)
	$(SBT_35_213) excel/assembly
	@test -s $@ && touch $@

$(EXAMPLE_JAR): $(JVM_SOURCES) $(EXAMPLE_SOURCES)
	$(SBT) fixedwidth/package
	@test -s $@ && touch $@

$(EXAMPLE_JAR_35): $(JVM_SOURCES) $(EXAMPLE_SOURCES)
	$(SBT_35) fixedwidth/package
	@test -s $@ && touch $@

venv: $(VENV)/.deps

$(VENV)/.deps: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q $(DEV_DEPS)
	@touch $@

wheel: $(WHEEL)

# A wheel with the jars $(1) inside (package data; they are gitignored, so they are copied in just before the
# build), written to the directory $(2).
define build_wheel
	rm -f python/spark_drill/jars/*.jar
	cp $(1) python/spark_drill/jars/
	rm -rf build $(2)/*.whl
	$(VENV)/bin/pip wheel -q --no-deps --no-build-isolation -w $(2) .
	rm -rf build
endef

$(WHEEL): $(JARS) $(PY_SOURCES) $(VENV)/.deps
	$(call build_wheel,$(JARS),dist)

$(FAST_WHEEL): $(JAR) $(EXCEL_JAR) $(PY_SOURCES) $(VENV)/.deps
	$(call build_wheel,$(JAR) $(EXCEL_JAR),dist/fast)

install: $(VENV)/.installed

# .venv holds the full wheel (make install, make test) or test-fast's: installing one drops the other's mark,
# so the next target that needs the other installs it again.
$(VENV)/.installed: $(WHEEL)
	rm -f $(VENV)/.installed-fast
	$(VENV)/bin/pip install -q --force-reinstall --no-deps $(WHEEL)
	@touch $@

$(VENV)/.installed-fast: $(FAST_WHEEL)
	rm -f $(VENV)/.installed
	$(VENV)/bin/pip install -q --force-reinstall --no-deps $(FAST_WHEEL)
	@touch $@

scala-test:
	$(SBT) test

py-test: install $(EXAMPLE_JAR)
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

# VARIANT (issue 42): singleVariantColumn against Spark's own JSON reader, and a member as VARIANT against as
# a string, in one local[2] session (bench/variant.py; docs/performance.md, "VARIANT").
bench-variant: $(JAR) $(VENV)/.bench-deps $(BENCH_DATA)/full/truth.json
	$(PY) -m bench.variant --data $(BENCH_DATA)/full --jar $(abspath $(JAR)) --out bench/results/issue42-variant.md

# The loader's in-process micro-benchmark (docs/performance.md): loader vs a direct OffHeapColumnVector write.
LOADER_BENCH_PAIRS ?= 10
LOADER_BENCH_WARMUP ?= 6
LOADER_BENCH_FORKS ?= 8

bench-loader:
	$(SBT) "loaderBench/runMain sparkdrill.loader.bench.LoaderBench $(LOADER_BENCH_PAIRS) $(LOADER_BENCH_WARMUP) $(LOADER_BENCH_FORKS)"

# The bench's own tests, the two that start Spark included (they check that a timed discovery is not served by
# a cache: issue 30); CI runs them.
bench-test: $(VENV)/.bench-deps $(JAR)
	BENCH_SPARK_TESTS=1 SPARK_DRILL_JAR=$(abspath $(JAR)) $(VENV)/bin/pytest bench/tests
	$(VENV)/bin/ruff check bench
	$(VENV)/bin/ruff format --check bench
	$(VENV)/bin/mypy --strict bench

clean:
	rm -rf target project/target examples/fixedwidth/target jvm/excel/target dist build $(VENV) python/spark_drill/jars/*.jar
