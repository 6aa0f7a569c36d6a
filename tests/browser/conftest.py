"""Playwright against Debian's Chromium, for the site's journeys."""

import io
import os

import pytest
from django.core.management import call_command

from leaderboard.models import Bench
from samplegen.harbor import write_sample_harbor
from tests.factories import import_path

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session", autouse=True)
def _allow_async_unsafe():
    # Playwright's sync API runs an event loop in this thread; Django's async
    # safety check would refuse the live_server's database access.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def site_harbor_jobs(tmp_path_factory):
    root = tmp_path_factory.mktemp("harbor-fit") / "jobs"
    # Three models: two verified, one not (samplegen.harbor.FACTS).
    write_sample_harbor(root, tasks=8, passes=(4, 2, 1), extra_trials=False)
    return root


@pytest.fixture
def site_benches(transactional_db, small_release_dir, site_harbor_jobs, settings, tmp_path):
    """The small v1 release and the sample Harbor jobs, imported side by side."""
    settings.MEDIA_ROOT = tmp_path / "media"
    v1 = import_path(small_release_dir).bench
    call_command(
        "import_harbor",
        str(site_harbor_jobs),
        bench="interaction-bench",
        models=str(site_harbor_jobs / "models.json"),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    return v1, Bench.objects.get(slug="interaction-bench")
