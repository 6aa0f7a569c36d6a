# The two commands of the README: `make demo` and `make test`.
# Both work on a fresh machine: they bootstrap uv, the virtualenv and the
# browser the tests drive. Nothing else needs installing by hand.

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
UV := python3 -m uv
SAMPLE_DIR := var/sample-release
HOST ?= 127.0.0.1
PORT ?= 8000
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(VENV)

.PHONY: demo test venv chromium lint format serve sample clean

venv: $(VENV)/.synced

$(VENV)/.synced: pyproject.toml uv.lock
	@python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check uv
	$(UV) sync --locked
	@touch $@

# Debian's Chromium for the Playwright journeys (Playwright's own browser
# download cannot work here).
chromium:
	@test -x /usr/bin/chromium || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

sample: venv
	rm -rf $(SAMPLE_DIR)
	$(PY) manage.py make_sample_release $(SAMPLE_DIR)

demo: venv
	$(PY) manage.py migrate --noinput
	$(MAKE) sample
	$(PY) manage.py import_release $(SAMPLE_DIR)
	@# The address is printed once the server answers, not before: a busy
	@# port or a slow start must not leave a dead link on the screen.
	@$(PY) manage.py runserver --noreload $(HOST):$(PORT) & pid=$$!; \
	trap 'kill $$pid 2>/dev/null' INT TERM EXIT; \
	for i in $$(seq 1 240); do \
	  if ! kill -0 $$pid 2>/dev/null; then \
	    echo "The server did not start. Is port $(PORT) taken? Pick another: make demo PORT=8001"; exit 1; fi; \
	  if $(PY) -c "import urllib.request; urllib.request.urlopen('http://$(HOST):$(PORT)/healthz', timeout=1)" 2>/dev/null; then \
	    echo "Serving Benchview on http://$(HOST):$(PORT)/ (Ctrl-C stops it)"; break; fi; \
	  sleep 0.5; \
	done; \
	wait $$pid

# Production-like serving: gunicorn and whitenoise with collected static files.
# The long timeout leaves room for an admin import, which runs in its request.
serve: venv
	$(PY) manage.py collectstatic --noinput >/dev/null
	BENCHVIEW_MANIFEST_STATIC=true $(VENV)/bin/gunicorn config.wsgi --bind $(HOST):$(PORT) --workers 2 --timeout 900 --no-control-socket

test: venv chromium
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest $(PYTEST_ARGS)

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: venv
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) var db.sqlite3 staticfiles media test-results
