"""The model page (/<bench>/models/<model>/) and the task page (/<bench>/tasks/<task>/)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leaderboard.models import Attempt, Batch, Disagreement, Model, Task
from tests.factories import grow, h1_count

pytestmark = pytest.mark.django_db

ATTEMPT_ROW = re.compile(r'<th scope="row"><a href="/[^/]+/tasks/([^/]+)/"')


def model_page(client, bench, slug, **params):
    response = client.get(reverse("model", args=[bench.slug, slug]), params)
    assert response.status_code == 200
    return response.content.decode()


def task_page(client, bench, slug):
    response = client.get(reverse("task", args=[bench.slug, slug]))
    assert response.status_code == 200
    return response.content.decode()


# --------------------------------------------------------------------------- model page


def test_model_page_shows_the_aggregate_surfaces_and_json_twin(client, bench):
    model = Model.objects.get(bench=bench, slug="gpt-6-astra-high")
    html = model_page(client, bench, model.slug)
    assert h1_count(html) == 1
    assert f"<h1>{model.display_name}</h1>" in html
    assert 'class="page-model"' in html
    assert f'href="{reverse("mirror-model", args=[bench.slug, model.slug])}"' in html
    assert f"<dd>{model.score:.3f}</dd>" in html
    assert f"<dd>{model.ci_low:.3f}–{model.ci_high:.3f}</dd>" in html
    assert f"<dd>{model.flagged}</dd>" in html
    for surface, figures in model.by_surface.items():
        width = f"{figures['score'] * 100:.1f}"
        bar = f'<span class="bar-label">{surface}</span><span class="bar-track">'
        bar += f'<span class="bar" style="width:{width}%">'
        assert bar in html


def test_model_page_lists_each_released_attempt_once_in_task_order(client, bench):
    html = model_page(client, bench, "gpt-6-astra-high")
    expected = list(
        Attempt.objects.filter(model__slug="gpt-6-astra-high", has_detail=True)
        .order_by("task__slug")
        .values_list("task__slug", flat=True)
    )
    assert ATTEMPT_ROW.findall(html) == expected
    attempt = Attempt.objects.get(model__slug="gpt-6-astra-high", task__slug="auth0-jwt-verify")
    assert f"{attempt.checks_passed}/{attempt.checks_total}" in html
    assert 'href="/integration-bench/attempts/gpt-6-astra-high/auth0-jwt-verify/"' in html
    assert '<span class="badge badge-flag">missing-verdict</span>' in html


def test_model_page_attempt_rows_sort_by_any_column(client, bench):
    attempts = list(
        Attempt.objects.filter(model__slug="gpt-6-astra-high", has_detail=True).select_related(
            "task"
        )
    )
    html = model_page(client, bench, "gpt-6-astra-high", sort="-score")
    expected = sorted(attempts, key=lambda a: (a.score, a.task.slug), reverse=True)
    assert ATTEMPT_ROW.findall(html) == [a.task.slug for a in expected]
    html = model_page(client, bench, "gpt-6-astra-high", sort="cost")
    expected = sorted(attempts, key=lambda a: (a.cost_usd is None, a.cost_usd or 0, a.task.slug))
    assert ATTEMPT_ROW.findall(html) == [a.task.slug for a in expected]


def test_model_page_hides_staged_attempts_from_visitors_but_not_staff(client, admin_client, bench):
    Batch.objects.filter(bench=bench).update(live=False)
    assert ATTEMPT_ROW.findall(model_page(client, bench, "gpt-6-astra-high")) == []
    assert len(ATTEMPT_ROW.findall(model_page(admin_client, bench, "gpt-6-astra-high"))) > 0


def test_model_page_notes_disagreements(client, bench):
    model = Model.objects.get(bench=bench, slug="qwen4-coder-opencode")
    task = Task.objects.get(bench=bench, slug="auth0-jwt-verify")
    Disagreement.objects.create(
        bench=bench, model=model, task=task, source="summary.json", published=0.5, recomputed=0.25
    )
    html = model_page(client, bench, model.slug)
    assert "Published and recomputed figures disagree." in html
    assert "summary.json score published 0.5, recomputed 0.25" in html


def test_an_unknown_model_answers_404(client, bench):
    assert client.get(reverse("model", args=[bench.slug, "nobody"])).status_code == 404


def test_model_page_query_count_does_not_grow_with_tasks(client, bench, django_assert_num_queries):
    url = reverse("model", args=[bench.slug, "gpt-6-astra-high"])
    # 1 bench, 2 model, 3 visible attempts with their tasks, 4 disagreements,
    # 5 the counted attempts not listed (their number, cost and time),
    # 6 the bench's revisions (the score across them)
    with django_assert_num_queries(6):
        client.get(url)
    grow(bench, models=2, tasks=8)
    with django_assert_num_queries(6):
        response = client.get(url)
    assert "grown-task-0" in response.content.decode()


# --------------------------------------------------------------------------- task page


def test_task_page_renders_the_ticket_checks_and_json_twin(client, bench):
    task = Task.objects.get(bench=bench, slug="auth0-jwt-verify")
    html = task_page(client, bench, task.slug)
    assert h1_count(html) == 1
    assert f"<h1>{task.title}</h1>" in html
    assert 'class="page-task"' in html
    assert f'href="{reverse("mirror-task", args=[bench.slug, task.slug])}"' in html
    # The ticket's own "# Title" is demoted below the page's <h1>.
    assert f"<h3>{task.title}</h3>" in html
    for check in task.checks.all():
        assert f"<code>{check.name}</code>" in html
    assert "mandatory" in html
    assert '<span class="badge badge-level" title="protocol">L2</span>' in html


def test_ticket_markdown_cannot_inject_html_or_script_links(client, bench):
    Task.objects.filter(bench=bench, slug="auth0-jwt-verify").update(
        ticket=(
            "# Title\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n"
            "[click](javascript:alert(3)) [ok](https://example.com/docs) "
            '<a href="javascript:alert(4)">raw</a>\n\n**bold** and `code`'
        )
    )
    html = task_page(client, bench, "auth0-jwt-verify")
    ticket = html[html.index('<div class="markdown">') : html.index('<section class="checks"')]
    assert "<script" not in ticket
    assert "<img" not in ticket
    assert '<a href="javascript' not in ticket
    assert '&lt;a href="javascript:alert(4)"&gt;raw&lt;/a&gt;' in ticket  # shown as text
    assert "[click](javascript:alert(3))" in ticket  # left as text, never a link
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in ticket
    assert '<a href="https://example.com/docs" rel="noopener noreferrer nofollow">ok</a>' in ticket
    assert "<strong>bold</strong>" in ticket and "<code>code</code>" in ticket
    assert h1_count(html) == 1


def test_task_page_grid_shows_each_models_outcome_on_each_check(client, bench):
    html = task_page(client, bench, "auth0-jwt-verify")
    attempts = Attempt.objects.filter(task__slug="auth0-jwt-verify").select_related("model")
    for attempt in attempts:
        assert f'<a href="{reverse("model", args=[bench.slug, attempt.model.slug])}">' in html
    grid = html[html.index('<table class="data-table grid">') :]
    grid = grid[: grid.index("</table>")]
    results = list(
        Attempt.objects.get(task__slug="auth0-jwt-verify", model__slug="gemini-4-pro-opencode")
        .check_results.order_by("position")
        .values_list("passed", flat=True)
    )
    row = grid[grid.index("Gemini 4 Pro") :]
    row = row[: row.index("</tr>")]
    shown = re.findall(r'<td class="outcome (pass|fail|none)"', row)
    assert shown == ["pass" if p else "fail" for p in results]


def test_a_missing_verdict_shows_no_outcomes(client, bench):
    flagged = (
        Attempt.objects.filter(bench=bench, has_detail=True, verdict__isnull=True)
        .select_related("model", "task")
        .first()
    )
    html = task_page(client, bench, flagged.task.slug)
    grid = html[html.index('<table class="data-table grid">') :]
    row = grid[grid.index(flagged.model.display_name) :]
    row = row[: row.index("</tr>")]
    assert (
        re.findall(r'<td class="outcome (pass|fail|none)"', row)
        == ["none"] * flagged.task.checks.count()
    )
    assert "missing-verdict" in row


def test_the_compare_form_goes_to_the_compare_address(client, bench):
    html = task_page(client, bench, "auth0-jwt-verify")
    pick = reverse("task-compare-pick", args=[bench.slug, "auth0-jwt-verify"])
    assert f'action="{pick}"' in html
    response = client.get(pick, {"a": "gpt-6-astra-high", "b": "qwen4-coder-opencode"})
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "compare", args=[bench.slug, "auth0-jwt-verify", "gpt-6-astra-high", "qwen4-coder-opencode"]
    )
    response = client.get(pick, {"a": "Not A Slug", "b": ""})
    assert (
        response["Location"] == reverse("task", args=[bench.slug, "auth0-jwt-verify"]) + "#compare"
    )


def test_unreleased_tasks_answer_404_to_everyone(client, admin_client, bench):
    url = reverse("task", args=[bench.slug, "salesforce-lead-import"])
    assert Task.objects.get(bench=bench, slug="salesforce-lead-import").batch_id is None
    assert client.get(url).status_code == 404
    assert admin_client.get(url).status_code == 404


def test_staged_tasks_answer_404_except_to_staff(client, admin_client, bench):
    Batch.objects.filter(bench=bench).update(live=False)
    url = reverse("task", args=[bench.slug, "auth0-jwt-verify"])
    assert client.get(url).status_code == 404
    response = admin_client.get(url)
    assert response.status_code == 200
    assert "staged: staff only" in response.content.decode()


def test_task_page_query_count_does_not_grow_with_models(client, bench, django_assert_num_queries):
    task = Task.objects.filter(bench=bench, batch__live=True).order_by("pk").first()
    url = reverse("task", args=[bench.slug, task.slug])
    # 1 bench, 2 task with its batch, 3 checks, 4 attempts with models,
    # 5 their check results, 6 their further trials, 7 models without an attempt
    with django_assert_num_queries(7):
        client.get(url)
    grow(bench, models=6, tasks=2)
    with django_assert_num_queries(7):
        response = client.get(url)
    assert "Grown model 5" in response.content.decode()
