"""The attempt page: header, verdict and its L2 join, trajectory, search, patch, visibility."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse
from django.utils.html import escape

from leaderboard.models import Attempt
from leaderboard.services import batch_publish
from trajectories.render.highlight import stylesheet
from trajectories.search.query import words
from trajectories.views.attempt import EVENTS_MARK

pytestmark = pytest.mark.django_db


def page_url(attempt: Attempt, **params) -> str:
    url = reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def body(response) -> str:
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode()


def released(**filters) -> Attempt:
    return (
        Attempt.objects.released()
        .filter(task__batch__live=True, **filters)
        .select_related("bench", "model", "task", "evidence")
        .order_by("evidence__events_total", "pk")
        .first()
    )


def longest() -> Attempt:
    return (
        Attempt.objects.released()
        .select_related("bench", "model", "task", "evidence")
        .order_by("-evidence__events_total", "pk")
        .first()
    )


def test_every_event_has_its_anchor_and_a_link_to_itself(client, bench):
    attempt = released()
    html = body(client.get(page_url(attempt)))
    ids = re.findall(r'<li class="ev [^"]*" id="e(\d+)"', html)
    assert [int(i) for i in ids] == list(range(attempt.evidence.events_total))
    assert all(f'href="#e{i}"' in html for i in ids)
    assert EVENTS_MARK not in html


def test_the_page_has_one_h1_breadcrumbs_a_body_class_and_its_json_twin(client, bench):
    attempt = released()
    html = body(client.get(page_url(attempt)))
    assert html.count("<h1") == 1
    assert 'class="page-attempt"' in html
    assert 'aria-label="Breadcrumbs"' in html
    twin = reverse(
        "mirror-attempt-file",
        args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug, "summary.json"],
    )
    assert (
        f'<link rel="alternate" type="application/json" title="summary.json" href="{twin}">' in html
    )
    for name in ("model", "task"):
        slug = getattr(attempt, name).slug
        assert reverse(name, args=[attempt.bench.slug, slug]) in html


def test_query_count_does_not_grow_with_the_trajectory(client, bench, django_assert_num_queries):
    short, long = released(), longest()
    assert long.evidence.events_total > 5 * short.evidence.events_total
    for attempt in (short, long):
        # 1 the attempt with bench, model, task, batch, evidence and patch (visibility
        #   as a subquery); 2 its vendor requests; 3 its check results; 4 the first
        #   slice's events (previews). The first failures and errors were kept at import.
        with django_assert_num_queries(4):
            body(client.get(page_url(attempt)))


def _holds_word(event, word: str) -> bool:
    """Whether an event's text, output, tool or input has a word ``word`` begins
    (the search finds ``refunds`` for ``refund``)."""
    fields = [event.text or "", event.output or "", event.tool, json.dumps(event.doc.get("input"))]
    return any(w.casefold().startswith(word) for f in fields for w in words(f))


def test_search_adds_its_queries_and_lists_matching_events_with_links(
    client, bench, django_assert_num_queries
):
    attempt = longest()
    # 1-4 as above; then the events longer than the index holds (none here),
    # the count, the page of matches and their snippets; on SQLite first the
    # attempt's id range, which FTS5 walks (the count then comes from FTS5
    # when the range holds only the attempt's events).
    extra = 5 if connection.vendor == "sqlite" else 4
    with django_assert_num_queries(4 + extra):
        html = body(client.get(page_url(attempt, q="pytest")))
    results = html.split('aria-label="Search results"', 1)[1].split("</section>", 1)[0]
    linked = [int(i) for i in re.findall(r'<a href="#e(\d+)">', results)]
    expected = [e.index for e in attempt.events.order_by("index") if _holds_word(e, "pytest")]
    assert linked == expected[: len(linked)] and linked
    assert f"{len(expected)} event{'s' if len(expected) > 1 else ''} match" in results
    assert "<mark>pytest</mark>" in results.lower()


def test_search_finds_text_in_collapsed_reasoning(client, bench):
    attempt = Attempt.objects.filter(events__type="reasoning").first()
    reasoning = attempt.events.filter(type="reasoning").order_by("-index").first()
    word = reasoning.text.split()[-1].strip(".,")
    html = body(client.get(page_url(attempt, q=word)))
    assert f">#{reasoning.index}</a>" in html


def test_search_counts_every_match_and_pages_through_them_without_script(client, bench, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "search_max_results": 2}
    attempt = longest()
    expected = [e.index for e in attempt.events.order_by("index") if _holds_word(e, "the")]
    assert len(expected) > 4
    seen, url = [], page_url(attempt, q="the")
    while url:
        html = body(client.get(url))
        results = html.split('aria-label="Search results"', 1)[1].split("</section>", 1)[0]
        assert f"{len(expected)} events match" in results
        seen += [int(i) for i in re.findall(r'<li data-index="(\d+)">', results)]
        later = re.search(r'<a href="([^"]+)#search" rel="next">Later matches', results)
        url = page_url(attempt) + later.group(1).replace("&amp;", "&") if later else None
    assert seen == expected
    # And back: the page before the last match holds the two before it.
    html = body(client.get(page_url(attempt, q="the", before=expected[-1])))
    assert re.findall(r'<li data-index="(\d+)">', html) == [str(i) for i in expected[-3:-1]]
    assert f"these are matches {len(expected) - 2}–{len(expected) - 1}" in html


def test_the_search_escapes_the_query_and_its_snippets(client, bench):
    html = body(client.get(page_url(longest(), q="%<zqxj>_")))
    assert "<q>%&lt;zqxj&gt;_</q>" in html
    assert "0 events match" in html


def test_an_l2_check_links_to_the_requests_it_names_and_they_link_back(client, bench):
    attempt = (
        Attempt.objects.filter(
            check_results__level="L2", check_results__vendor_requests__isnull=False
        )
        .distinct()
        .first()
    )
    check = attempt.check_results.filter(level="L2", vendor_requests__isnull=False).first()
    html = body(client.get(page_url(attempt)))
    check_li = html.split(f'<li id="check-{check.position}"', 1)[1].split("</li>", 1)[0]
    for request in check.vendor_requests.all():
        anchor = f"req-{request.vendor}-{request.request_id}"
        assert f'href="#{anchor}"' in check_li
        request_li = html.split(f'<li id="{anchor}"', 1)[1].split("</li>", 1)[0]
        assert f'href="#check-{check.position}"' in request_li
        assert check.name in request_li


def test_checks_are_grouped_by_level_with_mandatory_marked(client, bench):
    attempt = released(checks_total__gt=0)
    html = body(client.get(page_url(attempt)))
    levels = re.findall(r'<section class="level">\s*<h3>(\w+)', html)
    assert levels[: len([lvl for lvl in ("L1", "L2", "L3") if lvl in levels])] == [
        lvl for lvl in ("L1", "L2", "L3") if lvl in levels
    ]
    mandatory = attempt.check_results.filter(mandatory=True).count()
    assert html.count('class="badge badge-mandatory"') == mandatory


def test_a_matching_score_has_no_warning(client, bench):
    attempt = released()
    assert not attempt.disagrees
    assert "Scores differ." not in body(client.get(page_url(attempt)))


def test_long_output_is_cut_to_the_preview_with_the_full_text_one_click_away(
    client, bench, settings
):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "event_preview_chars": 20}
    attempt = longest()
    event = attempt.events.filter(output__regex=r"^.{40}").order_by("index").first()
    html = body(client.get(page_url(attempt)))
    li = html.split(f'id="e{event.index}"', 1)[1].split("</li>", 1)[0]
    full = f"{page_url(attempt)}events/{event.index}/"
    assert f'<a class="full" href="{full}">Full output' in li
    shown = re.search(r'<pre class="ev-out" dir="auto">(.*?)</pre>', li, re.S).group(1)
    assert shown == escape(event.output[:20]) + "…"
    full_page = client.get(full).content.decode()
    assert full_page.count("<h1") == 1
    assert escape(event.output) in full_page


def test_a_call_that_never_returned_is_shown_as_such(client, bench):
    attempt = Attempt.objects.filter(events__type="tool_call", events__ok__isnull=True).first()
    event = attempt.events.filter(type="tool_call", ok__isnull=True).first()
    # On the page as sent, or in its slice, with the same markup.
    slice_size = settings.BENCHVIEW_LIMITS["event_slice_size"]
    start = event.index // slice_size * slice_size
    html = body(client.get(page_url(attempt) + f"events/?from={start}"))
    li = html.split(f'id="e{event.index}"', 1)[1].split("</li>", 1)[0]
    assert "never returned" in li and "ev-problem" in html.split(f'id="e{event.index}"')[0][-80:]


def test_a_command_is_shown_as_a_command_and_other_input_as_json(client, bench):
    attempt = longest()
    html = body(client.get(page_url(attempt)))
    assert '<pre class="ev-cmd"><span class="prompt" aria-hidden="true">$ </span>' in html
    assert '<pre class="ev-input">{' in html


def test_the_patch_is_shown_per_file_unified_and_side_by_side(client, bench):
    attempt = released(evidence__patch__isnull=False)
    unified = body(client.get(page_url(attempt)))
    split = body(client.get(page_url(attempt, view="split")))
    assert 'class="diff diff-unified hl"' in unified and 'class="diff diff-split hl"' in split
    first_file = attempt.evidence.patch.text().split("\n", 1)[0].split(" b/", 1)[1]
    assert first_file in unified
    assert '<span class="k">' in unified or '<span class="n">' in unified  # Pygments classes


def test_the_pygments_stylesheet_is_the_generated_one():
    from django.conf import settings

    path = settings.BASE_DIR / "static" / "css" / "attempt-pygments.css"
    assert path.read_text() == stylesheet()


def test_staged_attempts_are_404_to_the_public_and_shown_to_staff(client, admin_client, bench):
    attempt = released()
    batch_publish(batch=attempt.task.batch, live=False)
    assert client.get(page_url(attempt)).status_code == 404
    assert admin_client.get(page_url(attempt)).status_code == 200
    event_url = f"{page_url(attempt)}events/0/"
    assert client.get(event_url).status_code == 404
    assert admin_client.get(event_url).status_code == 200


def test_attempts_of_tasks_in_no_batch_are_404_to_everyone(admin_client, bench):
    attempt = (
        Attempt.objects.filter(task__batch__isnull=True)
        .select_related("bench", "model", "task")
        .first()
    )
    assert admin_client.get(page_url(attempt)).status_code == 404


def test_unknown_attempts_and_events_are_404(client, bench):
    attempt = released()
    assert (
        client.get(
            reverse("attempt", args=[attempt.bench.slug, "nobody", attempt.task.slug])
        ).status_code
        == 404
    )
    assert client.get(f"{page_url(attempt)}events/999999/").status_code == 404
