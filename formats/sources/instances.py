"""A per-instance outcome (resolved or not, and its cost) as a v1 attempt:
what leaderboards that publish only outcomes give (swebench.com's
``per_instance_details``, OpenHands' ``instance_results``). Shared by their
adapters.

The outcome is the verdict's reward (1 or 0, threshold 1: the bench's
``reward-threshold`` rule) and its one check, ``resolved``; an unknown
outcome (null) has no verdict, so it scores 0 and is flagged
``missing-verdict``, as any attempt without one. There is no trajectory
(flag ``no-trajectory``) and no timing (duration 0).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from typing import Any

from formats.sources.protocol import AttemptEntry, Check, LazyFolder, digests_of
from formats.v1 import attempt_files as v1

RULE = "reward-threshold"
NO_TRAJECTORY = "no-trajectory"
MISSING_VERDICT = "missing-verdict"


def dump(value: Any) -> bytes:
    return json.dumps(value, indent=1, ensure_ascii=False).encode("utf-8")


@dataclass(frozen=True)
class Outcome:
    """One model's result on one instance, as the source gives it."""

    bench: str
    model: str  # the model's id in the bench
    harness: str
    task: str  # the instance's id in the bench
    instance: str  # as the source spells it
    resolved: bool | None  # None: the source does not know
    cost: float | None
    finished_at: str  # ISO 8601 UTC
    grader: str  # who decided "resolved", for the verdict
    run_id: str  # the run it comes from (a folder, an archive), for provenance
    exporter: str
    extra_key: str  # where the summary keeps the source's own fields
    extra: tuple[tuple[str, Any], ...] = ()  # those fields

    @property
    def score(self) -> float:
        return 1.0 if self.resolved else 0.0

    @property
    def flags(self) -> list[str]:
        return [NO_TRAJECTORY] + ([MISSING_VERDICT] if self.resolved is None else [])

    @property
    def checks(self) -> list[Check]:
        return [] if self.resolved is None else [Check("resolved", "reward", self.resolved)]


def outcome_files(got: Outcome) -> dict[str, bytes]:
    """The attempt folder's files: summary, verdict (unless unknown), an empty
    trajectory and transcript, and the instance's id as its problem."""
    passed = int(bool(got.resolved))
    total = 0 if got.resolved is None else 1
    summary = v1.summary_document(
        bench=got.bench,
        model=got.model,
        task=got.task,
        harness=got.harness,
        score=got.score,
        scoring_rule=RULE,
        checks=v1.summary_checks(total=total, passed=passed),
        flags=got.flags,
        cost=v1.summary_cost(usd=got.cost, input_tokens=0, output_tokens=0),
        # Not published; v1 needs a number (docs/formats.md).
        timing=v1.summary_timing(
            started_at=got.finished_at, finished_at=got.finished_at, duration_s=0.0
        ),
        hashes=v1.summary_hashes(),
        provenance=v1.summary_provenance(run_id=got.run_id, exporter=got.exporter),
        extra={got.extra_key: {"instance_id": got.instance, **dict(got.extra)}},
    )
    verdict = None
    if got.resolved is not None:
        verdict = v1.verdict_document(
            model=got.model,
            task=got.task,
            grader=v1.verdict_grader(got.grader, ""),
            checks=[
                v1.verdict_check(
                    name="resolved",
                    level="reward",
                    mandatory=False,
                    passed=got.resolved,
                    detail="resolved" if got.resolved else "not resolved",
                )
            ],
            extra={"reward": got.score, "threshold": 1.0},
        )
    return v1.folder_files(
        dump,
        summary=summary,
        verdict=verdict,
        trajectory=v1.trajectory_document(harness=got.harness, model=got.model, events=[]),
        transcript=b"",
        problem=f"Instance `{got.instance}`.\n",
    )


def outcome_attempt(got: Outcome, origin: str) -> AttemptEntry:
    """The light attempt of an outcome, its files built again when read."""
    build = partial(outcome_files, got)
    return AttemptEntry(
        model=got.model,
        task=got.task,
        score=got.score,
        flags=got.flags,
        checks=got.checks,
        cost_usd=got.cost,
        duration_s=0.0,
        finished_at=got.finished_at,
        folder=LazyFolder(build, digests_of(build()), origin),
    )


def surface_of(instance: str, default: str) -> str:
    """The group of an instance: a SWE-bench-style id's repository owner
    ("astropy__astropy-12907" → "astropy"), else ``default``."""
    owner, sep, _ = instance.partition("__")
    return owner.lower() if sep and owner else default


def percent_precision(value: float) -> float:
    """Half a unit of the last decimal a percentage was given to, as a
    fraction: 74.4 → 0.0005, 64.93 → 0.00005, 75 → 0.005."""
    text = repr(float(value))
    decimals = 0 if "e" in text else len(text.split(".")[1].rstrip("0"))
    return 0.5 * 10.0 ** (-decimals) / 100.0
