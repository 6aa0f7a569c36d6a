"""Every limit sits in the BENCHVIEW_LIMITS block, each set by its own variable."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from django.conf import settings

from tests.children import ROOT
from trajectories.analysis_pages import command_of
from trajectories.search.in_attempt import _scan


def test_each_limit_is_set_by_the_variable_named_after_it():
    keys = list(settings.BENCHVIEW_LIMITS)
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BENCHVIEW_")}
    variables = {f"BENCHVIEW_{key.upper()}": "7" for key in keys}
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        "print(json.dumps(settings.BENCHVIEW_LIMITS))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **variables},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == dict.fromkeys(keys, 7)


def test_a_failed_calls_command_is_cut_at_its_limit(settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "analysis_command_chars": 10}
    assert command_of({"command": "x" * 50}) == "x" * 9 + "…"
    assert command_of({"command": "short"}) == "short"


def test_the_attempt_search_cuts_its_snippet_with_the_search_limits(settings):
    settings.BENCHVIEW_LIMITS = {
        **settings.BENCHVIEW_LIMITS,
        "search_snippet_chars": 20,
        "search_snippet_before_chars": 5,
    }
    text = "a" * 100 + "needle" + "b" * 100
    hit, start, snippet = _scan(iter([text[:50], text[50:]]), "needle")
    assert (hit, start) == (101, 96)
    assert snippet == "aaaaaneedlebbbbbbbbb"
