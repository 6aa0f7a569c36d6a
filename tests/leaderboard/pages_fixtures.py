"""Fixtures for the page tests: one import of the small release per test module.

Importing takes a couple of seconds, so each page-test module imports the
small release once (``bench``) and every test runs inside its own rolled-back
transaction on top of it; edits a test makes vanish with it. The module's
teardown flushes the database so later modules start empty as usual.

Import the fixture into a test module (``from tests.leaderboard.pages_fixtures
import bench_fixture  # noqa: F401``) and ask for ``bench``.
"""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import override_settings

from leaderboard.models import Attempt, Bench, CheckResult, Model, Task
from tests.conftest import import_path


@pytest.fixture(scope="module", name="bench")
def bench_fixture(django_db_setup, django_db_blocker, small_release_dir, tmp_path_factory) -> Bench:
    media = tmp_path_factory.mktemp("media")
    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=media):
        imported = import_path(small_release_dir).bench
    yield imported
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


def grow(bench: Bench, *, models: int = 3, tasks: int = 4) -> None:
    """Add models and tasks (half of the tasks released in the first batch) with
    an attempt for every new cell: the shape of a bigger release, for tests
    that prove a page's query count does not depend on its size."""
    batch = bench.batches.order_by("number").first()
    first_task = bench.tasks.filter(batch__live=True).order_by("pk").first()
    surfaces = sorted(set(bench.tasks.values_list("surface", flat=True)))
    new_tasks = Task.objects.bulk_create(
        Task(
            bench=bench,
            slug=f"grown-task-{i}",
            title=f"Grown task {i}",
            surface=surfaces[i % len(surfaces)],
            position=1000 + i,
            batch=batch if i % 2 == 0 else None,
            ticket="# Grown\n\nA task added by the test.",
        )
        for i in range(tasks)
    )
    base = bench.models.order_by("rank", "slug").last()
    new_models = Model.objects.bulk_create(
        Model(
            bench=bench,
            slug=f"grown-model-{i}",
            display_name=f"Grown model {i}",
            harness=base.harness,
            provider=f"grown-provider-{i}",
            position=1000 + i,
            rank=base.rank + 1 + i,
            score=0.1,
            tasks=base.tasks + tasks,
            by_surface=base.by_surface,
        )
        for i in range(models)
    )
    every_model = list(bench.models.all())
    attempts = []
    for model in every_model:
        for task in new_tasks:
            attempts.append(
                Attempt(
                    bench=bench,
                    model=model,
                    task=task,
                    has_detail=task.batch_id is not None,
                    score=0.5,
                    flags=["missing-verdict"] if model.pk % 2 else [],
                )
            )
    for model in new_models:
        for task in bench.tasks.exclude(pk__in=[t.pk for t in new_tasks]):
            attempts.append(
                Attempt(
                    bench=bench,
                    model=model,
                    task=task,
                    has_detail=task.batch_id is not None,
                    score=0.25,
                )
            )
    created = Attempt.objects.bulk_create(attempts)
    CheckResult.objects.bulk_create(
        CheckResult(
            attempt=attempt,
            position=check.position,
            name=check.name,
            level=check.level,
            mandatory=check.mandatory,
            passed=True,
        )
        for attempt in created
        if attempt.task_id == first_task.pk
        for check in first_task.checks.all()
    )


def h1_count(html: str) -> int:
    return len(re.findall(r"<h1[\s>]", html))
