"""The benchmarks' database of one synthetic attempt per size: set up Django on
``database_url`` and import, through the recorded door, a release of
``events=n`` for each size not already there (bench ``<prefix><n>``)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def sized_benches(
    database_url: str, sizes: list[int], workdir: Path, *, prefix: str, models: int = 1
) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["MEDIA_ROOT"] = str(workdir / "media")
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,testserver,localhost")
    import django

    django.setup()
    from django.core.management import call_command

    from benchmarks.recorded import import_recorded
    from leaderboard.models import Bench
    from samplegen.release import generate_release

    call_command("migrate", verbosity=0)
    for n in sizes:
        if Bench.objects.filter(slug=f"{prefix}{n}").exists():
            continue
        started = time.perf_counter()
        release = workdir / f"release-{n}"
        if not release.exists():
            generate_release(
                release, models=models, tasks=1, released=1, events=n, seed=11, bench=f"{prefix}{n}"
            )
        import_recorded(release)
        print(f"{n:>7} events: imported in {time.perf_counter() - started:.1f}s", flush=True)
