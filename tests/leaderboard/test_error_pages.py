"""404 and 500 pages in the site's layout (DEBUG off, as in production)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

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
