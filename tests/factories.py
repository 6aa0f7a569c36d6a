"""Test data helpers shared across test modules: ``make_<thing>`` style builders,
imports of releases, and small readers of pages (fixtures live in conftest.py)."""

from __future__ import annotations

import io
import json
import os
import re
import socket
import tarfile
from pathlib import Path
from unittest import mock

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from ingest.models import ImportJob, ImportRecord
from ingest.running.imports import run_import
from ingest.running.staging import staging_root
from leaderboard.models import Attempt, Bench, CheckResult, Model, Task

# --- releases ---------------------------------------------------------------------------------

# A small release: enough models, tasks and batches to exercise every page,
# fast enough to import in every test that needs it.
SMALL = {"models": 5, "tasks": 14, "released": 6, "seed": 7}


def import_path(path, *, staged: bool = False):
    """Import a release through the recorded door (lock, ImportRecord), as the
    command line does; fail the test on any problem."""
    done = run_import(
        path=path,
        via=ImportRecord.Via.COMMAND,
        holder=f"tests {Path(path).name}",
        staged=staged,
        adapter="release",
    )
    if done.result is None:
        problems = [str(p) for p in done.plan.problems] if done.plan else done.record.problems
        pytest.fail(f"{done.record.message}: {problems}")
    return done.result


def failing_import(path, *args) -> str:
    """Run ``import_release`` where it must fail; return everything it said."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as excinfo:
        call_command("import_release", str(path), *args, stdout=out, stderr=err)
    return f"{out.getvalue()}\n{err.getvalue()}\n{excinfo.value}"


def first_attempt_dir(root: Path) -> Path:
    return sorted((root / "attempts").glob("*/*"))[0]


def edit_json(path: Path, change) -> None:
    """Load a JSON file, let ``change`` mutate it, write it back."""
    data = json.loads(path.read_text())
    result = change(data)
    path.write_text(json.dumps(data if result is None else result, indent=2))


# --- the admin import (users, archives, jobs) -------------------------------------------------

START = "admin:ingest_import"
UPLOAD = "admin:ingest_import_upload"


DUMPED_APPS = ("leaderboard", "trajectories")


def dump() -> dict[str, list[tuple]]:
    """Every row of the site's data (the leaderboard and trajectories apps, their
    many-to-many tables included) in primary-key order: equal dumps, equal databases.

    Read as plain tuples, not through ``dumpdata``'s serializer, which spent over a
    second on the small release each call; tests compare a dump before and after.
    """
    return {
        model._meta.label: list(
            model._base_manager.order_by("pk").values_list(*_dumped_fields(model))
        )
        for app in DUMPED_APPS
        for model in apps.get_app_config(app).get_models(include_auto_created=True)
    }


# When and by whom a revision was recorded are the import's provenance, like its
# ImportRecord: the same release imported at another moment or by another way
# gives an equal database otherwise (everything else of the revision is compared).
PROVENANCE = {"leaderboard.BenchRevision": {"recorded_at", "recorded_by"}}


def _dumped_fields(model) -> list[str]:
    left_out = PROVENANCE.get(model._meta.label, set())
    return [f.attname for f in model._meta.concrete_fields if f.name not in left_out]


def tar_gz(folder: Path, target: Path) -> Path:
    with tarfile.open(target, "w:gz") as archive:
        archive.add(folder, arcname="release")
    return target


def make_user(username: str, *, staff: bool = True, superuser: bool = False):
    return get_user_model().objects.create_user(
        username=username, password="pw", is_staff=staff, is_superuser=superuser
    )


def staged_folders() -> list[Path]:
    return sorted(staging_root().iterdir())


def upload(client: Client, path: Path, **extra):
    with open(path, "rb") as fh:
        return client.post(reverse(UPLOAD), {"archive": fh}, **extra)


def token_of(response) -> str:
    """The staged token of a successful upload or pick (its redirect's last part)."""
    assert response.status_code == 302, response.content[:2000]
    return response["Location"].rstrip("/").rsplit("/", 1)[-1]


def apply(client: Client, token: str, *, publish: bool = True, chunked: bool = False):
    data = {"publish": "on"} if publish else {}
    if chunked:
        data["chunked"] = "on"
    return client.post(reverse("admin:ingest_import_apply", args=[token]), data)


def run_jobs() -> None:
    """Work the task queue in this process until it is empty, as ``db_worker`` does.

    The worker closes "old" connections between tasks, and inside a test's
    transaction that would close the test's own connection (Django's test
    client skips the same call around its requests), so it is skipped here.
    """
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        call_command(
            "db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0
        )


def apply_and_run(client: Client, token: str, **kwargs) -> ImportJob:
    """Apply (which only queues the job and shows its page), then run the job."""
    response = apply(client, token, **kwargs)
    job = ImportJob.objects.latest("pk")
    assert response["Location"] == reverse("admin:ingest_import_job", args=[job.pk])
    assert job.state == "queued"
    run_jobs()
    job.refresh_from_db()
    return job


# --- a release with hostile text --------------------------------------------------------------

SCRIPT = "<script>window.__pwned=1</script>"
IMG = '<img src=x onerror="window.__pwned=1">'
JS_LINK = '<a href="javascript:window.__pwned=1">click me</a>'
UNTERMINATED = '<div title="unterminated <!-- <textarea><b>bold'
CONTROL = "bell\x07 escape\x1b[31mred nul\x00 end"
RTL = "\u202eexe.txt\u202c then עברית and العربية"
BIG_CHARS = 5 * 1024 * 1024


def _append_events(events: list[dict], extra: list[dict]) -> None:
    for event in extra:
        events.append({"index": len(events), **event})


def make_hostile_release(root: Path) -> tuple[str, str]:
    """Put hostile text into one released attempt of the release at ``root``.

    Returns (model, task) of that attempt. Every kind of untrusted text gets a
    payload: event text and outputs, tool input, a check's detail, a vendor
    request body and response, the patch and the ticket the agent received.
    """
    folder = next(
        p
        for p in sorted((root / "attempts").glob("*/*"))
        if (p / "vendor-requests.json").exists()
        and (p / "verdict.json").exists()
        and (p / "patch.diff").exists()
    )
    trajectory = json.loads((folder / "trajectory.json").read_text())
    _append_events(
        trajectory["events"],
        [
            {"type": "message", "text": f"{SCRIPT} {IMG} {JS_LINK}"},
            {
                "type": "tool_call",
                "tool": "Bash",
                "input": {"command": f"echo '{IMG}'"},
                "result": {"ok": False, "output": f"{UNTERMINATED} {SCRIPT}", "exit_code": 1},
            },
            {
                "type": "tool_call",
                "tool": "Write",
                "input": {"file_path": "x.html", "content": SCRIPT},
                "result": {"ok": True, "output": CONTROL, "exit_code": None},
            },
            {"type": "reasoning", "text": RTL},
            {
                "type": "tool_call",
                "tool": "Read",
                "input": {"file_path": "big.log"},
                "result": {"ok": True, "output": "A" * BIG_CHARS, "exit_code": None},
            },
            {"type": "error", "source": "harness", "text": JS_LINK},
            {"type": "message", "text": "plain", f"note{IMG}": SCRIPT},
        ],
    )
    (folder / "trajectory.json").write_text(json.dumps(trajectory))

    verdict = json.loads((folder / "verdict.json").read_text())
    verdict["checks"][0]["detail"] = f"{SCRIPT} {IMG} {RTL}"
    (folder / "verdict.json").write_text(json.dumps(verdict))

    log = json.loads((folder / "vendor-requests.json").read_text())
    first = next(iter(log["vendors"].values()))[0]
    first["body"] = {"html": SCRIPT, "link": JS_LINK}
    first["response"] = f"<html>{IMG}</html>"
    (folder / "vendor-requests.json").write_text(json.dumps(log))

    patch = (folder / "patch.diff").read_text()
    patch += (
        "diff --git a/evil.html b/evil.html\nnew file mode 100644\n"
        "--- /dev/null\n+++ b/evil.html\n@@ -0,0 +1,2 @@\n"
        f"+{SCRIPT}\n+{IMG}\n"
    )
    (folder / "patch.diff").write_text(patch)
    return folder.parent.name, folder.name


# --- pages ------------------------------------------------------------------------------------


def h1_count(html: str) -> int:
    return len(re.findall(r"<h1[\s>]", html))


def body_of(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def page_addresses(bench) -> list[str]:
    attempts = list(Attempt.objects.released().filter(bench=bench).select_related("model", "task"))
    first = attempts[0]
    other = next(a for a in attempts if a.task_id == first.task_id and a.pk != first.pk)
    b = bench.slug
    return [
        reverse("home"),
        reverse("bench", args=[b]),
        reverse("matrix", args=[b]),
        reverse("model", args=[b, first.model.slug]),
        reverse("task", args=[b, first.task.slug]),
        reverse("attempt", args=[b, first.model.slug, first.task.slug]),
        reverse("attempt-transcript", args=[b, first.model.slug, first.task.slug]),
        reverse("compare", args=[b, first.task.slug, first.model.slug, other.model.slug]),
        reverse("analysis", args=[b]),
        reverse("analysis-tool-failures", args=[b]),
        reverse("analysis-protocol", args=[b]),
        reverse("search", args=[b]) + "?q=the",
        reverse("versus", args=[b, first.model.slug, other.model.slug]),
        reverse("versus-pick", args=[b, first.model.slug]),
        reverse("tasks", args=[b]),
        reverse("about", args=[b]),
        reverse("attempt-event", args=[b, first.model.slug, first.task.slug, 0]),
        reverse("data-root"),
        reverse("data-bench", args=[b]),
        reverse("revisions", args=[b]),
        *(
            reverse(name, args=[b, rev])
            for rev in bench.revisions.values_list("slug", flat=True)[:1]
            for name in ("revision", "revision-matrix")
        ),
    ]


def pair_with_differing_checks():
    """Two released attempts on one live task whose verdicts differ on some check."""
    for task_id in Attempt.objects.released().values_list("task", flat=True).distinct():
        attempts = list(
            Attempt.objects.released()
            .filter(task_id=task_id, task__batch__live=True, checks_total__gt=0)
            .select_related("bench", "task", "model")
            .order_by("model__slug")
        )
        for a in attempts:
            for b in attempts:
                outcomes_a = dict(a.check_results.values_list("name", "passed"))
                outcomes_b = dict(b.check_results.values_list("name", "passed"))
                if a != b and outcomes_a != outcomes_b:
                    return a.task, a, b, outcomes_a, outcomes_b
    raise AssertionError("the small release has no pair of differing verdicts")


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


def _redis_test_database() -> int:
    # A Redis database of its own per test process (0 is the default one), so
    # that no two flush each other's counts: xdist workers of one run, and the
    # SQLite and PostgreSQL runs side by side (databases 1-7 and 8-14).
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    postgres = (os.environ.get("DATABASE_URL") or "").startswith("postgres")
    return 1 + int(worker or 0) % 7 + (7 if postgres else 0)


REDIS_TEST_URL = f"redis://127.0.0.1:6379/{_redis_test_database()}"


def redis_running() -> bool:
    """Whether a Redis server answers where REDIS_TEST_URL points."""
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False
