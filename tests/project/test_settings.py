"""The settings fail closed in production and stay zero-configuration for development."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.children import ROOT

# DJANGO_ALLOW_ASYNC_UNSAFE is set for the browser tests only (it would be an
# error in a deployment check), so children never inherit it.
SETTINGS_VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "BENCHVIEW_HTTPS",
    "BENCHVIEW_HSTS_SECONDS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def settings_in_child(**env: str) -> subprocess.CompletedProcess:
    """Load the settings in a fresh process with only ``env`` set among their variables."""
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({k: getattr(s, k, None) for k in ("
        "'DEBUG', 'SECRET_KEY', 'SECURE_HSTS_SECONDS', 'SECURE_HSTS_INCLUDE_SUBDOMAINS', "
        "'SECURE_HSTS_PRELOAD', 'SECURE_SSL_REDIRECT')}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_with_no_variables_it_runs_in_debug_with_the_development_key():
    done = settings_in_child()
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert loaded["DEBUG"] is True and loaded["SECRET_KEY"]
    assert loaded["SECURE_SSL_REDIRECT"] is False


def test_without_debug_a_missing_secret_key_stops_the_start():
    done = settings_in_child(DEBUG="false")
    assert done.returncode != 0
    assert "SECRET_KEY is not set and DEBUG is false" in done.stderr


def test_without_debug_the_given_secret_key_is_used():
    done = settings_in_child(DEBUG="false", SECRET_KEY="k" * 60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["SECRET_KEY"] == "k" * 60


def test_https_sends_hsts_for_a_year_without_preload_by_default():
    done = settings_in_child(BENCHVIEW_HTTPS="true")
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert loaded["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600
    assert loaded["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert loaded["SECURE_HSTS_PRELOAD"] is False


def test_check_deploy_under_make_serves_settings_reports_only_the_preload_choice(tmp_path):
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    done = subprocess.run(
        ["make", "-s", "check-deploy", f"SECRET_KEY_FILE={tmp_path / 'secret-key'}"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=300,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "(security.W021)" in said
    assert "identified 1 issue" in said
    assert len((tmp_path / "secret-key").read_text().strip()) >= 50
