"""Guards for the whole project: migrations, import direction, pages."""

import ast
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
# samplegen -> ingest -> trajectories -> leaderboard: an app may import only those
# after it. The sample generators come first: they write release folders (with
# leaderboard's scoring rules) for the demo and the tests, and no app serving the
# site may depend on them.
ORDER = ["samplegen", "ingest", "trajectories", "leaderboard"]


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration():
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)


def _imported_apps(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names & set(ORDER)


@pytest.mark.parametrize("app", ORDER)
def test_apps_import_only_in_the_allowed_direction(app):
    allowed = set(ORDER[ORDER.index(app) :])
    offenders = []
    for path in sorted((ROOT / app).rglob("*.py")):
        wrong = _imported_apps(path) - allowed
        if wrong:
            offenders.append(f"{path.relative_to(ROOT)} imports {sorted(wrong)}")
    assert offenders == []


def test_the_guard_sees_a_wrong_way_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from ingest.plan import build_plan\nimport trajectories.models\n")
    assert _imported_apps(bad) == {"ingest", "trajectories"}
