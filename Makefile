# Tractor Companion: `make run` sets up and starts the app on this machine (DEBUG on),
# `make serve` starts it for real (gunicorn; the environment as the README's "Running it for real"
# says), `make test` sets up and runs every test.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
# `make run` listens on every interface: the other phones at the table join over the local network.
HOST ?= 0.0.0.0:8000
BIND ?= 127.0.0.1:8000
WORKERS ?= 2

.PHONY: install run serve test stress sweep lint bench load messages

install: $(INSTALLED)

$(INSTALLED): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Python 3.11 or newer is needed (set PYTHON=...)"; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	@$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@

# The task worker (`manage.py worker`: imports) runs beside the app and stops with it. Asked
# twice, it stops an import under way too, taking away what the import made.
WITH_WORKER = $(PY) manage.py worker --verbosity 0 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; sleep 1; kill $$worker 2>/dev/null; wait $$worker' EXIT; \
	trap 'exit 130' INT TERM;

run: export DEBUG = true
run: install
	@$(PY) manage.py migrate --verbosity 0
	@$(PY) manage.py demo
	@$(WITH_WORKER) $(PY) manage.py runlan $(HOST)

serve: install
	@$(PY) manage.py migrate --verbosity 0
	@$(PY) manage.py collectstatic --no-input --verbosity 0
	@$(WITH_WORKER) $(VENV)/bin/gunicorn companion.wsgi --workers $(WORKERS) --bind $(BIND) --access-logfile -

# The import layers (pyproject.toml's [tool.importlinter]) print only when one is broken.
lint: install
	@$(VENV)/bin/ruff check --quiet .
	@$(VENV)/bin/ruff format --check --quiet .
	@out=$$($(VENV)/bin/lint-imports --no-logo --no-cache) || { echo "$$out"; exit 1; }

# The tests run on every core (pytest-xdist): each worker has its own test database. The ten
# slowest are named at the end: where the time goes.
test: lint
	@$(PY) -m pytest -n auto --durations=10

# The browser tests RUNS times over while a busy loop holds every core, as on a loaded laptop or
# CI runner: a test that waits for time instead of for the state it checks fails here. It says
# how many runs passed and fails if any did not; TESTS= runs a subset the same way
# (`make stress TESTS=tests/browser/test_keyboard_browser.py RUNS=3`).
RUNS ?= 5
TESTS ?= tests/browser
stress: install
	@burners=""; for core in $$(seq $$(nproc)); do \
		$(PY) -c 'while True: pass' & burners="$$burners $$!"; \
	done; \
	trap 'kill $$burners 2>/dev/null' EXIT; trap 'exit 130' INT TERM; \
	passed=0; for run in $$(seq $(RUNS)); do \
		start=$$(date +%s); \
		if $(PY) -m pytest -n auto $(TESTS); then passed=$$((passed + 1)); result=passed; \
		else result=failed; fi; \
		echo "stress: run $$run $$result in $$(($$(date +%s) - start)) s"; \
	done; \
	echo "stress: $$passed of $(RUNS) runs passed"; test $$passed -eq $(RUNS)

# The engine's laws over thousands of generated hands and games (a few minutes): the seeded
# sweeps `make test` leaves out, and every Hypothesis property at thousands of new examples
# where `make test` draws the same few every run (tests/scoring/sweep.py).
sweep: install
	@SWEEP=1 $(PY) -m pytest -n auto -m "sweep or hypothesis" tests/scoring

# Every benchmark runs and prints every line (benchmarks/served.py starts the production server
# and a throwaway PostgreSQL for those that need them); the command fails at the end if any goal
# was missed or a benchmark could not run.
bench: install
	@missed=""; for bench in benchmarks/bench_*.py; do \
		echo "== $$bench"; WORKERS=$(WORKERS) $(PY) $$bench || missed="$$missed $$bench"; echo; \
	done; \
	if [ -n "$$missed" ]; then echo "Goals missed in:$$missed"; exit 1; fi; \
	echo "Every goal met."

# 40 phones on the production server and a throwaway PostgreSQL, on loopback (about 2 minutes).
load: install
	$(PY) benchmarks/load/game.py

# The catalogues, locale/<language>/LC_MESSAGES/django.po: every string marked in companion/,
# scoring/ and templates/ (tests/test_catalogues.py checks that each is translated). English's
# words are the strings themselves; every catalogue is then compiled into the django.mo files
# that are committed, so running the app needs no gettext. Needs GNU gettext (apt-get install
# gettext).
LANGUAGES := zh_Hans en fr es pt_BR
EN_PO := locale/en/LC_MESSAGES/django.po
messages: export DEBUG = true
messages: install
	$(PY) manage.py makemessages $(LANGUAGES:%=-l %) -i ".venv/*" -i "benchmarks/*" -i "tests/*" -i "docs/*" --add-location file
	@# English: each msgstr is its msgid, a changed one too (which msgmerge left fuzzy, with the old words).
	msgfilter --keep-header -i $(EN_PO) -o $(EN_PO) sed -e d
	msgattrib --clear-fuzzy --clear-previous -o $(EN_PO) $(EN_PO)
	msgen -o $(EN_PO) $(EN_PO)
	$(PY) manage.py compilemessages $(LANGUAGES:%=-l %) -i ".*"
