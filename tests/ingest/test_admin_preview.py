"""The preview's score changes predict exactly what the apply stores (ingest.reading.preview)."""

from __future__ import annotations

import pytest

from formats.reader import open_release
from ingest.reading.plan import build_plan
from ingest.reading.preview import plan_model_figures, score_changes
from leaderboard.models import Attempt, Model
from samplegen.release import generate_release
from tests.factories import edit_json, import_path


def plan_of(path):
    with open_release(path) as source:
        return build_plan(source)


@pytest.mark.django_db
def test_predicted_scores_and_ranks_are_the_ones_the_import_stores(tmp_path):
    generate_release(tmp_path / "a", models=4, tasks=12, released=3, events=6, seed=3)
    generate_release(tmp_path / "b", models=4, tasks=12, released=11, events=6, seed=3)
    import_path(tmp_path / "a")
    plan = plan_of(tmp_path / "b")
    predicted = plan_model_figures(plan)
    changes = {c.model: c for c in score_changes(plan)}
    before = {m.slug: (m.score, m.rank) for m in Model.objects.all()}

    import_path(tmp_path / "b")
    after = {m.slug: (m.score, m.rank) for m in Model.objects.all()}
    assert predicted == after
    assert {slug: (c.old_score, c.old_rank) for slug, c in changes.items()} == before
    assert {slug: (c.new_score, c.new_rank) for slug, c in changes.items()} == after


@pytest.mark.django_db
def test_a_new_bench_previews_every_model_as_new_in_rank_order(small_release_dir):
    changes = score_changes(plan_of(small_release_dir))
    assert {c.status for c in changes} == {"new"}
    assert all(c.old_score is None and c.old_rank is None for c in changes)
    assert [c.new_rank for c in changes] == sorted(c.new_rank for c in changes)


@pytest.mark.django_db
def test_a_verdict_that_contradicts_the_published_score_shows_as_a_change(imported, release_copy):
    # Fail a mandatory check of one released attempt: its recomputed score drops to 0.
    attempt = (
        Attempt.objects.released()
        .filter(score__gt=0, verdict__isnull=False)
        .select_related("model", "task")
        .order_by("model__slug", "task__slug")
        .first()
    )
    model = attempt.model.slug
    folder = release_copy / "attempts" / model / attempt.task.slug

    def fail_mandatory(verdict):
        for check in verdict["checks"]:
            if check["mandatory"]:
                check["passed"] = False

    edit_json(folder / "verdict.json", fail_mandatory)
    change = {c.model: c for c in score_changes(plan_of(release_copy))}[model]
    old = Model.objects.get(slug=model)
    assert (change.old_score, change.old_rank) == (old.score, old.rank)
    assert change.new_score < old.score
    assert change.status == "changed"
    assert change.disagrees  # leaderboard.json still publishes the old figure


@pytest.mark.django_db
def test_a_model_the_release_drops_is_listed_as_removed(imported, release_copy):
    dropped = Model.objects.order_by("slug").first()
    plan = plan_of(release_copy)
    plan.manifest.models.remove(dropped.slug)
    change = {c.model: c for c in score_changes(plan)}[dropped.slug]
    assert change.status == "removed"
    assert (change.new_score, change.new_rank) == (None, None)
    assert score_changes(plan)[-1].model == dropped.slug
