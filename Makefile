# Every target builds and uses its own .venv; nothing here assumes a hand-made install.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: test lint typecheck imports pytest tools play bench soak clean web-screenshot web-sentences catalogues

# setuptools boxes a notice into every editable install of a flat layout ("Editable
# installation ... folders ... with the same name as your package"): design.md chose the
# layout on purpose, so the first `make play` should not greet a player with it. Only that
# notice is silenced; every other warning still shows.
EDITABLE := PYTHONWARNINGS="ignore:Editable installation:UserWarning" $(BIN)/python -m pip install --quiet -e

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(EDITABLE) '.[test]'
	touch $(STAMP)

$(BENCH_STAMP): $(STAMP)
	$(EDITABLE) '.[test,bench]'
	touch $(BENCH_STAMP)

test: lint typecheck imports pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The tests are type-checked too, with a relaxed override: helpers may be untyped and
# equality is not strict (a test compares a peer's latest state, which changes under it).
# The folders are not packages and each may have its own conftest.py, so mypy checks one
# folder at a time, with the folders whose helpers the tests import on its path.
TEST_MYPY := $(BIN)/mypy --allow-untyped-defs --allow-incomplete-defs --allow-untyped-calls \
	--no-strict-equality
TEST_FOLDERS := $(sort $(dir $(wildcard tests/*/*.py)))

typecheck: $(STAMP)
	$(BIN)/mypy
	MYPYPATH=tests $(TEST_MYPY) tests/conftest.py tests/test_structure.py
	for folder in $(TEST_FOLDERS); do \
		MYPYPATH=$$folder:tests/e2e:tests/discovery:tests/protocol:tests/web:tests/engine $(TEST_MYPY) $$folder \
			|| exit 1; \
	done

imports: $(STAMP)
	$(BIN)/lint-imports

# The terminal tests drive the real client in tmux and the browser tests drive the page in
# Debian's chromium; under CI (CI=true) a missing tmux or chromium fails them. So the tests
# install both from Debian's packages where they can (as root).
tools:
	@for tool in tmux chromium; do \
		command -v $$tool >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
			&& { apt-get install -y -qq $$tool >/dev/null 2>&1 \
			|| { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq $$tool >/dev/null 2>&1; }; }; } \
			|| echo "$$tool is missing: its tests will skip (or fail under CI=true)"; \
	done

# Three workers on two cores: most tests wait on processes, sockets and terminals (the
# cores were busy about a third of the time with two workers), so a third keeps `make test`
# within its ten minutes (docs/performance.md, "The test suite's time"). The reliability
# tests load a server on purpose and the discovery tests wait on multicast: those run
# alone, after the rest.
TEST_WORKERS ?= 3
SERIAL_TESTS := tests/reliability tests/discovery
pytest: $(STAMP) tools
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(addprefix --ignore=,$(SERIAL_TESTS))
	$(BIN)/python -m pytest $(SERIAL_TESTS)

# The picture in docs/web.md: the phone-sized browser test, a few moves into a round.
web-screenshot: $(STAMP) tools
	UNO_WEB_SCREENSHOT=$(CURDIR)/docs/web-table.png $(BIN)/python -m pytest -q \
		tests/web/test_web_page.py -k phone_viewport

# The catalogues (docs/translating.md): Babel brings every .po file up to the code's
# sentences, compiles the .mo files the wheel ships and writes the page's copy of the
# log's sentences, server/web/sentences.js (a test fails when any of them is not current).
catalogues: $(STAMP)
	$(BIN)/python -m client.catalogues

web-sentences: catalogues

play: $(STAMP)
	$(BIN)/uno-client --solo

# Benchmarks measure and print; none asserts a time. discovery.py needs root for its
# network namespace and says so when it cannot make one.
bench: $(BENCH_STAMP) tools
	$(BIN)/python tests/bench/engine.py
	$(BIN)/python tests/bench/client_render.py
	$(BIN)/python tests/bench/server.py
	$(BIN)/python tests/bench/page.py
	$(BIN)/python tests/bench/discovery.py
	$(BIN)/python tests/bench/bots.py

# The long reliability run: a million fuzzed frames and 128 chaos tables (a few minutes).
soak: $(STAMP)
	UNO_SOAK=1 UNO_RELIABILITY_REPORT=soak.jsonl $(BIN)/python -m pytest tests/reliability -q

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
