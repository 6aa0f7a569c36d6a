"""Guards for the whole project: migrations, import direction, pages."""

import ast
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
# samplegen -> ingest -> trajectories -> leaderboard -> core: an app may import
# only those after it. The sample generators come first: they write release
# folders (with leaderboard's scoring rules) for the demo and the tests, and no
# app serving the site may depend on them. core (site-level: middleware, caches,
# errors, helpers) is last: every app may import it, it imports no app and
# reaches them only through the hooks settings name (BENCHVIEW_HOOKS).
ORDER = ["samplegen", "ingest", "trajectories", "leaderboard", "core"]


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


def test_core_imports_no_app_and_every_app_may_import_it(tmp_path):
    assert ORDER[-1] == "core"
    bad = tmp_path / "bad.py"
    bad.write_text("from leaderboard.models import Generation\nfrom core import jsonsafe\n")
    assert _imported_apps(bad) - set(ORDER[ORDER.index("core") :]) == {"leaderboard"}


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _ground_floor_offenders(root: Path) -> list[str]:
    """Modules of formats/ importing an app or Django's ORM (or anything of Django's
    but its settings): the release format is read and written without them."""
    offenders = []
    for path in sorted((root / "formats").rglob("*.py")):
        wrong = {
            name
            for name in _imported_modules(path)
            if name.split(".")[0] in ORDER
            or (name.split(".")[0] == "django" and name != "django.conf")
        }
        if wrong:
            offenders.append(f"{path.relative_to(root).as_posix()} imports {sorted(wrong)}")
    return offenders


def test_formats_imports_no_app_and_no_orm():
    assert (ROOT / "formats").is_dir()
    assert _ground_floor_offenders(ROOT) == []


def test_the_ground_floor_guard_sees_an_app_or_the_orm(tmp_path):
    (tmp_path / "formats" / "v1").mkdir(parents=True)
    (tmp_path / "formats" / "v1" / "bad.py").write_text(
        "from leaderboard.scoring import RULES\nfrom django.db import models\n"
    )
    (tmp_path / "formats" / "fine.py").write_text(
        "from django.conf import settings\nimport orjson\n"
    )
    assert _ground_floor_offenders(tmp_path) == [
        "formats/v1/bad.py imports ['django.db', 'leaderboard.scoring']"
    ]


def test_the_guard_sees_a_wrong_way_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from ingest.reading.plan import build_plan\nimport trajectories.models\n")
    assert _imported_apps(bad) == {"ingest", "trajectories"}


# "Small files with one job" (the house style): past this a module is doing
# several, and is split by job. Migrations are generated; tests are not modules.
MAX_MODULE_LINES = 450
PACKAGES = ["ingest", "trajectories", "leaderboard", "samplegen", "core", "config", "benchmarks"]


PACKAGES = ["formats", "ingest", "trajectories", "leaderboard", "samplegen", "config", "benchmarks"]


def _long_modules(root: Path) -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root)
            if "migrations" in relative.parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_MODULE_LINES:
                found.append(f"{relative.as_posix()}: {lines} lines")
    return found


def test_no_module_outside_migrations_and_tests_is_over_450_lines():
    assert _long_modules(ROOT) == []


def test_the_length_guard_names_each_long_module_and_skips_migrations(tmp_path):
    (tmp_path / "ingest" / "migrations").mkdir(parents=True)
    (tmp_path / "ingest" / "long.py").write_text("x = 1\n" * 451)
    (tmp_path / "ingest" / "fine.py").write_text("x = 1\n" * 450)
    (tmp_path / "ingest" / "migrations" / "0001_initial.py").write_text("x = 1\n" * 900)
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "slow.py").write_text("x = 1\n" * 460)
    assert _long_modules(tmp_path) == ["ingest/long.py: 451 lines", "benchmarks/slow.py: 460 lines"]
