"""The search engine: the same cases, the same answers on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from trajectories.search.engine import search
from trajectories.search.query import parse


def hits(bench, q, user=None, **params):
    """(model, task, index) of every match on the first page."""
    results = search(
        bench=bench,
        user=user or AnonymousUser(),
        query=parse(q, {k: [v] for k, v in params.items()}),
    )
    return sorted(
        (g.attempt.model.slug, g.attempt.task.slug, m.index)
        for g in results.groups
        for m in g.matches
    )


def where(pair, hits_found):
    return [h for h in hits_found if (h[0], h[1]) == tuple(pair)]


@pytest.mark.django_db
def test_a_word_matches_every_event_holding_it_in_any_field(planted):
    bench, first, second = planted
    found = hits(bench, "zebrafish")
    # First attempt: the Bash output and the message; second: the echo call.
    assert len(where(first, found)) == 2
    assert len(where(second, found)) == 1
    assert len(found) == 3


@pytest.mark.django_db
def test_a_phrase_matches_its_words_in_order_only(planted):
    bench, first, _ = planted
    phrase = hits(bench, '"git push --force"')
    words = hits(bench, "git push force")
    assert len(phrase) == 1 and where(first, phrase) == phrase
    # The message "force push the git branch" has the words, not the phrase.
    assert len(words) == 2


@pytest.mark.django_db
def test_an_excluded_word_removes_the_events_holding_it(planted):
    bench, first, second = planted
    assert len(hits(bench, "zebrafish -echo")) == 2
    assert hits(bench, "zebrafish -echo") == where(first, hits(bench, "zebrafish"))
    assert len(hits(bench, 'quokka -"no fish"')) == 1


@pytest.mark.django_db
def test_matching_ignores_case(planted):
    bench, _, _ = planted
    assert hits(bench, "QUOKKA") == hits(bench, "quokka")
    assert len(hits(bench, "quokka")) == 2


@pytest.mark.django_db
def test_tool_filter_finds_every_spelling_of_a_tool(planted):
    bench, first, second = planted
    # Planted: Bash (first attempt), shell (first), bash (second).
    assert len(hits(bench, "zebrafish tool:bash")) == 2
    assert len(hits(bench, '"rm -rf" tool:bash')) == 1
    assert hits(bench, '"rm -rf" tool:Shell') == hits(bench, '"rm -rf" tool:bash')
    assert hits(bench, "zebrafish tool:grep") == []
    assert hits(bench, "zebrafish OR rm") == []  # OR is a word here, not an operator


@pytest.mark.django_db
def test_outcome_and_exit_code_filters(planted):
    bench, first, second = planted
    assert hits(bench, "zebrafish ok:false") == where(second, hits(bench, "zebrafish"))
    assert len(hits(bench, "removed exit:1")) == 1
    assert hits(bench, "removed exit:0") == []
    assert len(hits(bench, "quokka type:message")) == 2
    assert hits(bench, "quokka type:tool_call") == []


@pytest.mark.django_db
def test_attempt_filters_narrow_to_a_model_task_and_surface(planted):
    bench, first, second = planted
    assert hits(bench, f"zebrafish model:{second[0]}") == where(second, hits(bench, "zebrafish"))
    assert hits(bench, "zebrafish", task=first[1]) == where(first, hits(bench, "zebrafish"))
    from leaderboard.models import Task

    surface = Task.objects.get(bench=bench, slug=first[1]).surface
    assert where(first, hits(bench, f'zebrafish surface:"{surface}"'))
    assert hits(bench, "zebrafish surface:no-such-surface") == []


@pytest.mark.django_db
def test_check_filter_keeps_attempts_that_failed_that_check(planted):
    from leaderboard.models import CheckResult

    bench, first, second = planted
    failed = CheckResult.objects.filter(
        attempt__model__slug=first[0], attempt__task__slug=first[1], passed=False
    ).first()
    passed = CheckResult.objects.filter(
        attempt__model__slug=first[0], attempt__task__slug=first[1], passed=True
    ).first()
    if failed is not None:
        assert where(first, hits(bench, f'zebrafish check:"{failed.name}"'))
    if (
        passed is not None
        and not CheckResult.objects.filter(
            attempt__bench=bench,
            name=passed.name,
            passed=False,
            attempt__task__slug=first[1],
            attempt__model__slug=first[0],
        ).exists()
    ):
        assert where(first, hits(bench, f'zebrafish check:"{passed.name}"')) == []
    assert failed is not None or passed is not None


@pytest.mark.django_db
def test_only_excluded_words_with_a_filter_finds_the_rest(planted):
    bench, first, second = planted
    found = hits(bench, "-zebrafish", model=second[0], task=second[1], type="message")
    texts = [h for h in found if (h[0], h[1]) == tuple(second)]
    assert texts and all(h[2] != 0 for h in texts)
    assert (second[0], second[1], max(h[2] for h in texts)) in found  # the quokka message


@pytest.mark.django_db
def test_an_empty_query_finds_nothing(planted):
    bench, _, _ = planted
    results = search(bench=bench, user=AnonymousUser(), query=parse("  --  "))
    assert results.groups == [] and results.total.value == 0


@pytest.mark.django_db
def test_facets_count_matches_by_model_tool_and_task(planted):
    bench, first, second = planted
    results = search(bench=bench, user=AnonymousUser(), query=parse("zebrafish"))
    assert {f.value: f.count for f in results.facets["model"]} == {first[0]: 2, second[0]: 1}
    assert {f.value: f.count for f in results.facets["tool"]} == {"bash": 2}
    assert sum(f.count for f in results.facets["task"]) == 3
    assert str(results.total) == "3"


@pytest.mark.django_db
def test_counts_past_the_cap_read_as_a_floor(planted, settings):
    bench, _, _ = planted
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "search_count_cap": 2}
    results = search(bench=bench, user=AnonymousUser(), query=parse("zebrafish"))
    assert str(results.total) == "2+" and results.facets_capped
    assert len([m for g in results.groups for m in g.matches]) == 3  # the page is not capped
