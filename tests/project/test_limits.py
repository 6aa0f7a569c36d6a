"""Every limit sits in the BENCHVIEW_LIMITS block, each set by its own variable and
read by the code (a limit nothing reads would promise a bound the site does not keep)."""

from __future__ import annotations

import ast
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


# Project code: every Python file outside these (settings only sets the limits).
_NOT_CODE = {".venv", "tests", "benchmarks", "node_modules"}


def _limits_read_by_code() -> dict[str, list[str]]:
    """Each limit name -> the modules that look it up: ``x["name"]`` or ``x.get("name")``."""
    keys = set(settings.BENCHVIEW_LIMITS)
    read: dict[str, list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if relative.parts[0] in _NOT_CODE or relative.as_posix() == "config/settings.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(relative))):
            if isinstance(node, ast.Subscript):
                key = node.slice
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "get":
                key = node.args[0] if node.args else None
            else:
                continue
            if isinstance(key, ast.Constant) and key.value in keys:
                read.setdefault(key.value, []).append(relative.as_posix())
    return read


def test_each_limit_is_read_by_the_code():
    unread = set(settings.BENCHVIEW_LIMITS) - set(_limits_read_by_code())
    assert unread == set()


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


def test_json_documents_are_refused_past_the_json_max_depth_limit(settings):
    from formats.v1.jsondoc import MAX_DEPTH, JSONProblem, parse_json

    nested = ("[" * 6 + "]" * 6).encode()
    assert parse_json(nested) == [[[[[[]]]]]]
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "json_max_depth": 5}
    try:
        parse_json(nested)
    except JSONProblem as exc:
        assert "deeper than 5 levels" in str(exc)
        assert exc.path == "[0][0][0][0][0]"
    else:
        raise AssertionError("a document six levels deep passed a limit of five")
    # No limit goes past what orjson can write back.
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "json_max_depth": 10_000}
    too_deep = ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)).encode()
    try:
        parse_json(too_deep)
    except JSONProblem as exc:
        assert f"deeper than {MAX_DEPTH} levels" in str(exc)
    else:
        raise AssertionError("orjson's ceiling was passed")


def test_the_job_history_lists_job_history_max_jobs_a_page(settings):
    from django.contrib import admin

    from ingest.models import ImportJob

    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "job_history_max": 3}
    assert admin.site._registry[ImportJob].list_per_page == 3
