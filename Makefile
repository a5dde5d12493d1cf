# Two commands set everything up on a fresh machine:
#   make run   - create .venv, install cardtable, start the web table
#   make test  - create .venv with the dev extras, run every test
PYTHON ?= python3
# Python may write its bytecode (and pytest its rewritten tests) where the machine's
# environment says not to: every xdist worker, the second run and each server a test
# starts then read the compiled modules instead of compiling them again (about 0.35 s of
# CPU a server start, 18 s a worker's collection).
unexport PYTHONDONTWRITEBYTECODE
VENV   ?= .venv
BIN     = $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test lint page-check bench strength demo clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The stamps depend on pyproject.toml and the compiled cores' sources, so a changed
# dependency list or a changed core refreshes the venv (pip builds the cores where a C
# compiler is present; ENGINE says which engine runs).
CORE    = setup.py cardtable/_native.h $(wildcard cardtable/*/_core.c)
ENGINE  = $(BIN)/python -c "from cardtable._engine import describe; print(describe())"

$(VENV)/.installed-run: pyproject.toml $(CORE) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[server,arena]"
	@$(ENGINE)
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(CORE) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	@$(ENGINE)
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(BIN)/cardtable serve --host $(HOST) --port $(PORT)

demo: $(VENV)/.installed-run
	$(BIN)/cardtable demo pasur

# pytest exits 5 when it collects no test; make treats that as a failure, as it should.
# Three workers (pytest-xdist) on two cores: a third of the suite's time is spent waiting
# (servers starting, bots' delays, browsers), which a third worker fills.  The slowest
# tests are listed at the end, to keep the whole under 15 minutes.
# Then the rules once more on the pure-Python engine (the reference), where the first run
# used the compiled one: the rule tests, the contract suite and the golden games.
ENGINE_TESTS = tests/pasur tests/durak tests/test_contract.py tests/test_golden.py \
               tests/test_third_game.py

test: $(VENV)/.installed-dev
	$(BIN)/ruff check cardtable tests benchmarks
	$(BIN)/mypy
	@$(MAKE) --no-print-directory page-check
	$(BIN)/python -m pytest -m "not slow" -q -n 3 --dist worksteal --durations=40
	CARDTABLE_PURE=1 $(BIN)/python -m pytest -m "not slow" -q -n 3 --durations=10 $(ENGINE_TESTS)

# The page's JavaScript: tsc --noEmit over its JSDoc types (typescript pinned in
# tools/page/package-lock.json, installed there by npm ci) and node --test over its pure
# modules (tests/page).  Without node, one line says so and make test goes on.
PAGE_TSC = tools/page/node_modules/.bin/tsc

page-check:
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
	  [ -x $(PAGE_TSC) ] || (cd tools/page && npm ci --no-audit --no-fund --loglevel=error) && \
	  echo "tsc --noEmit (the page's types)" && $(PAGE_TSC) --noEmit -p tools/page/tsconfig.json && \
	  node --test tests/page/; \
	else echo "node is not installed: the page's type check and unit tests are skipped"; fi

# mypy reads its files and its strictness from pyproject.toml: the whole package; the engine
# and the server strictly, the other edges (adapters, arena, terminal...) with the strict
# flags relaxed.
lint: $(VENV)/.installed-dev
	$(BIN)/ruff check cardtable tests benchmarks
	$(BIN)/mypy

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/engine.py

strength: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/strength.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
