"""The model × task heat map (/<bench>/matrix/)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leaderboard.models import Attempt, Batch, Model, Task
from tests.factories import grow, h1_count

pytestmark = pytest.mark.django_db

MODEL_ROW = re.compile(r'<th scope="row" class="m-name"><a href="/[^/]+/models/([^/]+)/">')
TASK_HEAD = re.compile(
    r'<th scope="col" class="t-head[^"]*"[^>]*>(?:<a href="[^"]+"[^>]*>|<span[^>]*>)([^<]+)<'
)


def rows(html: str) -> list[str]:
    return MODEL_ROW.findall(html)


def columns(html: str) -> list[str]:
    return TASK_HEAD.findall(html)


def matrix(client, bench, **params):
    response = client.get(reverse("matrix", args=[bench.slug]), params)
    assert response.status_code == 200
    return response.content.decode()


def test_rows_are_models_by_score_and_columns_tasks_by_surface_hardest_last(client, bench):
    html = matrix(client, bench)
    assert h1_count(html) == 1
    assert 'class="page-matrix"' in html
    assert f'href="{reverse("mirror-matrix", args=[bench.slug])}"' in html
    assert rows(html) == list(
        Model.objects.filter(bench=bench).ranked().values_list("slug", flat=True)
    )
    expected = sorted(
        Task.objects.filter(bench=bench), key=lambda t: (t.surface, -t.mean_score, t.slug)
    )
    assert columns(html) == [t.slug for t in expected]
    surfaces = re.findall(
        r'<th scope="colgroup" colspan="(\d+)" class="surface"><a [^>]+>([^<]+)<', html
    )
    assert [s for _, s in surfaces] == sorted({t.surface for t in expected})
    assert sum(int(n) for n, _ in surfaces) == len(expected)


def test_released_cells_link_to_their_attempt_and_unreleased_ones_are_marked_unlinked(
    client, bench
):
    html = matrix(client, bench)
    released = Attempt.objects.filter(bench=bench, has_detail=True).select_related("model", "task")
    for attempt in released:
        url = reverse("attempt", args=[bench.slug, attempt.model.slug, attempt.task.slug])
        assert re.search(rf'<a href="{url}" [^>]*>{round(attempt.score * 100)}</a>', html)
    assert html.count("/attempts/") == released.count()
    unreleased = Attempt.objects.filter(bench=bench, task__batch__isnull=True).count()
    assert len(re.findall(r'<td class="heat-\d+[^"]* unreleased"', html)) == unreleased
    # A released task's header links to its page; an unreleased one does not.
    task = Task.objects.filter(bench=bench, batch__isnull=True).first()
    assert f"/tasks/{task.slug}/" not in html
    live = Task.objects.filter(bench=bench, batch__isnull=False).first()
    assert f'href="{reverse("task", args=[bench.slug, live.slug])}"' in html


def test_cells_carry_their_score_and_flags_and_missing_cells_say_so(client, bench):
    html = matrix(client, bench)
    # The sample release plants missing verdicts; take one from the database.
    flagged = (
        Attempt.objects.filter(bench=bench, has_detail=True, verdict__isnull=True)
        .select_related("model", "task")
        .first()
    )
    assert flagged.flags == ["missing-verdict"]
    model, task = re.escape(flagged.model.slug), re.escape(flagged.task.slug)
    # The link's title and accessible name say model, task, score and flags.
    label = re.escape(
        f"{flagged.model.display_name} on {flagged.task.title}: 0 (0.000 · missing-verdict)"
    )
    assert re.search(
        rf'<td class="heat-0 flagged"><a href="[^"]*/{model}/{task}/" '
        rf'title="{label}" aria-label="{label}">0</a>',
        html,
    )
    # The small release has public tasks where a model has no attempt at all.
    missing = Model.objects.filter(bench=bench).count() * Task.objects.filter(bench=bench).count()
    missing -= Attempt.objects.filter(bench=bench).count()
    assert missing > 0
    assert html.count('title="no attempt (missing-attempt)"') == missing


def test_staged_tasks_are_linked_for_staff_only(client, admin_client, bench):
    Batch.objects.filter(bench=bench).update(live=False)
    html = matrix(client, bench)
    assert "/attempts/" not in html
    assert "detail not public" in html
    staff_html = matrix(admin_client, bench)
    assert (
        staff_html.count("/attempts/")
        == Attempt.objects.filter(bench=bench, has_detail=True).count()
    )


def test_surface_and_released_filters_narrow_the_columns(client, bench):
    html = matrix(client, bench, surface="payments")
    assert columns(html) == [
        t.slug
        for t in sorted(
            Task.objects.filter(bench=bench, surface="payments"),
            key=lambda t: (-t.mean_score, t.slug),
        )
    ]
    html = matrix(client, bench, surface="payments", released="1")
    assert columns(html) == ["stripe-refund-webhook"]
    html = client.get(
        reverse("matrix", args=[bench.slug]) + "?surface=crm&surface=storage"
    ).content.decode()
    assert {t for t in columns(html)} == set(
        Task.objects.filter(bench=bench, surface__in=["crm", "storage"]).values_list(
            "slug", flat=True
        )
    )


def test_model_task_and_harness_filters_are_repeatable(client, bench):
    url = reverse("matrix", args=[bench.slug])
    html = client.get(url + "?model=qwen4-coder-opencode&model=gpt-6-astra-high").content.decode()
    assert rows(html) == ["gpt-6-astra-high", "qwen4-coder-opencode"]
    html = client.get(url + "?task=auth0-jwt-verify&task=s3-multipart-upload").content.decode()
    assert sorted(columns(html)) == ["auth0-jwt-verify", "s3-multipart-upload"]
    html = matrix(client, bench, harness="opencode")
    assert rows(html) == ["gemini-4-pro-opencode", "qwen4-coder-opencode"]


def test_sort_orders_rows_or_columns_and_ignores_unknown_values(client, bench):
    html = matrix(client, bench, sort="model")
    assert rows(html) == sorted(Model.objects.filter(bench=bench).values_list("slug", flat=True))
    html = matrix(client, bench, sort="task", surface="payments")
    assert columns(html) == sorted(
        Task.objects.filter(bench=bench, surface="payments").values_list("slug", flat=True)
    )
    assert rows(matrix(client, bench, sort="bogus")) == rows(matrix(client, bench))


def test_a_surface_filter_ranks_rows_by_that_surface_and_says_so(client, bench):
    html = matrix(client, bench, surface="payments")
    expected = sorted(
        Model.objects.filter(bench=bench),
        key=lambda m: (-m.by_surface["payments"]["score"], m.rank, m.slug),
    )
    assert rows(html) == [m.slug for m in expected]
    assert "Rows are ranked by the models' score on payments" in html
    top = expected[0].by_surface["payments"]["score"]
    assert f'<td class="m-score num">{top:.3f}</td>' in html
    # Unfiltered, the overall score ranks them again.
    assert "Rows are ranked by" not in matrix(client, bench)


def test_the_model_picker_is_a_list_of_checkboxes_keeping_the_chosen_ones(client, bench):
    chosen = list(
        Model.objects.filter(bench=bench).order_by("slug").values_list("slug", flat=True)[:2]
    )
    html = matrix(client, bench, model=chosen)
    boxes = re.findall(r'<input type="checkbox" name="model" value="([^"]+)"( checked)?>', html)
    assert sorted(slug for slug, _ in boxes) == sorted(
        Model.objects.filter(bench=bench).values_list("slug", flat=True)
    )
    assert sorted(slug for slug, checked in boxes if checked) == chosen
    assert "Models (2 chosen)" in html


def test_task_columns_are_paged_by_the_configured_page_size(client, bench, settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "matrix_tasks_per_page": 5}
    every = columns(matrix(client, bench, sort="task"))
    assert len(every) == 5
    pages = [columns(matrix(client, bench, sort="task", page=n)) for n in (1, 2, 3)]
    assert [len(p) for p in pages] == [5, 5, 4]
    assert sorted(sum(pages, [])) == sorted(
        Task.objects.filter(bench=bench).values_list("slug", flat=True)
    )
    html = matrix(client, bench, sort="task", page=2)
    assert "tasks 6–10 of 14" in html
    assert 'rel="prev"' in html and 'rel="next"' in html
    # Out-of-range and malformed pages land on the nearest real page.
    assert columns(matrix(client, bench, sort="task", page=99)) == pages[2]
    assert columns(matrix(client, bench, sort="task", page="x")) == pages[0]


@pytest.mark.parametrize("value", ["0", "-3", "2.0", "²", "", " ", "1" * 5000, "\x00"])
def test_a_page_int_cannot_read_or_below_one_is_the_first_page(client, bench, settings, value):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "matrix_tasks_per_page": 5}
    first = columns(matrix(client, bench, sort="task"))
    html = matrix(client, bench, sort="task", page=value)
    assert columns(html) == first
    assert "tasks 1–5 of 14" in html


def test_values_the_form_cannot_read_fall_back_to_the_defaults(client, bench):
    plain = matrix(client, bench)
    # Only released=1 narrows to released tasks; another value is ignored, as is
    # an unknown sort, and the last of repeated single values counts.
    assert columns(matrix(client, bench, released="yes", sort="")) == columns(plain)
    url = reverse("matrix", args=[bench.slug])
    html = client.get(url + "?sort=task&sort=bogus&released=1&released=no").content.decode()
    assert columns(html) == columns(plain) and rows(html) == rows(plain)
    # Filters keep any value: one that names nothing matches nothing.
    assert "No cell matches these filters." in matrix(client, bench, model="no-such-model")


def test_a_filter_matching_nothing_says_so(client, bench):
    html = matrix(client, bench, surface="no-such-surface")
    assert "No cell matches these filters." in html


def test_matrix_query_count_does_not_grow_with_models_or_tasks(
    client, bench, django_assert_num_queries
):
    url = reverse("matrix", args=[bench.slug])
    # 1 bench, 2 tasks with their batch, 3 models, 4 the page's cells
    with django_assert_num_queries(4):
        client.get(url, {"harness": "opencode"})
    grow(bench, models=5, tasks=8)
    with django_assert_num_queries(4):
        response = client.get(url, {"harness": "opencode"})
    assert len(rows(response.content.decode())) == 2 + 5
