"""The entry point: ``generate_release`` plans a release and writes every file of it."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from pathlib import Path

from ingest.sample.attempts import write_attempt
from ingest.sample.catalog import TWIN, build_models
from ingest.sample.clock import FIRST_RELEASE, epoch_ms
from ingest.sample.documents import write_derived
from ingest.sample.plan import MIN_EVENTS, Attempt, allocate_events, draw_outcomes, pick
from ingest.sample.tasks import build_tasks
from ingest.sample.writer import prepare_root
from leaderboard.scoring import MISSING_VERDICT, SCORING_RULES, CheckOutcome, score_verdict

_SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,99}$")
HARNESS_TIMEOUT = "harness-timeout"


def generate_release(
    root: Path,
    *,
    models: int = 17,
    tasks: int = 60,
    released: int = 10,
    events: int | None = None,
    seed: int = 7,
    bench: str = "integration-bench",
    scoring_rule: str = "task-score-v4-mandatory-gated",
    long_every: int | None = None,
) -> dict[str, int]:
    """Write a synthetic release at ``root``; same arguments give identical bytes."""
    if not _SLUG_RE.fullmatch(bench):
        raise ValueError(f"bench {bench!r} is not a slug")
    if scoring_rule not in SCORING_RULES:
        raise ValueError(
            f"unknown scoring rule {scoring_rule!r}; known: {', '.join(sorted(SCORING_RULES))}"
        )
    if models < 1 or tasks < 1:
        raise ValueError("a release needs at least one model and one task")
    if released < 0 or events is not None and events < 0:
        raise ValueError("--released and --events cannot be negative")
    if long_every is not None and long_every < 1:
        raise ValueError("long_every must be at least 1")
    released = min(released, tasks)
    root = Path(root)
    prepare_root(root)

    rng = random.Random(seed)
    model_specs = build_models(models)
    task_specs = build_tasks(seed, tasks, released)
    by_model = {m.id: m for m in model_specs}
    task_by_id = {t.id: t for t in task_specs}
    released_tasks = [t for t in task_specs if t.batch is not None]
    unreleased_tasks = [t for t in task_specs if t.batch is None]
    model_ids = sorted(by_model)

    twin_source = {TWIN[1]: TWIN[0]} if all(t in by_model for t in TWIN) else {}
    special_models = [m for m in model_ids if m not in TWIN]

    # Which (model, task) pairs are special. Twins are left out so the tie holds.
    no_cell: set[tuple[str, str]] = set()
    for task in pick(rng, unreleased_tasks, 2):
        no_cell.add((rng.choice(special_models or model_ids), task.id))
    # A lone model keeps its attempts: a release with no attempt at all tests nothing.
    if released_tasks and len(model_ids) > 1:
        no_cell.add((rng.choice(special_models or model_ids), rng.choice(released_tasks).id))
    pairs = [(m, t.id) for t in released_tasks for m in model_ids if (m, t.id) not in no_cell]
    eligible = [p for p in pairs if p[0] not in TWIN] or pairs
    specials = pick(rng, eligible, 5)
    missing_verdict = set(specials[:3])
    never_returns = set(specials[3:5])
    big_output = set(pick(rng, pairs, 3))
    no_patch = {p for p in pairs if rng.random() < 0.08}
    problem_differs = {p for p in pairs if rng.random() < 0.04}
    if long_every is not None:
        long_idx = {i for i in range(len(pairs)) if (i + 1) % long_every == 0}
    else:
        # Three long runs at full size; small test releases get fewer (none under
        # fifty attempts) so fixtures built from them stay quick to import, unless
        # the caller asked for an event volume, which always includes a long run.
        n_long = min(3, len(pairs) // 50)
        if events is not None:
            n_long = max(1, n_long)
        long_idx = set(pick(rng, list(range(len(pairs))), n_long))
    sizes = allocate_events(rng, len(pairs), long_idx, events)

    # Outcomes for every cell, released or not; unreleased ones only feed the matrix.
    outcomes: dict[tuple[str, str], list[CheckOutcome]] = {}
    for m in model_ids:
        for task in task_specs:
            if (m, task.id) not in no_cell:
                source = by_model[twin_source.get(m, m)]
                outcomes[(m, task.id)] = draw_outcomes(seed, source, task)

    attempts: dict[tuple[str, str], Attempt] = {}
    for position, (m, t) in enumerate(pairs):
        task = task_by_id[t]
        assert task.batch is not None
        flags: list[str] = []
        checks: list[CheckOutcome] | None = outcomes[(m, t)]
        if (m, t) in missing_verdict:
            checks = None
            flags.append(MISSING_VERDICT)
        if (m, t) in never_returns:
            flags.append(HARNESS_TIMEOUT)
        attempt = Attempt(by_model[m], task, checks, score_verdict(scoring_rule, checks), flags)
        attempt.n_events = max(MIN_EVENTS, sizes[position])
        attempt.long = position in long_idx
        attempt.never_returns = (m, t) in never_returns
        attempt.big_output = (m, t) in big_output and attempt.n_events > 3
        attempt.no_patch = (m, t) in no_patch
        attempt.problem_differs = (m, t) in problem_differs
        # Runs happen in the weeks before their batch is published.
        batch_base = FIRST_RELEASE + timedelta(days=7 * (task.batch - 1) - 18)
        offset = timedelta(
            minutes=41 * model_ids.index(m) + 7 * task_specs.index(task),
            seconds=rng.randint(0, 3599),
        )
        attempt.start_ms = epoch_ms(batch_base + offset)
        attempts[(m, t)] = attempt

    total_events = 0
    total_requests = 0
    for attempt in attempts.values():
        events_written, requests_written = write_attempt(root, bench, scoring_rule, seed, attempt)
        total_events += events_written
        total_requests += requests_written

    write_derived(root, bench, scoring_rule, model_specs, task_specs, attempts, outcomes, no_cell)
    return {
        "models": len(model_specs),
        "tasks": len(task_specs),
        "released_tasks": len(released_tasks),
        "attempts": len(attempts),
        "events": total_events,
        "vendor_requests": total_requests,
    }
