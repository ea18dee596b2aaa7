# SPDX-License-Identifier: Apache-2.0
# The one entry point. `make test` and `make bench` do everything on a fresh Debian 12 machine,
# installing what is missing first.
#
#   make build   the C++ core, the CLI (build/bin/simdbridge) and the core's tests
#   make test    build, then every test: C++ (also under ASan and UBSan)
#   make bench   build, then the benchmark suites into results/ (FULL=1 for the full run)
#   make data    fetch the corpus into $(SIMDBRIDGE_DATA) from its public sources
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

SIMDBRIDGE_DATA ?= $(abspath ../shared/data)
export SIMDBRIDGE_DATA
JOBS ?= $(shell nproc)
FULL ?=

VENV := .venv
PYTHON := $(VENV)/bin/python
BUILD := build
SANITIZE_VENV := .venv
PYTHON := $(VENV)/bin/python
BUILD := build/sanitize
CMAKE_FLAGS := -G Ninja -DCMAKE_BUILD_TYPE=Release -DSIMDBRIDGE_BUILD_CLI=ON -DSIMDBRIDGE_BUILD_TESTS=ON

.PHONY: build test bench data deps venv test-core test-sanitize clean

deps:
	@tools/install_deps.sh core python

# The project's Python environment: benchmark tools now, the Python package and its tests later.
$(VENV)/.installed: bench/requirements.txt | deps
	@echo "== .venv: installing pinned Python packages"
	@python3 -m venv $(VENV)
	@$(PYTHON) -m pip install -q --upgrade pip==25.3
	@$(PYTHON) -m pip install -q -r bench/requirements.txt
	@touch $@

venv: $(VENV)/.installed

build: deps
	@echo "== build: C++ core and CLI"
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(BUILD) -j $(JOBS)

test: build test-core test-sanitize
	@echo "== all tests passed"

test-core: build
	@echo "== test: C++ core (GoogleTest under ctest)"
	@cd $(BUILD) && ctest -j $(JOBS) --output-on-failure --timeout 600

test-sanitize: deps
	@echo "== test: C++ core under AddressSanitizer and UndefinedBehaviorSanitizer"
	@cmake -S . -B $(SANITIZE_BUILD) $(CMAKE_FLAGS) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSIMDBRIDGE_SANITIZE=ON > /dev/null
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	@cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest -j $(JOBS) --output-on-failure --timeout 1200

bench: build venv
	@$(PYTHON) bench/run.py $(if $(FULL),--full,)

data:
	@python3 tools/fetch_data.py "$(SIMDBRIDGE_DATA)"

clean:
	rm -rf $(BUILD) $(VENV)
