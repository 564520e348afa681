# Two commands on a fresh machine: `make run` (site on SQLite with demo data) and `make test`
# (the whole suite on PostgreSQL with a real Chromium). `make bench` prints the speed figures.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMPS := .stamps
LINTED := backgammon accounts analysis api bots gamesite messaging notices tournaments tests bench deploy membership
DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/gamesite

.PHONY: run test bench bench-web lint typecheck clean chromium

$(STAMPS)/venv: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# compat mode: a plain path entry, not an import hook that every start-up would load
	$(BIN)/pip install --quiet -e '.[test]' --config-settings editable_mode=compat
	@mkdir -p $(STAMPS) && touch $@

venv: $(STAMPS)/venv

# axe-core, which the accessibility tests inject into the pages (pinned in package-lock.json).
$(STAMPS)/npm: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	@mkdir -p $(STAMPS) && touch $@

lint: $(STAMPS)/venv
	$(BIN)/ruff check $(LINTED)
	$(BIN)/mypy

# The development site: SQLite (WAL mode, see settings.py), DEBUG, its own random keys
# (.dev-secrets), demo data, the task workers beside the web server (one for bots, deadlines and
# notices, one for analyses: see TASKS in settings.py); Ctrl-C stops them all.
# uvicorn serves it as in production (ASGI: pages get live updates pushed), reloading on edits;
# with no REDIS_URL the push goes through an in-memory layer in that process, and the worker's
# events reach it through the database (gamesite/live_bridge).
# RUN_PORT moves the site to another port; SITE_URL (the address in the worker's e-mails and
# pushes, gamesite/site_address.py) follows it.
RUN_DATABASE_URL ?= sqlite:///$(CURDIR)/db.sqlite3
RUN_PORT ?= 8000
RUN_SITE_URL ?= http://127.0.0.1:$(RUN_PORT)
RUN_ENV := DEBUG=1 DATABASE_URL=$(RUN_DATABASE_URL) SITE_URL=$(RUN_SITE_URL)

run: $(STAMPS)/venv
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput
	$(RUN_ENV) $(BIN)/python manage.py createcachetable
	$(RUN_ENV) $(BIN)/python manage.py load_demo
	@echo "Serving on http://127.0.0.1:$(RUN_PORT) (the task workers run beside it; Ctrl-C stops all)"
	@$(RUN_ENV) $(BIN)/python manage.py db_worker --no-reload & worker=$$!; \
	$(RUN_ENV) $(BIN)/python manage.py db_worker --no-reload --queue-name analysis & analyser=$$!; \
	trap 'kill $$worker $$analyser 2>/dev/null; wait $$worker $$analyser 2>/dev/null' EXIT INT TERM; \
	$(RUN_ENV) $(BIN)/uvicorn gamesite.asgi:application --host 127.0.0.1 --port $(RUN_PORT) --reload \
		--reload-dir backgammon --reload-dir accounts --reload-dir analysis --reload-dir api \
		--reload-dir bots --reload-dir gamesite --reload-dir tournaments

# Browser tests drive Debian's Chromium (Playwright's own download cannot reach its server).
chromium:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; \
	else \
		echo "The browser tests need /usr/bin/chromium: run 'sudo apt-get install -y chromium'," >&2; \
		echo "or run 'make test' as root, which installs it." >&2; exit 1; \
	fi

# The whole suite against PostgreSQL at DATABASE_URL, in TEST_WORKERS processes (pytest-xdist,
# each on its own test database, test_<name>_gw0 and so on; 0: the one process): 15-17 min on a
# 2-core machine in a slow hour against 25 in one process. The pages asked while Redis is paused
# count their waits for it rather than their seconds, which a busy machine stretched past 1 s.
# pytest's own exit codes are kept, so "no tests collected" (5) fails the build too.
TEST_WORKERS ?= 2
test: $(STAMPS)/venv $(STAMPS)/npm chromium
	$(BIN)/ruff check $(LINTED)
	$(BIN)/mypy
	DATABASE_URL=$(DATABASE_URL) $(BIN)/pytest -p no:cacheprovider -n $(TEST_WORKERS) --dist worksteal --doctest-modules \
		--doctest-glob=README.md tests backgammon/engine backgammon/board_svg.py backgammon/game_page.py \
		gamesite/env.py bench/web/bench_web.py README.md

bench: $(STAMPS)/venv
	@for script in bench/bench_*.py; do DATABASE_URL=$(DATABASE_URL) $(BIN)/python $$script || exit 1; done

# The site served the production way on PostgreSQL (gunicorn and the task worker), driven by
# locust players who each keep a game open; writes bench/results/web.md (about 15 minutes).
bench-web: $(STAMPS)/venv
	DATABASE_URL=$(DATABASE_URL) $(BIN)/python bench/web/bench_web.py

clean:
	rm -rf $(VENV) $(STAMPS) node_modules
