"""Property: any one-field mutation of a valid release imports or is refused cleanly.

A tiny valid release is imported; then, per example, one field of one file is
replaced by a hostile value (a wrong type, an extreme number, NUL, a lone
surrogate, deep nesting, a huge string, broken bytes) and the release is
imported again. Either the import succeeds and every page of the bench
answers 200, or it is refused with problems naming a file, and the database
and the media folder are exactly as before. Nothing else may happen: an
unhandled exception fails the test.

Examples are bounded by the profile (``HYPOTHESIS_PROFILE``): "bounded" for
the suite, "long" for ``make fuzz``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, note
from hypothesis import settings as profiles
from hypothesis import strategies as st

from formats.reader import open_release
from ingest.writing.services import ImportRefused, write_release
from leaderboard.models import Bench
from samplegen.release import generate_release
from tests.factories import body_of, dump, page_addresses

profiles.register_profile(
    "bounded",
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
profiles.register_profile(
    "long",
    max_examples=1500,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
PROFILE = profiles.get_profile(os.environ.get("HYPOTHESIS_PROFILE") or "bounded")

TINY = {"models": 2, "tasks": 3, "released": 2, "events": 120, "seed": 5}
RAW = "__raw_json_here__"


@pytest.fixture(scope="module")
def tiny_release(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fuzz") / "release"
    generate_release(root, **TINY)
    return root


def _json_paths(value, prefix=()):
    """Every (path) of a JSON document: containers and leaves, keys as they are."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _json_paths(child, (*prefix, key))
    elif isinstance(value, list):
        for i, child in enumerate(value[:3]):  # the first few entries of a list
            yield from _json_paths(child, (*prefix, i))


def _targets(root: Path) -> dict[str, list[tuple]]:
    """File name -> the JSON paths a mutation may change (() for a text file)."""
    found = {}
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        name = path.relative_to(root).as_posix()
        if name.endswith(".json"):
            found[name] = [p for p in _json_paths(json.loads(path.read_text())) if p]
        else:
            found[name] = [()]
    return found


# Values put in place of one field: JSON values, or raw JSON text ("raw").
HOSTILE_JSON = st.one_of(
    st.sampled_from(
        [None, True, False, 0, -1, 1.5, "", "x", [], {}, [1, "a"], {"k": None}]
        + [2**31, 2**40, 2**63, 2**64 - 1, -(2**63) - 1, 1e308, -1e308, 5e-324]
        + ["\x00", "a\x00b", "<script>alert(1)</script>", "\u202e\u2028\ufeff", "🤖" * 50]
        + ["x" * 300, "y" * 100_000, "2026-13-45T99:99:99Z", "2026-11-02 12:00:00"]
    ),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
)
HOSTILE_RAW = st.sampled_from(
    [
        "1e400",
        "-1e400",
        "NaN",
        '"\\ud800"',
        '"a\\udfffb"',
        str(2**70),
        "[" * 300 + "]" * 300,
        "[" * 5000 + "]" * 5000,
        '{"a": 1, "a": 2}',
        "{" + '"k":' * 1 + "1",  # malformed
    ]
)
HOSTILE_BYTES = st.sampled_from(
    [b"", b"\xff\xfe\x00", b"\x00" * 10, "é".encode("latin-1"), b"x" * 2_000_000]
)


@st.composite
def mutations(draw, targets):
    # Every file is as likely as any other, whatever its size.
    name = draw(st.sampled_from(sorted(targets)))
    path = draw(st.sampled_from(targets[name]))
    if not name.endswith(".json"):
        return name, path, "bytes", draw(HOSTILE_BYTES)
    kind = draw(st.sampled_from(["value", "value", "raw", "raw", "delete"]))
    if kind == "value":
        return name, path, kind, draw(HOSTILE_JSON)
    if kind == "raw":
        return name, path, kind, draw(HOSTILE_RAW)
    return name, path, kind, None


def mutated_json(doc, path: tuple, kind: str, value) -> bytes:
    """``doc`` (changed in place) with the field at ``path`` deleted, given
    ``value``, or given the raw text ``value`` (``kind`` "raw"), as bytes."""
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if kind == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = RAW if kind == "raw" else value
    text = json.dumps(doc)
    if kind == "raw":
        text = text.replace(json.dumps(RAW), value, 1)
    return text.encode("utf-8", "surrogatepass")


def apply_mutation(root: Path, name: str, path: tuple, kind: str, value) -> None:
    file = root / name
    if kind == "bytes":
        file.write_bytes(value)
        return
    file.write_bytes(mutated_json(json.loads(file.read_text()), path, kind, value))


def media_state(root: Path) -> list[tuple[str, str]]:
    if not root.exists():
        return []
    return sorted(
        (p.relative_to(root).as_posix(), hashlib.sha256(p.read_bytes()).hexdigest())
        for p in root.rglob("*")
        if p.is_file()
    )


def every_address(bench: Bench) -> list[str]:
    b = bench.slug
    found = page_addresses(bench)
    found += [
        f"/data/v1/{b}/{name}" for name in ("manifest.json", "leaderboard.json", "matrix.json")
    ]
    found += [f"/data/v1/{b}/models/{m.slug}.json" for m in bench.models.all()]
    found += [f"/data/v1/{b}/tasks/{t.slug}.json" for t in bench.tasks.released()]
    found += [f"/api/{r}/?bench={b}" for r in ("models", "tasks", "attempts", "events", "requests")]
    return found


@pytest.mark.django_db
def test_a_mutated_release_imports_or_is_refused_leaving_everything_as_it_was(
    tiny_release, tmp_path, settings, client
):
    media = Path(settings.MEDIA_ROOT)
    with open_release(tiny_release) as source:
        write_release(source=source)
    targets = _targets(tiny_release)
    before_db, before_media = dump(), media_state(media)
    counter = iter(range(10**9))

    @PROFILE
    @given(mutation=mutations(targets))
    def check(mutation):
        name, path, kind, value = mutation
        note(f"{kind} {name} {path!r} = {value!r:.200}")
        root = tmp_path / f"case-{next(counter)}"
        shutil.copytree(tiny_release, root)
        apply_mutation(root, name, path, kind, value)
        # Each example starts from the imported tiny release again.
        with transaction.atomic():
            try:
                with open_release(root) as source:
                    result = write_release(source=source)
            except ImportRefused as refused:
                event("refused")
                problems = refused.plan.problems if refused.plan else []
                assert problems, "refused without saying why"
                assert all(p.file for p in problems), [str(p) for p in problems]
                assert dump() == before_db
                assert media_state(media) == before_media
            else:
                event("accepted")
                for address in every_address(result.bench):
                    response = client.get(address)
                    assert response.status_code == 200, address
                    body_of(response)  # a streamed body must stream to its end
            transaction.set_rollback(True)
        shutil.rmtree(root)

    check()
