"""Every page kind fits a 1366 px laptop and a 390 px phone: the page itself
never scrolls sideways (a wide table may scroll inside its own box), and the
few tables that must fit whole do (issue "Every control works, every page
fits", item 4)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import Page, expect

from leaderboard.models import Attempt, Bench
from samplegen.harbor import write_sample_harbor
from tests.factories import import_path

pytestmark = pytest.mark.browser

WIDTHS = (1366, 390)
# The longest task title of the sample jobs: one unbreakable word.
LONG_TASK = "speed-up-etl-checkpoint-resume-bug"


@pytest.fixture(scope="session")
def harbor_jobs(tmp_path_factory):
    root = tmp_path_factory.mktemp("harbor-fit") / "jobs"
    write_sample_harbor(root, tasks=8, passes=(4, 2), extra_trials=False)
    return root


@pytest.fixture
def benches(transactional_db, small_release_dir, harbor_jobs, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    v1 = import_path(small_release_dir).bench
    call_command(
        "import_harbor",
        str(harbor_jobs),
        bench="interaction-bench",
        models=str(harbor_jobs / "models.json"),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    return v1, Bench.objects.get(slug="interaction-bench")


def bench_pages(bench: Bench, task: str | None = None) -> dict[str, str]:
    """One address of every page kind of a bench, on a released attempt."""
    attempts = Attempt.objects.visible_to(None).filter(bench=bench).select_related("model", "task")
    first = attempts.filter(task__slug=task).first() if task else attempts.first()
    other = attempts.filter(task=first.task).exclude(pk=first.pk).first()
    b, m, t, o = bench.slug, first.model.slug, first.task.slug, other.model.slug
    return {
        "leaderboard": reverse("bench", args=[b]),
        "matrix": reverse("matrix", args=[b]),
        "tasks": reverse("tasks", args=[b]),
        "task": reverse("task", args=[b, t]),
        "about": reverse("about", args=[b]),
        "model": reverse("model", args=[b, m]),
        "versus-pick": reverse("versus-pick", args=[b, m]),
        "versus": reverse("versus", args=[b, m, o]),
        "attempt": reverse("attempt", args=[b, m, t]),
        "events": reverse("attempt-events", args=[b, m, t]),
        "event": reverse("attempt-event", args=[b, m, t, 1]),
        "transcript": reverse("attempt-transcript", args=[b, m, t]),
        "compare": reverse("compare", args=[b, t, m, o]),
        "search": reverse("search", args=[b]) + "?q=timeout",
        "tool-failures": reverse("analysis-tool-failures", args=[b]),
        "protocol": reverse("analysis-protocol", args=[b]),
        "data": reverse("data-bench", args=[b]),
    }


def every_page(v1: Bench, harbor: Bench) -> dict[str, str]:
    pages = {"home": reverse("home"), "data-root": reverse("data-root")}
    pages.update({f"v1 {k}": v for k, v in bench_pages(v1).items()})
    pages.update({f"harbor {k}": v for k, v in bench_pages(harbor, LONG_TASK).items()})
    pages.update({"api": "/api/", "api-docs": "/api/docs/", "not-found": "/no-such-bench/"})
    return pages


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_scrolls_sideways(page: Page, live_server, benches, width):
    page.set_viewport_size({"width": width, "height": 900})
    wide = {}
    for name, address in every_page(*benches).items():
        page.goto(live_server.url + address)
        if name == "api-docs":
            page.wait_for_selector(".swagger-ui .info")
        scroll, client = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        if scroll > client:
            wide[name] = scroll
            page.screenshot(path=f"test-results/overflow-{width}-{name.replace(' ', '-')}.png")
    assert wide == {}


def test_the_v1_leaderboard_shows_every_column_at_1366px(page: Page, live_server, benches):
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(live_server.url + reverse("bench", args=[benches[0].slug]))
    box = page.locator(".table-scroll").first
    scroll, client = box.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert scroll <= client, (scroll, client)
    expect(page.get_by_role("columnheader", name="Flagged")).to_be_in_viewport()


def test_the_harbor_checks_table_fits_and_names_each_level_once(page: Page, live_server, benches):
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(live_server.url + reverse("task", args=[benches[1].slug, LONG_TASK]))
    checks = page.locator("section.checks .table-scroll")
    scroll, client = checks.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert scroll <= client, (scroll, client)
    first = checks.locator("tbody tr").first
    expect(first.locator("td").nth(1)).to_have_text("test")
    expect(first.locator("td").nth(2)).to_have_text("optional")


def test_the_attempt_section_bar_shows_every_section_on_a_phone(page: Page, live_server, benches):
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(live_server.url + bench_pages(benches[1], LONG_TASK)["attempt"])
    bar = page.locator("nav.section-bar")
    right = bar.evaluate("el => el.getBoundingClientRect().right")
    for label in ("Verdict", "Patch", "Vendor log", "Trajectory"):
        link = bar.get_by_role("link", name=label)
        box = link.bounding_box()
        assert box["x"] + box["width"] <= right + 0.5, label
    # The counts' units are there for screen readers.
    expect(bar.get_by_role("link", name="Vendor log")).to_contain_text("requests")


def test_the_versus_page_shows_the_differences_on_a_phone(page: Page, live_server, benches):
    page.set_viewport_size({"width": 390, "height": 800})
    for bench in benches:
        page.goto(live_server.url + bench_pages(bench)["versus"])
        for table in ("table.versus-surfaces", "table.versus-tasks"):
            heading = page.locator(table).get_by_role("columnheader", name="difference")
            box = heading.first.bounding_box()
            assert box["x"] + box["width"] <= 390, (bench.slug, table, box)
