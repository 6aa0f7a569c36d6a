"""The entry point: ``generate_release`` plans a release and writes every file of it."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from formats.v1.scoring import MISSING_VERDICT, SCORING_RULES, CheckOutcome, score_verdict
from samplegen.attempts import write_attempt
from samplegen.catalog import TASK_CATALOGUE, TWIN, TaskSpec, build_models
from samplegen.clock import FIRST_RELEASE, epoch_ms
from samplegen.documents import write_derived
from samplegen.draws import entity_rng
from samplegen.plan import MIN_EVENTS, Attempt, allocate_events, draw_outcomes, draw_pair
from samplegen.tasks import BATCH_SIZE, build_tasks
from samplegen.writer import prepare_root

_SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,99}$")
HARNESS_TIMEOUT = "harness-timeout"

# The special cases a release plants, one role per (model, task) pair.
_NO_CELL = "no-cell"
_MISSING_VERDICT = "missing-verdict"
_TIMEOUT = "timeout"
_BIG_OUTPUT = "big-output"
_LONG = "long"

# Which roles a task carries follows from its position alone, never from how many
# tasks are released, so the next batch's release plants exactly the same ones on
# the earlier tasks (and its own on the new ones). Within a batch, by the task's
# slot: one of each kind comes early, so even a release of three tasks shows every
# kind but the long run, and every full batch has three missing verdicts, two
# harness timeouts and three 100 KB outputs.
_SLOT_ROLES: dict[int, tuple[str, ...]] = {
    0: (_MISSING_VERDICT, _BIG_OUTPUT),
    1: (_TIMEOUT,),
    2: (_BIG_OUTPUT,),
    3: (_MISSING_VERDICT,),
    4: (_TIMEOUT,),
    5: (_BIG_OUTPUT,),
    7: (_MISSING_VERDICT,),
}
# Tasks one model never ran, by position in the catalogue: one in the first
# batch, two that the default release (ten released) still has unreleased, so the
# matrix shows a missing cell on both sides. A missing cell stays missing when its
# task is released, as a run that never happened would.
_NO_CELL_POSITIONS = frozenset({2, 11, 35})
# The long runs sit on these slots of the first batch, filled in this order: three
# in a whole release, as the default of ``long_every`` promises. The first is on
# slot 7 so that fixtures releasing only part of batch 1 stay quick to import.
_LONG_SLOTS = (7, 8, 6)


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

    model_specs = build_models(models)
    task_specs = build_tasks(seed, tasks, released)
    by_model = {m.id: m for m in model_specs}
    released_tasks = [t for t in task_specs if t.batch is not None]
    model_ids = sorted(by_model)

    twin_source = {TWIN[1]: TWIN[0]} if all(t in by_model for t in TWIN) else {}
    special = _plant_specials(seed, task_specs, model_ids, long_every is None)
    no_cell = {pair for pair, role in special.items() if role == _NO_CELL}
    pairs = [(m, t.id) for t in released_tasks for m in model_ids if (m, t.id) not in no_cell]
    if long_every is not None:
        # Positions count through the released tasks in order, so an earlier
        # batch's attempts keep theirs when a batch is added.
        long_pairs = {p for i, p in enumerate(pairs) if (i + 1) % long_every == 0}
    else:
        long_pairs = {p for p in pairs if special.get(p) == _LONG}
        if events is not None and pairs and not long_pairs:
            # An event volume always includes a long run, even in a small release.
            long_pairs = {pairs[0]}
    draws = {p: draw_pair(seed, *p) for p in pairs}
    sizes = allocate_events(
        [draws[p].long_events if p in long_pairs else draws[p].short_events for p in pairs],
        events,
    )

    # Outcomes for every cell, released or not; unreleased ones only feed the matrix.
    outcomes: dict[tuple[str, str], list[CheckOutcome]] = {}
    for m in model_ids:
        for task in task_specs:
            if (m, task.id) not in no_cell:
                source = by_model[twin_source.get(m, m)]
                outcomes[(m, task.id)] = draw_outcomes(seed, source, task)

    task_position = {t.id: i for i, t in enumerate(task_specs)}
    task_by_id = {t.id: t for t in task_specs}
    attempts: dict[tuple[str, str], Attempt] = {}
    for (m, t), size in zip(pairs, sizes, strict=True):
        task = task_by_id[t]
        assert task.batch is not None
        role = special.get((m, t))
        flags: list[str] = []
        checks: list[CheckOutcome] | None = outcomes[(m, t)]
        if role == _MISSING_VERDICT:
            checks = None
            flags.append(MISSING_VERDICT)
        if role == _TIMEOUT:
            flags.append(HARNESS_TIMEOUT)
        attempt = Attempt(by_model[m], task, checks, score_verdict(scoring_rule, checks), flags)
        attempt.n_events = max(MIN_EVENTS, size)
        attempt.long = (m, t) in long_pairs
        attempt.never_returns = role == _TIMEOUT
        attempt.big_output = role == _BIG_OUTPUT and attempt.n_events > 3
        attempt.no_patch = draws[(m, t)].no_patch
        attempt.problem_differs = draws[(m, t)].problem_differs
        # Runs happen in the weeks before their batch is published.
        batch_base = FIRST_RELEASE + timedelta(days=7 * (task.batch - 1) - 18)
        offset = timedelta(
            minutes=41 * model_ids.index(m) + 7 * task_position[t],
            seconds=draws[(m, t)].start_second,
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


def _plant_specials(
    seed: int, task_specs: list[TaskSpec], model_ids: list[str], default_long: bool
) -> dict[tuple[str, str], str]:
    """Each special (model, task) pair and its role, released or not.

    A task's roles go to distinct models in an order drawn for that task alone;
    the twins are left out so their tie holds.
    """
    candidates = [m for m in model_ids if m not in TWIN] or model_ids
    # One long run per fifty attempts of a full first batch, at most three, so
    # benches of under five models get none and fixtures built from them import quickly.
    n_long = min(3, len(model_ids) * BATCH_SIZE // 50) if default_long else 0
    special: dict[tuple[str, str], str] = {}
    for position, task in enumerate(task_specs):
        roles: list[str] = []
        # A lone model keeps its attempts: a release with no attempt at all tests nothing.
        if len(model_ids) > 1 and position % len(TASK_CATALOGUE) in _NO_CELL_POSITIONS:
            roles.append(_NO_CELL)
        roles += _SLOT_ROLES.get(position % BATCH_SIZE, ())
        if position in _LONG_SLOTS[:n_long]:
            roles.append(_LONG)
        if not roles:
            continue
        order = list(candidates)
        entity_rng(seed, "specials", task.id).shuffle(order)
        for role, model in zip(roles, order, strict=False):
            special[(model, task.id)] = role
    return special
