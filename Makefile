# bjsim: the two quick-start targets (see README.md). Both create .venv on first use and
# reinstall only when pyproject.toml changes, so running them again is cheap.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test test-slow lint rules-doc clean

run: $(VENV)/.installed          ## play the default NZ game (10 million rounds) and print the report
	$(BIN)/bjsim simulate

test: $(VENV)/.installed-test    ## run the test suite (slow tests deselected; `make test-slow` runs them)
	$(BIN)/python -m pytest

test-slow: $(VENV)/.installed-test
	$(BIN)/python -m pytest -m slow

lint: $(VENV)/.installed-test
	$(BIN)/python -m ruff check simulator tests

rules-doc: $(VENV)/.installed     ## write docs/rules-format.md's key table from the declarations
	$(BIN)/python tests/rules_doc.py

$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "bjsim needs Python 3.11 or newer; set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
