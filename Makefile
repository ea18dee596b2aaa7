# SPDX-License-Identifier: Apache-2.0
# The one entry point. `make test` and `make bench` do everything on a fresh Debian 12 machine,
# installing what is missing first.
#
#   make build   the C++ core, the CLI (build/bin/simdbridge), the core's tests, the JVM library
#                (jvm/simdbridge/target) and its benchmarks (jvm/jmh/target/benchmarks.jar), the
#                Spark data source (jvm/spark/target), and the Python package installed into .venv
#   make dist    what users install, into dist/: the Python sdist and self-contained wheel, the jar
#   make test    build, then every test: C++ and Python (both also under ASan and UBSan), JVM,
#                Spark (local[2])
#   make bench   build, then the benchmark suites into results/ (FULL=1 for the full run)
#   make data    fetch the corpus into $(SIMDBRIDGE_DATA) from its public sources
#   make fuzz    the libFuzzer targets (clang, ASan, UBSan), FUZZ_SECONDS each (default 180),
#                two at a time -> results/fuzz.json; not part of make test, which replays
#                their seeds and every past finding
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

SIMDBRIDGE_DATA ?= $(abspath ../shared/data)
export SIMDBRIDGE_DATA
# The JVM front end builds and runs on Java 25 (the machine's default java is 17).
JAVA_HOME := /usr/lib/jvm/temurin-25-jdk-amd64
export JAVA_HOME
export MAVEN_OPTS := --sun-misc-unsafe-memory-access=allow
MVN := mvn -B -q -Dstyle.color=never
JOBS ?= $(shell nproc)
FULL ?=

VENV := .venv
PYTHON := $(VENV)/bin/python
BUILD := build
SANITIZE_BUILD := build/sanitize
PY_SANITIZE_BUILD := build/python-sanitize
FUZZ_BUILD := build/fuzz
CMAKE_FLAGS := -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIMDBRIDGE_BUILD_CLI=ON -DSIMDBRIDGE_BUILD_TESTS=ON \
	-DSIMDBRIDGE_BUILD_BENCH=ON

DIST := dist

.PHONY: build test bench data dist deps venv test-package test-docs test-core test-sanitize test-jvm test-spark test-python test-python-sanitize fuzz clean

deps:
	@tools/install_deps.sh core jvm python
	@test -x $(JAVA_HOME)/bin/java || { echo "make: Java 25 is needed at $(JAVA_HOME)"; exit 1; }

# The project's Python environment: the benchmark's tools and peers, then the package itself.
$(VENV)/.installed: bench/requirements.txt | deps
	@echo "== .venv: installing pinned Python packages"
	@python3 -m venv $(VENV)
	@$(PYTHON) -m pip install -q --upgrade pip==25.3
	@$(PYTHON) -m pip install -q -r bench/requirements.txt
	@touch $@

venv: $(VENV)/.installed

# The Python package (and its test tools, the [test] extra), rebuilt when a source changes.
PYTHON_SOURCES := $(shell find python/src python/ext core/src core/include core/cmake -type f) pyproject.toml \
	python/CMakeLists.txt core/CMakeLists.txt core/VERSION
$(VENV)/.simdbridge: $(PYTHON_SOURCES) $(VENV)/.installed
	@echo "== build: Python package into .venv (scikit-build-core)"
	@$(PYTHON) -m pip install -q ".[test]"
	@touch $@

build: deps $(VENV)/.simdbridge
	@echo "== build: C++ core, CLI and the JVM's native library"
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DSIMDBRIDGE_BUILD_JNI=ON > /dev/null
	@cmake --build $(BUILD) -j $(JOBS)
	@echo "== build: JVM library, benchmarks and Spark data source (Maven, Java 25)"
	@# The parent (jvm/pom.xml) builds the library, the benchmarks and the Spark data source, and
	@# installs them into the local Maven repository, where users' projects find them.
	@$(MVN) -f jvm/pom.xml install -DskipTests

test: build test-core test-sanitize test-jvm test-spark test-python test-python-sanitize test-docs test-package
	@echo "== all tests passed"

test-core: build
	@echo "== test: C++ core (GoogleTest under ctest)"
	@cd $(BUILD) && ctest -j $(JOBS) --output-on-failure --timeout 600

test-sanitize: deps
	@echo "== test: C++ core under AddressSanitizer and UndefinedBehaviorSanitizer"
	@# Not the JNI library: an instrumented .so does not load into an uninstrumented JVM.
	@cmake -S . -B $(SANITIZE_BUILD) $(CMAKE_FLAGS) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DSIMDBRIDGE_SANITIZE=ON -DSIMDBRIDGE_BUILD_JNI=OFF > /dev/null
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	@cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest -j $(JOBS) --output-on-failure --timeout 1200

test-jvm: build
	@echo "== test: JVM library (JUnit, -Xcheck:jni)"
	@$(MVN) -f jvm/pom.xml -pl simdbridge test
	@echo "== test: JVM engines, feed and pipelines"
	@$(MVN) -f jvm/pom.xml -pl jmh test

test-spark: build
	@echo "== test: Spark data source against Spark's JSON source (local[2])"
	@$(MVN) -f jvm/pom.xml -pl spark test

test-python: build
	@echo "== test: Python package (pytest)"
	@$(PYTHON) -m pytest -q -p no:cacheprovider python/tests
	@echo "== test: Python package under PYTHONMALLOC=debug (the suites that feed it hostile input)"
	@PYTHONMALLOC=debug $(PYTHON) -m pytest -q -p no:cacheprovider python/tests/test_hostile.py \
		python/tests/test_limits.py python/tests/test_robustness.py python/tests/test_views.py \
		python/tests/test_streams.py python/tests/test_dumps.py python/tests/test_dumpb.py

# The same tests over the extension built with ASan and UBSan (the tests that measure the
# process's memory skip themselves: the sanitizer's quarantine holds what is freed).
test-python-sanitize: build
	@echo "== test: Python package under AddressSanitizer and UndefinedBehaviorSanitizer"
	@cmake -S python -B $(PY_SANITIZE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
		-DPython_EXECUTABLE=$(abspath $(PYTHON)) > /dev/null
	@cmake --build $(PY_SANITIZE_BUILD) -j $(JOBS)
	@rm -rf $(PY_SANITIZE_BUILD)/pkg && mkdir -p $(PY_SANITIZE_BUILD)/pkg
	@cp -r python/src/simdbridge $(PY_SANITIZE_BUILD)/pkg/ && cp $(PY_SANITIZE_BUILD)/_core.*.so $(PY_SANITIZE_BUILD)/pkg/simdbridge/
	@SIMDBRIDGE_SANITIZED=1 ASAN_OPTIONS=detect_leaks=0 PYTHONPATH=$(abspath $(PY_SANITIZE_BUILD))/pkg \
		LD_PRELOAD="$$(g++ -print-file-name=libasan.so) $$(g++ -print-file-name=libubsan.so)" \
		$(PYTHON) -m pytest -q -p no:cacheprovider python/tests

# The examples of README.md, CONTRIBUTING.md and docs/, run as a user would type them
# (tools/check_examples.py says how each language is run).
test-docs: build
	@echo "== test: the examples of README.md and docs/"
	@$(PYTHON) tools/check_examples.py .

# What a user installs, built as it is shipped, into dist/: the Python sdist, the wheel built
# from it with simdjson bundled (auditwheel repair: a manylinux tag, no system library needed),
# and the jar that carries its native library.
$(VENV)/.dist-tools: tools/requirements-dist.txt $(VENV)/.installed
	@$(PYTHON) -m pip install -q -r tools/requirements-dist.txt
	@touch $@

dist: build $(VENV)/.dist-tools
	@echo "== dist: Python sdist, then a wheel from the sdist, repaired by auditwheel"
	@rm -rf $(DIST) && mkdir -p $(DIST)/raw
	@$(PYTHON) -m build -o $(DIST)/raw . > $(DIST)/build.log 2>&1 || { cat $(DIST)/build.log; exit 1; }
	@PATH="$(abspath $(VENV))/bin:$$PATH" $(VENV)/bin/auditwheel repair -w $(DIST) $(DIST)/raw/*.whl \
		>> $(DIST)/build.log 2>&1 || { cat $(DIST)/build.log; exit 1; }
	@mv $(DIST)/raw/*.tar.gz $(DIST)/ && rm -rf $(DIST)/raw $(DIST)/build.log
	@cp jvm/simdbridge/target/simdbridge-*.jar $(DIST)/
	@ls -1 $(DIST) | sed 's/^/   /'

# Each artifact used from outside the repository, as a user would: the wheel in a new virtual
# environment; mypy over the package's types; the jar from a Maven project that names it by its
# coordinates, on the class path, the module path, in a single-file launch and in jshell. (The
# CMake package has its own test in ctest: cmake_package.)
test-package: dist
	@echo "== test: the wheel, installed outside the repository"
	@$(PYTHON) python/tests/package/check_wheel.py $(DIST)
	@echo "== test: the package's types (mypy --strict)"
	@$(VENV)/bin/mypy --strict --no-incremental python/src/simdbridge python/tests/package/typed_usage.py
	@echo "== test: the jar, used from a Maven project outside the repository"
	@jvm/consumer/run.sh "$(abspath $(DIST))"

bench: build venv
	@$(PYTHON) bench/run.py $(if $(FULL),--full,)

data:
	@python3 tools/fetch_data.py "$(SIMDBRIDGE_DATA)"

fuzz:
	@tools/install_deps.sh core fuzz
	@echo "== build: fuzz targets (clang 14, libFuzzer, ASan, UBSan)"
	@CC=clang-14 CXX=clang++-14 cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DSIMDBRIDGE_FUZZ=ON -DSIMDBRIDGE_SANITIZE=ON \
		-DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link" > /dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@python3 core/fuzz/run_fuzzers.py $(FUZZ_BUILD) "$(SIMDBRIDGE_DATA)" results

clean:
	rm -rf $(BUILD) $(VENV) $(DIST) jvm/simdbridge/target jvm/jmh/target jvm/spark/target
