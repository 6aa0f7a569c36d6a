"""formats.v1.jsondoc: what a release's JSON may not hold, refused with its path."""

from __future__ import annotations

import json

import pytest

from formats.v1.jsondoc import MAX_DEPTH, JSONProblem, parse_json


def refusal(data: bytes) -> tuple[str, str]:
    with pytest.raises(JSONProblem) as refused:
        parse_json(data)
    return refused.value.path, str(refused.value)


@pytest.mark.parametrize(
    ("data", "path"),
    [
        (b'{"a": 1, "a": 2}', "a"),
        (b'{"a": {"b": 1, "b": 1}}', "a.b"),
        (b'{"a": [{"k": "\\":", "k": 2}]}', "a[0].k"),
        (b'{"a" : 1, "a" : 2}', "a"),
        (b'{"k\\u0022": 1, "k\\"": 2}', 'k"'),
        (b'{"k\\\\": 1, "k\\\\": 2}', "k\\"),
        (b'{"\\u006b": 1, "k": 2}', "k"),
        # The dropped value's strings hold quotes before colons too.
        (b'{"k": "\\":\\":", "k": 1}', "k"),
        (b'{"k": 1, "k": "\\":"}', "k"),
        (b'{"k": {"x\\"": "\\":"}, "k": {"x\\"": 1}}', "k"),
    ],
)
def test_a_key_given_twice_is_refused_with_its_path(data, path):
    where, message = refusal(data)
    assert where == path
    assert "given twice" in message


@pytest.mark.parametrize(
    "value",
    [
        {"k": ": x"},
        {"k": 'say \\": and "quote": here'},
        {"k\\": 1, "k": 2},
        {"a": {"k": 1}, "b": {"k": 1}},
        {"k": "\\\\\\"},
    ],
)
def test_distinct_keys_are_accepted_however_their_strings_look(value):
    for text in (
        json.dumps(value),
        json.dumps(value, indent=2),
        json.dumps(value, separators=(",", ":")),
    ):
        assert parse_json(text.encode()) == value


def test_nesting_is_refused_past_the_limit_with_the_path_of_the_deepest_level():
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json(ok.encode()) is not None
    where, message = refusal(('{"a":' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}").encode())
    assert where.startswith("a[0][0]")
    assert f"deeper than {MAX_DEPTH}" in message


def test_far_too_deep_nesting_is_refused_with_its_position():
    where, message = refusal(b"[" * 100_000 + b"]" * 100_000)
    assert where == "(document)"
    assert "line 1 column" in message


@pytest.mark.parametrize(
    ("data", "path", "words"),
    [
        (b'{"t": "a\\ud800"}', "t", "surrogate"),
        (b'{"\\udc00": 1}', "\\udc00", "surrogate"),
        (b'{"n": [1, 1e400]}', "n[1]", "not finite"),
        (b'{"n": -1e400}', "n", "not finite"),
        (b'{"n": NaN}', "", "not a JSON number"),
    ],
)
def test_values_no_database_stores_alike_are_refused(data, path, words):
    where, message = refusal(data)
    assert where == path
    assert words in message
