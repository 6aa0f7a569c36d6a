"""Every format's attempt files, as its adapter builds them (with
formats.v1.attempt_files), come back from export_release equal as JSON (the
texts byte for byte), and the export imported into a fresh database exports
the same release again (docs/release-format.md)."""

from __future__ import annotations

import io
from contextlib import closing
from pathlib import Path

import orjson
import pytest
from django.core.management import call_command

from formats.sources import ImportOptions
from formats.sources.registry import ADAPTERS, open_sources
from formats.v1.files import ATTEMPT_FILES, JSON
from ingest.writing.export import release_export
from leaderboard.models import Bench
from samplegen.harbor import write_sample_harbor
from samplegen.inspect_logs import write_sample_inspect
from samplegen.swebench import write_sample_swebench
from samplegen.terminal_bench import write_sample_terminal_bench
from tests.factories import import_path
from tests.formats.leaderboards.fixtures import write_index, write_leaderboards
from tests.ingest.roundtrip import json_differences, release_differences
from trajectories.models import Blob

pytestmark = pytest.mark.django_db


def _harbor(root: Path) -> Path:
    write_sample_harbor(root / "jobs", tasks=4)
    (root / "jobs" / "models.json").unlink()
    return root / "jobs"


def _terminal_bench(root: Path) -> Path:
    write_sample_terminal_bench(root / "tb", tasks=3)
    return root / "tb"


def _inspect(root: Path) -> Path:
    write_sample_inspect(root / "logs")
    return root / "logs"


def _swebench_experiments(root: Path) -> Path:
    write_sample_swebench(root / "experiments", count=3)
    return root / "experiments" / "evaluation" / "verified"


# format -> writes a sample of it, returns the path to import. The
# swebench.com leaderboards and the OpenHands index share one writer
# (formats.sources.instances); each of their inputs holds several benches.
SAMPLES = {
    "harbor": _harbor,
    "terminal-bench": _terminal_bench,
    "inspect-logs": _inspect,
    "swebench-experiments": _swebench_experiments,
    "swebench-leaderboards": lambda root: write_leaderboards(root / "lb"),
    "openhands-index": lambda root: write_index(root / "index"),
}
JSON_FILES = {name for name, kind in ATTEMPT_FILES.items() if kind.content_type == JSON}


def test_every_format_that_writes_attempt_files_has_a_sample_here():
    assert set(SAMPLES) == set(ADAPTERS) - {"release"}


def _built(path: Path, fmt: str) -> dict[str, dict[str, dict[str, bytes]]]:
    """bench -> attempt folder -> its files, as the adapter builds them."""
    built: dict[str, dict[str, dict[str, bytes]]] = {}
    options = ImportOptions(bench="rt")
    for source in open_sources([path], options, adapter=ADAPTERS[fmt]):
        with closing(source):
            folders = built.setdefault(source.bench.id, {})
            for entry in source.attempts():
                folders[entry.path] = entry.folder.build()
    return built


def _exported(root: Path) -> dict[str, dict[str, bytes]]:
    folders: dict[str, dict[str, bytes]] = {}
    for path in sorted(root.glob("attempts/**/*")):
        if path.is_file():
            folder, name = path.parent.relative_to(root).as_posix() + "/", path.name
            folders.setdefault(folder, {})[name] = path.read_bytes()
    return folders


def _differences(built: dict[str, bytes], exported: dict[str, bytes]) -> list[str]:
    if set(built) != set(exported):
        return [f"files {sorted(built)} != {sorted(exported)}"]
    found = []
    for name, data in built.items():
        if name in JSON_FILES:
            found += json_differences(orjson.loads(data), orjson.loads(exported[name]), name)
        elif data != exported[name]:
            found.append(f"{name}: bytes differ")
    return found


@pytest.mark.parametrize("fmt", SAMPLES)
def test_an_imported_formats_attempt_files_export_as_built_and_reimport_identically(fmt, tmp_path):
    path = SAMPLES[fmt](tmp_path / "input")
    built = _built(path, fmt)
    # (A bench may have published figures only: swebench.com's Lite here.)
    assert any(built.values())
    call_command("import_results", str(path), bench="rt", format=fmt, stdout=io.StringIO())
    first = {}
    for bench, folders in built.items():
        first[bench] = tmp_path / "first" / bench
        release_export(bench=Bench.objects.get(slug=bench), root=first[bench])
        exported = _exported(first[bench])
        assert set(exported) == set(folders)
        for folder, files in folders.items():
            assert _differences(files, exported[folder]) == [], folder
    Bench.objects.all().delete()
    Blob.objects.all().delete()
    for bench, root in first.items():
        import_path(root)
        second = tmp_path / "second" / bench
        release_export(bench=Bench.objects.get(slug=bench), root=second)
        assert release_differences(root, second) == []
