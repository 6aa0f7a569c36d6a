"""Inside ingest, imports point down: admin → commands → running → writing →
reading → the base (models, progress, routers), as between the apps."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Top first: a layer may import only itself and those after it. apps.py wires
# the app together (it registers the Harbor adapter) and is in no layer.
LAYERS = {
    "admin": ("ingest.admin",),
    "commands": ("ingest.management",),
    "running": ("ingest.running",),
    "writing": ("ingest.writing",),
    "reading": ("ingest.reading",),
    "base": ("ingest.models", "ingest.progress", "ingest.routers", "ingest.migrations"),
}
ORDER = list(LAYERS)


def _layer(module: str) -> str | None:
    for layer, prefixes in LAYERS.items():
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return layer
    return None


def _module_of(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def upward_imports(root: Path) -> list[str]:
    wrong = []
    for path in sorted((root / "ingest").rglob("*.py")):
        module = _module_of(path, root)
        mine = _layer(module)
        if mine is None:
            continue
        for name in sorted(_imports(path)):
            theirs = _layer(name)
            if theirs is not None and ORDER.index(theirs) < ORDER.index(mine):
                wrong.append(f"{module} ({mine}) imports {name} ({theirs})")
    return wrong


def test_every_module_of_ingest_is_in_a_layer():
    loose = [
        _module_of(p, ROOT)
        for p in sorted((ROOT / "ingest").rglob("*.py"))
        if _layer(_module_of(p, ROOT)) is None
    ]
    assert loose == ["ingest", "ingest.apps"]


def test_imports_inside_ingest_point_down():
    assert upward_imports(ROOT) == []


def test_the_guard_sees_an_upward_import(tmp_path):
    (tmp_path / "ingest" / "reading").mkdir(parents=True)
    (tmp_path / "ingest" / "reading" / "bad.py").write_text(
        "from ingest.running.imports import run_import\nfrom ingest.models import ImportRecord\n"
    )
    (tmp_path / "ingest" / "running").mkdir()
    (tmp_path / "ingest" / "running" / "fine.py").write_text("from ingest.reading import plan\n")
    assert upward_imports(tmp_path) == [
        "ingest.reading.bad (reading) imports ingest.running.imports (running)",
        "ingest.reading.bad (reading) imports ingest.running.imports.run_import (running)",
    ]
