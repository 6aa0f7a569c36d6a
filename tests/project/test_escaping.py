"""Structural escaping: Python builds HTML through core.html, never by marking
a built string safe."""

from __future__ import annotations

import ast
from pathlib import Path

from django.utils.safestring import SafeData, mark_safe

from core.html import html, html_join

ROOT = Path(__file__).resolve().parents[2]
CODE = ["core", "config", "leaderboard", "trajectories", "ingest", "samplegen", "benchview"]
_MARKERS = {"mark_safe", "SafeString"}
# The one place a built string is marked: from values it has just escaped.
THE_ESCAPER = "core/html.py"
# Measured exceptions, past the 10% slower a page may get (same run, before
# and after): the matrix's 20,000 cells through core.html cost +33% CPU on the
# page (85 -> 112 ms); events through it +87% render CPU (4.5 -> 8.4 ms per
# 500-event slice). Both escape every piece of text as they build it.
MEASURED_EXCEPTIONS = {
    "leaderboard/render/matrix.py:136",
    "trajectories/render/event_html.py:129",
}


def test_html_escapes_every_value_and_keeps_safe_ones():
    out = html('<a title="{}">{}</a>{}', "\"x\" & 'y'", "<script>", html("<b>{}</b>", "<i>"))
    assert out == '<a title="&quot;x&quot; &amp; &#x27;y&#x27;">&lt;script&gt;</a><b>&lt;i&gt;</b>'
    assert isinstance(out, SafeData)
    assert html("{}", 3) == "3"


def test_html_join_escapes_a_plain_piece():
    joined = html_join(["<p>", html("<p>{}</p>", "&"), mark_safe("<br>")], " ")
    assert joined == "&lt;p&gt; <p>&amp;</p> <br>"
    assert isinstance(joined, SafeData)


def _built(node: ast.AST) -> bool:
    """An f-string, a concatenation, a % or .format() or .join() result."""
    if isinstance(node, ast.JoinedStr | ast.BinOp):
        return True
    return isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("join", "format")


def _marked_built_strings(root: Path) -> list[str]:
    found = []
    for package in CODE:
        for path in sorted((root / package).rglob("*.py")):
            if path.relative_to(root).as_posix() == THE_ESCAPER:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not (isinstance(node, ast.Call) and node.args):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in _MARKERS and _built(node.args[0]):
                    found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}")
    return found


def test_no_built_string_is_marked_safe():
    assert set(_marked_built_strings(ROOT)) == MEASURED_EXCEPTIONS


def test_the_guard_sees_a_marked_f_string(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "bad.py").write_text(
        "from django.utils.safestring import mark_safe\n"
        "x = 1\n"
        "a = mark_safe(f'<b>{x}</b>')\n"
        "b = mark_safe(''.join(['<i>']))\n"
        "c = mark_safe('<br>')\n"
    )
    assert _marked_built_strings(tmp_path) == ["core/bad.py:3", "core/bad.py:4"]
