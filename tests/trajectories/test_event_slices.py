"""Trajectory slices (…/events/?from=N): the attempt page's event markup in
stable, ETag'd pieces, as a page and as a fragment."""

from __future__ import annotations

import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leaderboard.models import Attempt
from tests.ingest.harbor_trials import import_harbor, job, trial
from trajectories.models import Event

pytestmark = pytest.mark.django_db

SIZE = 5


@pytest.fixture(autouse=True)
def small_slices(settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "event_slice_size": SIZE}


def attempts(order: str) -> Attempt:
    return (
        Attempt.objects.released()
        .filter(task__batch__live=True)
        .select_related("bench", "model", "task", "evidence")
        .order_by(order, "pk")
        .first()
    )


def slice_url(attempt: Attempt, **params) -> str:
    url = reverse(
        "attempt-events", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug]
    )
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def anchors(html: str) -> list[int]:
    return [int(i) for i in re.findall(r'<li class="ev [^"]*" id="e(\d+)"', html)]


def page_html(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return (
        b"".join(response.streaming_content) if response.streaming else response.content
    ).decode()


def test_a_slice_holds_its_events_with_the_attempt_pages_markup(client, bench):
    attempt = attempts("-evidence__events_total")
    assert attempt.evidence.events_total > 2 * SIZE
    sliced = page_html(client, slice_url(attempt, **{"from": SIZE}))
    assert anchors(sliced) == list(range(SIZE, 2 * SIZE))
    whole = page_html(
        client,
        reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])
        + "?all=1",
    )
    for i in range(SIZE, 2 * SIZE):
        # The same renderer: each event's markup (elapsed time included) is identical.
        li = re.search(rf'<li class="ev [^"]*" id="e{i}">.*?</li>', whole, re.S).group(0)
        assert li in sliced
    assert '<header class="site-header">' in sliced and '<main id="main">' in sliced
    attempt_url = reverse(
        "attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug]
    )
    assert f'href="{attempt_url}#trajectory"' in sliced


def test_from_is_aligned_down_and_prev_next_link_neighbours(client, bench):
    attempt = attempts("-evidence__events_total")
    total = attempt.evidence.events_total
    html = page_html(client, slice_url(attempt, **{"from": SIZE}))
    assert anchors(html)[0] == SIZE
    assert 'rel="prev" href="?from=0"' in html
    assert f'rel="next" href="?from={2 * SIZE}">Events {2 * SIZE}–{3 * SIZE - 1} ›' in html
    first = page_html(client, slice_url(attempt))
    assert anchors(first) == list(range(SIZE)) and 'rel="prev"' not in first
    last_start = (total - 1) // SIZE * SIZE
    last = page_html(client, slice_url(attempt, **{"from": last_start}))
    assert anchors(last) == list(range(last_start, total)) and 'rel="next"' not in last


@pytest.mark.parametrize("event", [SIZE + 2, "last"])
def test_an_event_inside_a_slice_redirects_to_the_slice_marking_it(client, bench, event):
    attempt = attempts("-evidence__events_total")
    total = attempt.evidence.events_total
    event = total - 1 if event == "last" else event
    start = event // SIZE * SIZE
    assert event != start
    response = client.get(slice_url(attempt, **{"from": event, "q": "x"}))
    # One address per slice; the event asked for is the fragment (the "Go to
    # event" form of the attempt page lands on it, marked, without a script).
    assert response.status_code == 302
    assert response["Location"] == slice_url(attempt, **{"from": start, "q": "x"}) + (f"#e{event}")


def test_a_fragment_may_be_any_part_of_one_slice(client, bench):
    # What the attempt page's script asks for first around a deep link's event.
    attempt = attempts("-evidence__events_total")
    part = client.get(slice_url(attempt, **{"from": SIZE + 1, "to": SIZE + 3, "fragment": 1}))
    assert part.status_code == 200
    assert anchors(part.content.decode()) == [SIZE + 1, SIZE + 2]
    whole = client.get(slice_url(attempt, **{"from": SIZE + 1, "fragment": 1}))
    assert part["ETag"] != whole["ETag"]
    # `to` stays within the slice and after `from`, else there is no such part.
    for to in (SIZE + 1, 2 * SIZE + 1, "x", "²"):
        bad = client.get(slice_url(attempt, **{"from": SIZE + 1, "to": to, "fragment": 1}))
        assert bad.status_code == 404, to
    # A page (no fragment) is a whole slice whatever `to` says.
    page = client.get(slice_url(attempt, **{"from": SIZE, "to": SIZE + 2}))
    assert anchors(page.content.decode()) == list(range(SIZE, 2 * SIZE))


def test_a_fragment_from_inside_a_slice_is_the_rest_of_that_slice(client, bench):
    # What the attempt page's script asks for after the first events it carries.
    attempt = attempts("-evidence__events_total")
    rest = client.get(slice_url(attempt, **{"from": SIZE + 2, "fragment": 1}))
    assert rest.status_code == 200
    assert anchors(rest.content.decode()) == list(range(SIZE + 2, 2 * SIZE))
    whole = client.get(slice_url(attempt, **{"from": SIZE, "fragment": 1}))
    assert rest["ETag"] != whole["ETag"]
    again = client.get(
        slice_url(attempt, **{"from": SIZE + 2, "fragment": 1}),
        headers={"if-none-match": rest["ETag"]},
    )
    assert again.status_code == 304


def test_a_slice_is_cacheable_but_revalidated_and_private_for_staff(client, admin_client, bench):
    attempt = attempts("-evidence__events_total")
    public = client.get(slice_url(attempt, **{"from": SIZE}))
    assert set(public["Cache-Control"].split(", ")) == {"public", "no-cache"}
    assert "Cookie" in public["Vary"]
    staff = admin_client.get(slice_url(attempt, **{"from": SIZE}))
    assert set(staff["Cache-Control"].split(", ")) == {"private", "no-cache"}


@pytest.mark.parametrize("start", ["999999", "-1", "abc"])
def test_a_slice_outside_the_trajectory_is_a_404(client, bench, start):
    attempt = attempts("-evidence__events_total")
    assert client.get(slice_url(attempt, **{"from": start})).status_code == 404


@pytest.mark.parametrize("start", ["²", "9" * 5000])
def test_a_start_int_cannot_read_is_a_404_not_a_server_error(client, bench, start):
    attempt = attempts("-evidence__events_total")
    assert client.get(slice_url(attempt, **{"from": start})).status_code == 404


def test_the_etag_is_strong_per_range_and_answers_304(client, bench):
    attempt = attempts("-evidence__events_total")
    one = client.get(slice_url(attempt))
    two = client.get(slice_url(attempt, **{"from": SIZE}))
    etag = one["ETag"]
    assert etag.startswith('"') and etag != two["ETag"]
    again = client.get(slice_url(attempt), headers={"if-none-match": etag})
    assert again.status_code == 304 and again["ETag"] == etag and not again.content
    other = client.get(slice_url(attempt), headers={"if-none-match": two["ETag"]})
    assert other.status_code == 200


def test_fragment_mode_is_only_the_events(client, bench):
    attempt = attempts("-evidence__events_total")
    html = page_html(client, slice_url(attempt, **{"from": SIZE, "fragment": 1}))
    assert html.startswith('<li class="ev') and "<html" not in html and "<nav" not in html
    assert anchors(html) == list(range(SIZE, 2 * SIZE))


def test_hostile_event_text_is_shown_as_text(client, bench):
    attempt = attempts("-evidence__events_total")
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    changed = Event.objects.filter(attempt=attempt, index__in=range(SIZE, 2 * SIZE))
    assert changed.filter(text__isnull=False).update(text=hostile)
    for params in ({"from": SIZE}, {"from": SIZE, "fragment": 1}):
        html = page_html(client, slice_url(attempt, **params))
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html


def test_the_attempt_page_lists_its_slices(client, bench):
    attempt = attempts("-evidence__events_total")
    total = attempt.evidence.events_total
    url = reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])
    html = page_html(client, url)
    nav = html.split('aria-label="Trajectory in parts"', 1)[1].split("</nav>", 1)[0]
    starts = [int(s) for s in re.findall(r"\?from=(\d+)", nav)]
    assert starts == list(range(0, total, SIZE))


def test_query_count_does_not_grow_with_the_trajectory(client, bench, django_assert_num_queries):
    short, long = attempts("evidence__events_total"), attempts("-evidence__events_total")
    assert long.evidence.events_total > 2 * SIZE
    for attempt in (short, long):
        # 1 the attempt with its names and event count; 2 the first event's time;
        # 3 the slice's events.
        with django_assert_num_queries(3):
            page_html(client, slice_url(attempt))
        with django_assert_num_queries(3):
            page_html(
                client,
                slice_url(
                    attempt,
                    **{
                        "from": (long.evidence.events_total - 1) // SIZE * SIZE
                        if attempt is long
                        else 0
                    },
                ),
            )


def test_the_slice_reads_its_attempt_without_the_page_headers_rows(client, bench):
    # The patch and the transcript check are the attempt page's; a slice that
    # joined them would pay for planning the wider join on every slice.
    attempt = attempts("-evidence__events_total")
    with CaptureQueriesContext(connection) as queries:
        page_html(client, slice_url(attempt, **{"from": SIZE}))
    lookup = queries.captured_queries[0]["sql"]
    assert "trajectories_evidence" in lookup
    assert "trajectories_blob" not in lookup
    assert "trajectories_transcriptcheck" not in lookup


def test_the_slice_reads_an_index_range_not_an_offset(client, bench):
    attempt = attempts("-evidence__events_total")
    with CaptureQueriesContext(connection) as queries:
        page_html(client, slice_url(attempt, **{"from": SIZE}))
    sql = queries.captured_queries[-1]["sql"]
    assert '"index" >= ' in sql and '"index" < ' in sql and "OFFSET" not in sql.upper()


def test_a_further_trial_has_its_own_slices(tmp_path, client):
    j = job(tmp_path / "jobs")
    trial(j, "t1", name="t1__aaa", reward=1.0, started="2025-11-19T10:00:00")
    trial(j, "t1", name="t1__bbb", reward=0.0, started="2025-11-19T11:00:00")
    import_harbor(j, stdout=io.StringIO(), stderr=io.StringIO())
    second = Attempt.all_trials.select_related("bench", "model", "task", "evidence").get(trial=1)
    args = [second.bench.slug, second.model.slug, second.task.slug]
    url = reverse("attempt-trial-events", args=[*args, 1])
    html = page_html(client, url)
    count = min(SIZE, second.evidence.events_total)
    assert anchors(html) == list(range(count))
    assert f'href="{reverse("attempt-trial", args=[*args, 1])}#trajectory"' in html
    assert client.get(reverse("attempt-trial-events", args=[*args, 0])).status_code == 404


def stubs(html: str) -> list[tuple[int, int, str]]:
    found = re.findall(
        r'<li class="ev-more" data-from="(\d+)" data-last="(\d+)"(?: data-lines="\d+")?>'
        r'<a href="([^"]+)">',
        html,
    )
    return [(int(a), int(b), href) for a, b, href in found]


def test_the_attempt_page_holds_the_first_slice_and_a_placeholder_per_later_one(client, bench):
    attempt = attempts("-evidence__events_total")
    total = attempt.evidence.events_total
    url = reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])
    html = page_html(client, url)
    assert anchors(html) == list(range(SIZE))
    events_url = slice_url(attempt)
    assert stubs(html) == [
        (start, min(start + SIZE, total) - 1, f"{events_url}?from={start}")
        for start in range(SIZE, total, SIZE)
    ]
    assert f'data-slices="{events_url}"' in html
    # The deep link's slice is asked for from <head>, before the page is parsed.
    assert '<meta name="benchview-slices"' in html.split("</head>", 1)[0]
    # ?all=1 is every event on one page, without placeholders.
    every = page_html(client, url + "?all=1")
    assert anchors(every) == list(range(total)) and "ev-more" not in every


def test_the_page_may_carry_fewer_events_than_a_slice_and_the_rest_follows(client, bench, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "attempt_first_events": 2}
    attempt = attempts("-evidence__events_total")
    total = attempt.evidence.events_total
    url = reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])
    html = page_html(client, url)
    assert anchors(html) == [0, 1]
    events_url = slice_url(attempt)
    # The rest of the first slice is a placeholder of its own; without the
    # script its link reaches the first slice's page, marking event 2.
    assert stubs(html)[0] == (2, SIZE - 1, f"{events_url}?from=2")
    assert client.get(f"{events_url}?from=2")["Location"] == f"{events_url}?from=0#e2"
    assert [s[:2] for s in stubs(html)[1:]] == [
        (start, min(start + SIZE, total) - 1) for start in range(SIZE, total, SIZE)
    ]
    # Every event is on the page or behind exactly one placeholder.
    held = set(anchors(html))
    for first, last, _ in stubs(html):
        held |= set(range(first, last + 1))
    assert held == set(range(total))
    # A link to an event of the first slice that the page does not carry goes
    # to the first slice's page.
    Event.objects.filter(attempt=attempt, index=3).update(text="okapi-unique-word")
    results = page_html(client, url + "?q=okapi-unique-word")
    assert f'<a href="{events_url}?from=0#e3">#3</a>' in results


def test_links_to_events_not_on_the_page_go_to_their_slice_page(client, bench):
    attempt = attempts("-evidence__events_total")
    late = Event.objects.filter(attempt=attempt, index__gte=SIZE).order_by("index").first().index
    url = reverse("attempt", args=[attempt.bench.slug, attempt.model.slug, attempt.task.slug])
    Event.objects.filter(attempt=attempt, index=late).update(text="zebra-unique-word")
    html = page_html(client, url + "?q=zebra-unique-word")
    results = html.split('aria-label="Search results"', 1)[1].split("</section>", 1)[0]
    start = late // SIZE * SIZE
    assert f'<a href="{slice_url(attempt)}?from={start}#e{late}">#{late}</a>' in results
    # Events on the page keep their plain anchors.
    Event.objects.filter(attempt=attempt, index=1).update(text="yak-unique-word")
    html = page_html(client, url + "?q=yak-unique-word")
    assert '<a href="#e1">#1</a>' in html
