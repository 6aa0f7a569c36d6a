"""Playwright against Debian's Chromium, for the site's journeys."""

import os

import pytest

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
