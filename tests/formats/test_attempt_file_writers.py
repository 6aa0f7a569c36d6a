"""No module outside formats/v1 writes an attempt file's JSON by hand: every
writer builds them with formats.v1.attempt_files (and the derived documents
with formats.v1.documents), so the writers cannot drift apart.

Read from the source (AST), three signs of a document written by hand:

- a dict with a ``"schema"`` key set to the format's version (``SCHEMA`` or
  ``"v1"``): a v1 document put together field by field;
- a dict holding every required field of one of the attempt files' objects,
  as the reader (``formats.v1.schema``) names them: a summary, its counts,
  cost, timing or hashes, a verdict or one of its checks, a trajectory's head,
  a vendor log's entry;
- a JSON attempt file's name as the key a call's result is stored under
  (``files["verdict.json"] = dump(...)``, ``{"summary.json": dump(...)}``):
  ``folder_files`` names the files;
- a document read joined again with the list kept apart from it
  (``{**head, "checks": rows}``): the ``*_again`` builders do that.
"""

import ast
from pathlib import Path

from formats.v1 import schema
from formats.v1.files import ATTEMPT_FILES, JSON

ROOT = Path(__file__).resolve().parents[2]
BUILDERS = "formats/v1/"
# Modules that may, and why. Each must still need it (see the test below).
ALLOWED = {
    "trajectories/mirror/revisions.py": (
        "revisions.json is the mirror's own list of recorded revisions, not a release file"
    ),
}
# The attempt files' objects whose required fields mark a hand-written one.
# A grader ({name, version}) is left out: every package's metadata has that
# shape. A vendor log's own object has one field, and its "schema" key tells.
OBJECTS = (
    schema.SummaryDoc,
    schema.CheckCountsDoc,
    schema.CostDoc,
    schema.TimingDoc,
    schema.HashesDoc,
    schema.VerdictDoc,
    schema.VerdictCheckDoc,
    schema.TrajectoryHeadDoc,
    schema.VendorEntryDoc,
)
JSON_FILES = {name for name, kind in ATTEMPT_FILES.items() if kind.content_type == JSON}
# The lists the database keeps apart from the document they belong to.
KEPT_APART = {"checks", "events", "vendors"}


def _required(model) -> frozenset[str]:
    fields = model.model_fields.items()
    return frozenset(f.alias or n for n, f in fields if f.is_required()) - {"schema"}


SHAPES = {model.__name__: _required(model) for model in OBJECTS}


def _is_version(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value == "v1"
    return (isinstance(node, ast.Name) and node.id == "SCHEMA") or (
        isinstance(node, ast.Attribute) and node.attr == "SCHEMA"
    )


def _entries(node: ast.AST) -> list[tuple[str, ast.AST]]:
    """(key, value) of a dict display or a ``dict(key=value)`` call."""
    if isinstance(node, ast.Dict):
        return [
            (k.value, v)
            for k, v in zip(node.keys, node.values, strict=True)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)
        ]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        return [(k.arg, k.value) for k in node.keywords if k.arg]
    return []


def hand_written(source: str, label: str) -> list[str]:
    """Where ``source`` writes an attempt file's JSON by hand, as "label:line: what"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        entries = _entries(node)
        keys = {key for key, _ in entries}
        if any(key == "schema" and _is_version(value) for key, value in entries):
            found.append((node.lineno, "a v1 document (its 'schema' key)"))
        for name, shape in SHAPES.items():
            if shape <= keys:
                found.append((node.lineno, f"a {name} object"))
        joined = isinstance(node, ast.Dict) and None in node.keys and len(entries) == 1
        if joined and entries[0][0] in KEPT_APART:
            found.append((node.lineno, f"a document joined again with its {entries[0][0]}"))
        for key, value in entries:
            if key in JSON_FILES and isinstance(value, ast.Call):
                found.append((node.lineno, f"{key} written"))
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            for target in node.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.slice, ast.Constant)
                    and target.slice.value in JSON_FILES
                ):
                    found.append((node.lineno, f"{target.slice.value} written"))
    return [f"{label}:{line}: {what}" for line, what in sorted(found)]


def _modules(root: Path) -> list[tuple[str, Path]]:
    """The project's Python modules but its tests and migrations."""
    packages = [
        p
        for p in sorted(root.iterdir())
        if p.is_dir() and not p.name.startswith(".") and p.name != "tests" and any(p.glob("*.py"))
    ]
    return [
        (path.relative_to(root).as_posix(), path)
        for package in packages
        for path in sorted(package.rglob("*.py"))
        if "migrations" not in path.relative_to(root).parts
    ]


def _findings(root: Path) -> dict[str, list[str]]:
    found = {}
    for label, path in _modules(root):
        if label.startswith(BUILDERS):
            continue
        hits = hand_written(path.read_text(encoding="utf-8"), label)
        if hits:
            found[label] = hits
    return found


def test_every_writer_of_an_attempt_file_builds_it_with_the_formats_builders():
    found = _findings(ROOT)
    assert {label: hits for label, hits in found.items() if label not in ALLOWED} == {}
    # An exception nothing needs any more goes.
    assert sorted(found.keys() & ALLOWED.keys()) == sorted(ALLOWED)


def test_the_scan_sees_every_writer_of_attempt_files():
    labels = {label for label, _ in _modules(ROOT)}
    for writer in (
        "formats/sources/harbor/attempts.py",
        "formats/sources/instances.py",
        "samplegen/attempts.py",
        "trajectories/documents.py",
        "formats/v1/attempt_files.py",
    ):
        assert writer in labels
    assert not any(label.startswith("tests/") or "/migrations/" in label for label in labels)


HAND_WRITTEN = """
from formats.v1 import SCHEMA

def attempt(model, task, events, dump, head, rows):
    summary = {
        "schema": SCHEMA, "bench": "b", "model": model, "task": task, "harness": "h",
        "score": 1.0, "scoring_rule": "pass-fail", "flags": [],
        "checks": {"total": 1, "passed": 1, "failed": 0, "mandatory_failed": 0},
        "cost": {"usd": None, "input_tokens": 0, "output_tokens": 0},
        "timing": dict(started_at="", finished_at="", duration_s=0),
        "hashes": {"task_tree": "", "harness_tree": ""},
        "provenance": {},
    }
    check = {"name": "c", "level": "L1", "mandatory": False, "passed": True}
    files = {"summary.json": dump(summary), "problem.md": dump("ticket")}
    files["trajectory.json"] = dump({"harness": "h", "model": model, "events": events})
    files["vendor-requests.json"] = dump(dict(schema="v1", vendors={}))
    verdict = {**head, "checks": rows}
    return files, check, verdict
"""

BUILT = """
from formats.v1 import attempt_files as v1

def attempt(summary, loaded, dump):
    files = v1.folder_files(dump, summary=summary, problem="ticket")
    verdict = loaded["verdict.json"]  # read, not written
    names = {"summary.json": "summary", "schema": "api-schema"}
    context = {**names, "vendors": [], "attempt": verdict}
    return files, verdict, names, context
"""


def test_the_guard_names_each_hand_written_document_and_passes_built_ones():
    assert hand_written(HAND_WRITTEN, "m.py") == [
        "m.py:5: a SummaryDoc object",
        "m.py:5: a v1 document (its 'schema' key)",
        "m.py:8: a CheckCountsDoc object",
        "m.py:9: a CostDoc object",
        "m.py:10: a TimingDoc object",
        "m.py:11: a HashesDoc object",
        "m.py:14: a VerdictCheckDoc object",
        "m.py:15: summary.json written",
        "m.py:16: a TrajectoryHeadDoc object",
        "m.py:16: trajectory.json written",
        "m.py:17: a v1 document (its 'schema' key)",
        "m.py:17: vendor-requests.json written",
        "m.py:18: a document joined again with its checks",
    ]
    assert hand_written(BUILT, "ok.py") == []


def test_the_scan_skips_the_builders_tests_and_migrations_only(tmp_path):
    for label in (
        "formats/v1/attempt_files.py",
        "tests/formats/test_x.py",
        "ingest/migrations/0001_initial.py",
        "samplegen/attempts.py",
    ):
        path = tmp_path / label
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(HAND_WRITTEN)
    (tmp_path / "formats" / "__init__.py").write_text("")
    (tmp_path / "samplegen" / "__init__.py").write_text("")
    assert list(_findings(tmp_path)) == ["samplegen/attempts.py"]
