# The two commands of the README: `make demo` and `make test`.
# Both work on a fresh machine: they bootstrap uv, the virtualenv and the
# browser the tests drive. Nothing else needs installing by hand.

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
UV := python3 -m uv
SAMPLE_DIR := var/sample-release
SWEBENCH_DIR := var/sample-swebench
HARBOR_DIR := var/sample-harbor
INSPECT_DIR := var/sample-inspect
TB_DIR := var/sample-terminal-bench
HOST ?= 127.0.0.1
# Test processes (pytest-xdist; each has its own test database and live server).
# A module stays in one process, so its shared import is made once.
TEST_WORKERS ?= 2
PORT ?= 8000
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(VENV)

.PHONY: demo test venv chromium multihost-packages lint format serve check-deploy sample clean fuzz

venv: $(VENV)/.synced

$(VENV)/.synced: pyproject.toml uv.lock
	@python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install --quiet --disable-pip-version-check uv
	$(UV) sync --locked
	@touch $@

# Debian's Chromium for the Playwright journeys (Playwright's own browser
# download cannot work here).
chromium:
	@test -x /usr/bin/chromium || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# Debian's HAProxy, Ceph (RADOS Gateway) and PostgreSQL for the multi-host test
# (tests/multihost, docs/deploy.md). It needs root, as the test does; elsewhere the
# test skips and this installs nothing.
MULTIHOST_PROGRAMS = haproxy radosgw radosgw-admin ceph-mon ceph-osd ceph-authtool monmaptool runuser unshare
multihost-packages:
	@if [ "$$(id -u)" = 0 ]; then \
	  for p in $(MULTIHOST_PROGRAMS); do command -v $$p >/dev/null || missing=1; done; \
	  ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || { missing=1; pg=postgresql; }; \
	  if [ -n "$$missing" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq --no-install-recommends haproxy radosgw ceph-mon ceph-osd \
	    ceph-common iproute2 util-linux curl $$pg >/dev/null; fi; \
	fi

sample: venv
	rm -rf $(SAMPLE_DIR) $(HARBOR_DIR) $(INSPECT_DIR) $(TB_DIR) $(SWEBENCH_DIR)
	$(PY) manage.py make_sample_release $(SAMPLE_DIR)
	$(PY) manage.py make_sample_harbor $(HARBOR_DIR)
	$(PY) manage.py make_sample_inspect $(INSPECT_DIR)
	$(PY) manage.py make_sample_terminal_bench $(TB_DIR)
	$(PY) manage.py make_sample_swebench $(SWEBENCH_DIR)

# An import worker (`manage.py db_worker`) runs beside the web server and stops with it:
# admin imports are jobs it takes from the database queue.
WORKER = $(PY) manage.py db_worker --no-reload & worker=$$!; trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT;

demo: venv
	$(PY) manage.py migrate --noinput
	$(MAKE) sample
	$(PY) manage.py import_release $(SAMPLE_DIR)
	$(PY) manage.py import_harbor $(HARBOR_DIR) --bench interaction-bench --title "Interaction Bench" --models $(HARBOR_DIR)/models.json
	$(PY) manage.py import_inspect $(INSPECT_DIR) --bench inspect-ctf --title "Inspect CTF (sample)"
	$(PY) manage.py import_results $(TB_DIR) --bench terminal-bench-sample --title "Terminal-Bench (sample)"
	$(PY) manage.py import_results $(SWEBENCH_DIR)/evaluation/verified --bench swe-bench-sample --title "SWE-bench Verified (sample)"
	@# The address is printed once the server answers, not before: a busy
	@# port or a slow start must not leave a dead link on the screen. The import
	@# worker runs beside the server and stops with it.
	@$(PY) manage.py db_worker --no-reload & worker=$$!; \
	$(PY) manage.py runserver --noreload $(HOST):$(PORT) & pid=$$!; \
	trap 'kill $$pid $$worker 2>/dev/null' INT TERM EXIT; \
	for i in $$(seq 1 240); do \
	  if ! kill -0 $$pid 2>/dev/null; then \
	    echo "The server did not start. Is port $(PORT) taken? Pick another: make demo PORT=8001"; exit 1; fi; \
	  if $(PY) -c "import urllib.request; urllib.request.urlopen('http://$(HOST):$(PORT)/healthz', timeout=1)" 2>/dev/null; then \
	    echo "Serving Benchview on http://$(HOST):$(PORT)/ with an import worker (Ctrl-C stops both)"; break; fi; \
	  sleep 0.5; \
	done; \
	wait $$pid

# Production-like serving: gunicorn and whitenoise with collected static files,
# DEBUG off, HTTPS on (behind a TLS proxy that sets X-Forwarded-Proto; use
# `make serve BENCHVIEW_HTTPS=false` for plain HTTP on this machine). SECRET_KEY
# comes from the environment, else from var/secret-key, generated once.
# The app is loaded once before the workers fork (--preload). Requests are short:
# admin imports run in the import worker, not in a request.
SECRET_KEY_FILE ?= var/secret-key
BENCHVIEW_HTTPS ?= true
SERVE_ENV = DEBUG=false SECRET_KEY="$${SECRET_KEY:-$$(cat $(SECRET_KEY_FILE))}" \
	BENCHVIEW_HTTPS=$(BENCHVIEW_HTTPS) BENCHVIEW_MANIFEST_STATIC=true

$(SECRET_KEY_FILE):
	@mkdir -p $(dir $@)
	@umask 077 && $(PY) -c 'import secrets; print(secrets.token_urlsafe(50))' > $@

serve: venv $(SECRET_KEY_FILE)
	$(SERVE_ENV) $(PY) manage.py collectstatic --noinput >/dev/null
	$(SERVE_ENV) $(WORKER) $(SERVE_ENV) $(VENV)/bin/gunicorn config.wsgi --bind $(HOST):$(PORT) --workers 2 --timeout 60 --preload --no-control-socket

# Django's deployment checklist under serve's settings: only the HSTS preload
# choice (documented in the README) may be reported.
check-deploy: venv $(SECRET_KEY_FILE)
	$(SERVE_ENV) $(PY) manage.py check --deploy

test: venv chromium multihost-packages
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The release and transcript fuzzers at length (the suite runs them with a bounded profile).
fuzz: venv
	HYPOTHESIS_PROFILE=long $(PY) -m pytest tests/ingest/test_fuzz_release.py tests/ingest/test_fuzz_transcripts.py -q --hypothesis-show-statistics $(PYTEST_ARGS)

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: venv
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) var db.sqlite3 staticfiles media test-results
