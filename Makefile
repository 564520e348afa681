# Two commands on a fresh machine: `make run` (site on SQLite with demo data) and `make test`
# (the whole suite on PostgreSQL with a real Chromium). `make bench` prints the speed figures.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMPS := .stamps
DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/gamesite

.PHONY: run test bench lint typecheck clean

$(STAMPS)/venv: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	@mkdir -p $(STAMPS) && touch $@

venv: $(STAMPS)/venv

lint: $(STAMPS)/venv
	$(BIN)/ruff check backgammon accounts gamesite tests bench
	$(BIN)/mypy

bench: $(STAMPS)/venv
	@for script in bench/bench_*.py; do DATABASE_URL=$(DATABASE_URL) $(BIN)/python $$script || exit 1; done

clean:
	rm -rf $(VENV) $(STAMPS)
