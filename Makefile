# Two commands: `make run` (a complete simulated table) and `make test` (every test).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
ARGS   ?=
PYTEST_ARGS ?=

.PHONY: run test bench wheel clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "companion needs Python 3.11 or newer (found " + sys.version.split()[0] + ")")'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.run-installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

$(VENV)/.test-installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $@ $(VENV)/.run-installed

run: $(VENV)/.run-installed
	$(BIN)/companion run $(ARGS)

test: $(VENV)/.test-installed
	$(BIN)/python -m pytest -n 2 --dist worksteal $(PYTEST_ARGS)

bench: $(VENV)/.test-installed
	$(BIN)/python bench/run_all.py

wheel: $(BIN)/python
	$(BIN)/python -m pip wheel --quiet --no-deps -w dist .

clean:
	rm -rf $(VENV) build dist .pytest_cache tests/artifacts
