"""Structural escaping: Python builds HTML through core.html, never by marking
a built string safe, and its templates are literals."""

from __future__ import annotations

import ast
import html as stdlib_html
from pathlib import Path

import pytest
from django.utils.safestring import SafeData, SafeString, mark_safe
from hypothesis import given
from hypothesis import strategies as st

from core.html import content_lines, escaped, html, html_join, html_template

ROOT = Path(__file__).resolve().parents[2]
CODE = ["core", "config", "leaderboard", "trajectories", "ingest", "samplegen", "benchview"]
_MARKERS = {"mark_safe", "SafeString"}
_BUILDERS = {"html", "html_template"}
# The one place a built string is marked: from values it has just escaped.
THE_ESCAPER = "core/html.py"


def test_html_escapes_every_value_and_keeps_safe_ones():
    out = html('<a title="{}">{}</a>{}', "\"x\" & 'y'", "<script>", html("<b>{}</b>", "<i>"))
    assert out == '<a title="&quot;x&quot; &amp; &#x27;y&#x27;">&lt;script&gt;</a><b>&lt;i&gt;</b>'
    assert isinstance(out, SafeData)
    assert html("{}", 3) == "3"


def test_every_kind_of_value_is_written_as_format_would_then_escaped():
    class Tag:
        def __str__(self):
            return "<tag>"

    out = html("{}|{}|{}|{}|{}|{}", 7, 2.5, True, None, Tag(), b"<")
    assert out == "7|2.5|True|None|&lt;tag&gt;|b&#x27;&lt;&#x27;"


@given(st.text())
def test_a_value_is_escaped_exactly_as_html_escape_does(text):
    expected = stdlib_html.escape(text, quote=True)
    assert html("{}", text) == expected
    assert html_template("<p>{0}</p>{0}")(text) == f"<p>{expected}</p>{expected}"
    assert escaped(text) == expected
    assert html_join([text]) == expected


def test_a_compiled_template_escapes_a_value_used_twice_once_and_formats_numbers():
    cell = html_template('<td title="{0} on {1}">{0}{2:.1f}</td>')
    assert cell("<b>", html("<i>{}</i>", "&"), 2.25) == (
        '<td title="&lt;b&gt; on <i>&amp;</i>">&lt;b&gt;2.2</td>'
    )
    assert isinstance(cell("", "", 0), SafeString)
    assert html_template("a{{b}}c{}")("<") == "a{b}c&lt;"
    assert html_template("<hr>")() == "<hr>"
    # A format spec formats the value as text, which is then escaped, safe or not.
    assert html("{:>4}", html("<b>")) == " &lt;b&gt;"


@pytest.mark.parametrize(
    "template",
    ["{0}{}", "{name}", "{0.attr}", "{0[1]}", "{!r}", "{0:x}{0}", "{1}", "{:{}}"],
)
def test_a_template_the_escaper_cannot_keep_to_its_rules_is_refused(template):
    with pytest.raises(ValueError, match="template|fields|formatted|numbered|spec"):
        html_template(template)


def test_the_template_text_never_becomes_code():
    # Quotes, braces and backslashes of the markup stay literal text.
    tricky = "''' \"\"\" \\ {{}} ') ; import os #"
    assert html_template(tricky + "{}")("<") == tricky.replace("{{}}", "{}") + "&lt;"


def test_html_join_escapes_a_plain_piece():
    joined = html_join(["<p>", html("<p>{}</p>", "&"), mark_safe("<br>")], " ")
    assert joined == "&lt;p&gt; <p>&amp;</p> <br>"
    assert isinstance(joined, SafeData)
    assert html_join(iter([html("<i>")])) == "<i>"


def _built(node: ast.AST) -> bool:
    """An f-string, a concatenation, a % or .format() or .join() result."""
    if isinstance(node, ast.JoinedStr | ast.BinOp):
        return True
    return isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("join", "format")


def _findings(root: Path) -> list[str]:
    """Each built string marked safe, and each template built at run time
    (an html or html_template call whose template is not a literal or a name)."""
    found = []
    for package in CODE:
        for path in sorted((root / package).rglob("*.py")):
            where = path.relative_to(root).as_posix()
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if not (isinstance(node, ast.Call) and node.args):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                first = node.args[0]
                if name in _MARKERS and where != THE_ESCAPER and _built(first):
                    found.append(f"marked {where}:{node.lineno}")
                elif name in _BUILDERS and not isinstance(first, ast.Constant | ast.Name):
                    found.append(f"template {where}:{node.lineno}")
    return found


def test_no_built_string_is_marked_safe_and_every_template_is_a_literal():
    assert _findings(ROOT) == []


def test_the_guard_sees_a_marked_f_string_and_a_built_template(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "bad.py").write_text(
        "from django.utils.safestring import mark_safe\n"
        "from core.html import html, html_template\n"
        "x = 1\n"
        "a = mark_safe(f'<b>{x}</b>')\n"
        "b = mark_safe(''.join(['<i>']))\n"
        "c = mark_safe('<br>')\n"
        "d = html(f'<b>{x}</b>')\n"
        "e = html_template('<i>' + str(x))\n"
        "f = html('<i>{}</i>', x)\n"
        "T = '<u>{}</u>'\n"
        "g = html_template(T)\n"
    )
    assert _findings(tmp_path) == [
        "marked core/bad.py:4",
        "marked core/bad.py:5",
        "template core/bad.py:7",
        "template core/bad.py:8",
    ]


def test_content_lines_escape_markup_in_one_pass_and_split_into_safe_lines():
    lines = content_lines('<script>alert("x")</script> & more\nsecond\n')
    assert lines == ['&lt;script&gt;alert("x")&lt;/script&gt; &amp; more', "second", ""]
    assert all(isinstance(line, SafeData) for line in lines)
