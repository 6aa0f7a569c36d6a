"""The compare page and its alignment, statistics and endpoint helpers."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from leaderboard.models import Attempt, Model
from leaderboard.services import batch_publish
from tests.factories import pair_with_differing_checks
from trajectories.comparison import endpoint, endpoint_rows, lcs_pairs, normalised_step


def compare_url(task, a, b) -> str:
    return reverse("compare", args=[task.bench.slug, task.slug, a, b])


@pytest.mark.django_db
def test_differing_checks_come_first_and_are_marked(client, bench):
    task, a, b, outcomes_a, outcomes_b = pair_with_differing_checks()
    html = client.get(compare_url(task, a.model.slug, b.model.slug)).content.decode()
    table = html.split('<section id="checks">', 1)[1].split("</section>", 1)[0]
    rows = table.split("<tr")[2:]
    differing = {n for n in outcomes_a if outcomes_a[n] != outcomes_b.get(n)}
    marked = [r for r in rows if 'class="differs"' in r]
    assert len(marked) == len(differing) > 0
    assert rows[: len(marked)] == marked
    assert all(any(f"<code>{n}</code>" in r for r in marked) for n in differing)


@pytest.mark.django_db
def test_the_page_shows_both_patches_and_the_diff_between_them(client, bench):
    task, a, b, *_ = pair_with_differing_checks()
    html = client.get(compare_url(task, a.model.slug, b.model.slug)).content.decode()
    patches = html.split('<section id="patches">', 1)[1].split('<section id="stats">', 1)[0]
    assert f"{a.model.slug}/patch.diff → {b.model.slug}/patch.diff" in patches
    assert patches.count('class="diff diff-unified hl"') >= 2
    assert html.count("<h1") == 1 and 'class="page-compare"' in html


@pytest.mark.django_db
def test_swap_and_pick_another_model_links(client, bench):
    task, a, b, *_ = pair_with_differing_checks()
    html = client.get(compare_url(task, a.model.slug, b.model.slug)).content.decode()
    assert f'href="{compare_url(task, b.model.slug, a.model.slug)}"' in html
    others = Model.objects.filter(attempts__task=task, attempts__has_detail=True).exclude(
        slug__in=[a.model.slug, b.model.slug]
    )
    for other in others:
        assert f'href="{compare_url(task, a.model.slug, other.slug)}"' in html
        assert f'href="{compare_url(task, other.slug, b.model.slug)}"' in html


@pytest.mark.django_db
def test_each_aligned_step_links_to_its_event(client, bench):
    task, a, b, *_ = pair_with_differing_checks()
    html = client.get(compare_url(task, a.model.slug, b.model.slug)).content.decode()
    alignment = html.split('<section id="alignment">', 1)[1].split("</section>", 1)[0]
    attempt_a = reverse("attempt", args=[task.bench.slug, a.model.slug, task.slug])
    for index in a.events.filter(type="tool_call").values_list("index", flat=True):
        assert f'href="{attempt_a}#e{index}"' in alignment


@pytest.mark.django_db
def test_query_count_is_constant(client, bench, django_assert_num_queries):
    task, a, b, *_ = pair_with_differing_checks()
    url = compare_url(task, a.model.slug, b.model.slug)
    # 1 the task (visible to the user); 2 both attempts with their evidence and
    # patches; 3 both verdicts' check results; 4 both attempts' vendor request
    # endpoints; 5 the site's generation (the alignment's cache key); 6 both
    # attempts' tool calls; 7 the models to pick from.
    with django_assert_num_queries(7):
        assert client.get(url).status_code == 200
    # Again, the alignment from the cache: 6 is only the shown rows' tool calls.
    with django_assert_num_queries(7) as queries:
        assert client.get(url + "?rows=0").status_code == 200
    (calls,) = [q["sql"] for q in queries.captured_queries if "trajectories_event" in q["sql"]]
    assert '"index" IN' in calls


@pytest.mark.django_db
def test_a_model_without_an_attempt_and_unpublished_tasks_answer_404(client, admin_client, bench):
    task, a, b, *_ = pair_with_differing_checks()
    assert client.get(compare_url(task, a.model.slug, "nobody")).status_code == 404
    batch_publish(batch=task.batch, live=False)
    assert client.get(compare_url(task, a.model.slug, b.model.slug)).status_code == 404
    assert admin_client.get(compare_url(task, a.model.slug, b.model.slug)).status_code == 200
    unreleased = Attempt.objects.filter(task__batch__isnull=True).select_related("task__bench")
    first = unreleased.first()
    assert admin_client.get(compare_url(first.task, a.model.slug, b.model.slug)).status_code == 404


def test_lcs_pairs_align_the_common_steps_in_order():
    a = list("XABCBDAB")
    b = list("BDCABAZ")
    rows = lcs_pairs(a, b, max_cells=1000)
    matched = [(i, j) for i, j in rows if i is not None and j is not None]
    assert all(a[i] == b[j] for i, j in matched)
    assert len(matched) == 4  # the LCS length of the classic example
    assert [i for i, _ in rows if i is not None] == list(range(len(a)))
    assert [j for _, j in rows if j is not None] == list(range(len(b)))


def test_lcs_pairs_fall_back_to_matching_blocks_beyond_the_cell_limit():
    a = list("abcdefgh") * 3
    b = list("abcXefgh") * 3
    exact = lcs_pairs(a, b, max_cells=10_000)
    approximate = lcs_pairs(a, b, max_cells=1)
    for rows in (exact, approximate):
        assert [i for i, _ in rows if i is not None] == list(range(len(a)))
        assert [j for _, j in rows if j is not None] == list(range(len(b)))
        assert all(a[i] == b[j] for i, j in rows if i is not None and j is not None)
    assert sum(1 for i, j in exact if i is not None and j is not None) == 21
    # Past the cells of the exact table, the bit-parallel rows are exact too.
    bits = lcs_pairs(a, b, max_cells=1, max_bits=10_000)
    assert sum(1 for i, j in bits if i is not None and j is not None) == 21


@hypothesis_settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from("abcd")), st.lists(st.sampled_from("abcde")))
def test_the_bit_parallel_lcs_is_as_long_as_the_table_s_and_a_true_alignment(a, b):
    table = lcs_pairs(a, b, max_cells=10**9)
    bits = lcs_pairs(a, b, max_cells=0, max_bits=10**9)
    matched = [(i, j) for i, j in bits if i is not None and j is not None]
    assert len(matched) == sum(1 for i, j in table if i is not None and j is not None)
    assert all(a[i] == b[j] for i, j in matched)
    assert [i for i, _ in bits if i is not None] == list(range(len(a)))
    assert [j for _, j in bits if j is not None] == list(range(len(b)))


def test_the_same_step_in_different_harnesses_normalises_to_the_same_key():
    claude = normalised_step("Bash", {"command": "git status  --short", "description": "x"})
    codex = normalised_step("shell", {"command": "bash -lc 'git status --short'"})
    opencode = normalised_step("bash", {"command": "git 'status' --short"})
    # The key is the family (formats.tools).
    assert claude == codex == opencode == ("bash", "git status --short")
    cwd = "/workspace/app"
    read = normalised_step("Read", {"file_path": "/workspace/app/a/b.py"}, cwd)
    assert read == normalised_step("read", {"filePath": "/workspace/app/a/b.py"}, cwd)
    assert read == ("read", "a/b.py")
    patch = normalised_step("apply_patch", {"changes": [{"path": "a/b.py", "kind": "update"}]})
    assert patch == normalised_step("Edit", {"file_path": "/workspace/app/a/b.py"}, cwd)
    assert normalised_step("Bash", {"command": "echo 'unterminated"})[1] == "echo 'unterminated"


def test_endpoints_hide_identifiers_but_keep_versions():
    assert endpoint("/crm/v3/objects/deals/1086") == "/crm/v3/objects/deals/{id}"
    assert endpoint("/api/v1/users/00u1/sessions?x=1") == "/api/v1/users/{id}/sessions"
    rows = endpoint_rows(
        Counter(
            {
                ("hubspot", "inbound", "PATCH", "/deals/1"): 1,
                ("hubspot", "inbound", "PATCH", "/deals/2"): 1,
            }
        ),
        Counter({("hubspot", "inbound", "PATCH", "/deals/3"): 1}),
    )
    assert [(r.path, r.a, r.b, r.differs) for r in rows] == [("/deals/{id}", 2, 1, True)]
