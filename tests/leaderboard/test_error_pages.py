"""404 and 500 pages in the site's layout (DEBUG off, as in production)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import get_resolver, reverse

from leaderboard.models import Attempt, Task
from tests.factories import h1_count

pytestmark = pytest.mark.django_db


def test_an_unknown_address_gets_the_site_404_page_with_a_way_home(client, bench, settings):
    settings.DEBUG = False
    response = client.get("/no-such-bench/matrix/")
    assert response.status_code == 404
    html = response.content.decode()
    assert h1_count(html) == 1
    assert "<h1>Not found</h1>" in html
    assert 'class="site-header"' in html
    assert f'href="{reverse("home")}"' in html


def test_an_unreleased_task_the_matrix_lists_says_it_is_not_released_yet(client, bench, settings):
    settings.DEBUG = False
    task = Task.objects.filter(bench=bench, batch__isnull=True).first()
    attempt = Attempt.objects.filter(task=task).select_related("model").first()
    for address in (
        reverse("task", args=[bench.slug, task.slug]),
        reverse("attempt", args=[bench.slug, attempt.model.slug, task.slug]),
    ):
        response = client.get(address)
        assert response.status_code == 404, address
        html = response.content.decode()
        assert "<h1>Not released yet</h1>" in html
        assert task.title in html
        # Still nothing of the detail: no ticket text, no check names.
        if task.ticket.strip():
            assert task.ticket.strip()[:40] not in html
        assert "Checks passed" not in html


def test_a_staged_task_says_not_released_yet_to_the_public(client, bench, settings):
    settings.DEBUG = False
    task = Task.objects.filter(bench=bench, batch__live=True).select_related("batch").first()
    task.batch.live = False
    task.batch.save()
    html = client.get(reverse("task", args=[bench.slug, task.slug])).content.decode()
    assert "<h1>Not released yet</h1>" in html


def test_a_released_task_of_a_mistyped_model_is_plainly_not_found(client, bench, settings):
    settings.DEBUG = False
    task = Task.objects.filter(bench=bench, batch__live=True).first()
    response = client.get(reverse("attempt", args=[bench.slug, "no-such-model", task.slug]))
    assert response.status_code == 404
    assert "<h1>Not found</h1>" in response.content.decode()


def test_a_server_error_gets_the_site_500_page(bench, settings, monkeypatch):
    settings.DEBUG = False

    def broken(slug):
        raise RuntimeError("the database went away")

    # The leaderboard view looks its bench up through this function.
    monkeypatch.setattr("leaderboard.queries.bench_or_404", broken)
    response = Client(raise_request_exception=False).get(reverse("bench", args=[bench.slug]))
    assert response.status_code == 500
    html = response.content.decode()
    assert h1_count(html) == 1
    assert "Something went wrong" in html
    assert 'class="site-header"' in html
    assert f'href="{reverse("home")}"' in html


def test_with_debug_on_the_404s_are_the_sites_own_pages_never_the_url_list(client, bench, settings):
    settings.DEBUG = True
    unreleased = Task.objects.filter(bench=bench, batch__isnull=True).first()
    pages = {
        "/no-such-bench/matrix/": "<h1>Not found</h1>",  # no pattern matches
        f"/{bench.slug}/models/no-such-model/": "<h1>Not found</h1>",  # the view says 404
        reverse("task", args=[bench.slug, unreleased.slug]): "<h1>Not released yet</h1>",
    }
    for address, heading in pages.items():
        response = client.get(address)
        assert response.status_code == 404, address
        html = response.content.decode()
        assert heading in html, address
        assert "URLconf" not in html and "rslug" not in html, address
    # The slash is still appended where that finds a page.
    assert client.get(f"/{bench.slug}/matrix").status_code == 301


# Every page of a task (its address names a bench and a task): the 404 of each
# says "Not released yet" while the task's batch is not live.
TASK_PAGES = {
    "task": {},
    "task-compare-pick": {},
    "compare": {"model_a": "model", "model_b": "model"},
    "attempt": {"model": "model"},
    "attempt-events": {"model": "model"},
    "attempt-event": {"model": "model", "index": 0},
    "attempt-transcript": {"model": "model"},
    "attempt-search": {"model": "model"},
    "attempt-trial": {"model": "model", "trial": 1},
    "attempt-trial-events": {"model": "model", "trial": 1},
    "attempt-trial-event": {"model": "model", "trial": 1, "index": 0},
    "attempt-trial-transcript": {"model": "model", "trial": 1},
    "attempt-trial-search": {"model": "model", "trial": 1},
}


def _routes_naming_a_task() -> set[str]:
    found = set()

    def walk(patterns, prefix=""):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns, prefix + str(p.pattern))
                continue
            route = prefix + str(p.pattern)
            if "<rslug:bench>" in route and "<rslug:task>" in route:
                found.add((route, p.name))

    walk(get_resolver().url_patterns)
    return {name for route, name in found if not route.startswith(("data/", "api/"))}


def test_the_list_here_holds_every_task_page_the_site_has():
    assert _routes_naming_a_task() == set(TASK_PAGES)


@pytest.mark.parametrize("debug", [False, True])
def test_every_page_of_an_unreleased_task_says_not_released_yet(client, bench, settings, debug):
    settings.DEBUG = debug
    task = Task.objects.filter(bench=bench, batch__isnull=True).first()
    model = Attempt.objects.filter(task=task).select_related("model").first().model.slug
    for name, extra in TASK_PAGES.items():
        kwargs = {"bench": bench.slug, "task": task.slug}
        kwargs.update({k: model if v == "model" else v for k, v in extra.items()})
        address = reverse(name, kwargs=kwargs)
        # The compare picker without a pick redirects to the task page's picker.
        response = client.get(address, follow=True)
        assert response.status_code == 404, address
        html = response.content.decode()
        assert "<h1>Not released yet</h1>" in html, address
        assert task.title in html, address
