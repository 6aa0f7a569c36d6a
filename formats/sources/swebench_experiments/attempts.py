"""One instance of one submission → the files of its release-v1 attempt folder.

The verdict carries ``reward`` 1 when the submission says the instance was
resolved, 0 when not, and ``threshold`` 1: the ``reward-threshold`` rule then
recomputes the score from what the submission says. FAIL_TO_PASS and
PASS_TO_PASS tests are the checks, for detail (level names the group). The
prediction is ``patch.diff``; the trajectory, normalised by content, gives
the events, and its bytes are the transcript (so the import's fidelity check
reads it again).
"""

from __future__ import annotations

import hashlib
from functools import partial
from typing import Any

import orjson

from formats.normalise import UnknownFormat, normalise
from formats.sources.protocol import AttemptEntry, Check, LazyFolder, digests_of
from formats.sources.swebench_experiments.held import Held
from formats.sources.swebench_experiments.systems import Instance, System
from formats.v1 import attempt_files as v1

RULE = "reward-threshold"
GRADER = v1.verdict_grader("swe-bench-harness", "1")
EXPORTER = "benchview swebench-experiments"
NOT_APPLIED = "patch-not-applied"
NO_PATCH = "no-patch"
NO_TRAJECTORY = "no-trajectory"
UNKNOWN_TRAJECTORY = "trajectory-format-unknown"
# CheckResult.name holds 200 characters; longer test ids keep a digest to stay distinct.
NAME_MAX = 200


def check_name(test: str) -> str:
    if len(test) <= NAME_MAX:
        return test
    digest = hashlib.sha256(test.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{test[: NAME_MAX - 12]}…{digest}"


def _checks(instance: Instance, groups: dict[str, Any]) -> list[dict[str, Any]]:
    checks: list[dict[str, Any]] = []
    seen: set[str] = set()
    for group in ("FAIL_TO_PASS", "PASS_TO_PASS"):
        tests = groups.get(group)
        if not tests:
            continue
        for passed, names in ((True, tests["success"]), (False, tests["failure"])):
            for test in names:
                name = check_name(test)
                if name in seen:
                    name = check_name(f"{test} ({group})")
                if name in seen:
                    continue
                seen.add(name)
                checks.append(
                    v1.verdict_check(name=name, level=group, mandatory=False, passed=passed)
                )
    if not checks:
        checks.append(
            v1.verdict_check(
                name="resolved",
                level="resolved",
                mandatory=False,
                passed=bool(instance.resolved),
                detail=f"as {instance.where} says",
            )
        )
    return checks


def transcript_of(system: System, instance: Instance, held: Held) -> bytes | None:
    ref = instance.trajectory
    if ref is None:
        return None
    if ref.line is None:
        return system.read(ref.name)
    return held.line(system, ref.name, ref.line) + b"\n"


def dump(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_INDENT_2)


def ticket_of(events: list[dict[str, Any]]) -> str:
    """The task statement: the first user message of the trajectory."""
    for event in events:
        if event.get("type") == "user" and not event.get("observation"):
            return event.get("text") or ""
    return ""


def instance_attempt(
    system: System, instance: Instance, *, bench: str, task: str, held: Held
) -> AttemptEntry:
    """The attempt of ``instance``: its files are built, hashed and dropped, and
    its folder builds them again when the import reads it (``held`` keeps the
    files of the system being read, shared by every attempt of the source)."""
    files, entry = _attempt(system, instance, bench=bench, task=task, held=held)
    rebuild = partial(_files, system, instance, bench, task, held)
    entry.folder = LazyFolder(rebuild, digests_of(files), f"{system.label}: {instance.id}")
    return entry


def _files(
    system: System, instance: Instance, bench: str, task: str, held: Held
) -> dict[str, bytes]:
    return _attempt(system, instance, bench=bench, task=task, held=held)[0]


def _attempt(
    system: System, instance: Instance, *, bench: str, task: str, held: Held
) -> tuple[dict[str, bytes], AttemptEntry]:
    model = system.id
    flags: list[str] = []
    notes = list(instance.notes)
    transcript = transcript_of(system, instance, held)
    events: list[dict[str, Any]] = []
    events_from = "none"
    meta: dict[str, Any] = {}
    if transcript is not None:
        where = f"{system.label}: {instance.trajectory.label}"
        try:
            got = normalise(transcript)
        except UnknownFormat:
            flags.append(UNKNOWN_TRAJECTORY)
            notes.append(
                f"{where}: not a trajectory format this site knows; kept as the transcript"
            )
        else:
            events, events_from, meta = got.events, got.format, got.meta
            if meta.get("problems"):
                notes.append(f"{where}: " + "; ".join(meta["problems"][:5]))
    else:
        flags.append(NO_TRAJECTORY)
    patch, groups = held.parts(system, instance)
    if not patch:
        flags.append(NO_PATCH)
    if instance.applied is False:
        flags.append(NOT_APPLIED)
    verdict = None
    if instance.resolved is not None:
        verdict = v1.verdict_document(
            model=model,
            task=task,
            grader=GRADER,
            checks=_checks(instance, groups),
            extra={
                "reward": 1.0 if instance.resolved else 0.0,
                "threshold": 1.0,
                "resolved": instance.resolved,
                "applied": instance.applied,
                "result_file": instance.where,
            },
        )
    # The reward-threshold rule at threshold 1: the submission's resolved decides.
    score = 1.0 if instance.resolved else 0.0
    checks = verdict["checks"] if verdict else []
    passed = sum(1 for c in checks if c["passed"])
    cost = _cost(meta)
    day = f"{system.date or '1970-01-01'}T00:00:00Z"
    harness = system.metadata.name or system.folder
    summary = v1.summary_document(
        bench=bench,
        model=model,
        task=task,
        harness=harness,
        score=score,
        scoring_rule=RULE,
        checks=v1.summary_checks(total=len(checks), passed=passed),
        flags=flags,
        cost=cost,
        # The layout records no times: the submission's date stands for both.
        timing=v1.summary_timing(started_at=day, finished_at=day, duration_s=0),
        hashes=v1.summary_hashes(patch=v1.sha256_ref(patch.encode()) if patch else None),
        provenance=v1.summary_provenance(
            model_version=", ".join(system.metadata.models) or None,
            run_id=system.folder,
            exporter=EXPORTER,
        ),
        extra={
            "swebench": {
                "system": system.folder,
                "instance_id": instance.id,
                "events_from": events_from,
                "trajectory": instance.trajectory.label if instance.trajectory else None,
                "notes": notes,
            }
        },
    )
    ticket = ticket_of(events)
    files = v1.folder_files(
        dump,
        summary=summary,
        verdict=verdict,
        trajectory=v1.trajectory_document(harness=harness, model=model, events=events),
        patch=patch or None,
        # A required file: empty where the submission has no trajectory.
        transcript=transcript or b"",
        problem=ticket,
    )
    entry = AttemptEntry(
        model=model,
        task=task,
        score=score,
        flags=flags,
        checks=[Check(c["name"], c["level"], c["passed"], c["mandatory"]) for c in checks],
        cost_usd=cost["usd"],
        duration_s=0,
        finished_at=day,
        folder=_UNBUILT,
        ticket=ticket,
    )
    return files, entry


# Replaced by instance_attempt with the folder that builds the files again.
_UNBUILT = LazyFolder(dict, {}, "")


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return None
    return float(value) if value >= 0 else None


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _cost(meta: dict[str, Any]) -> dict[str, Any]:
    """Cost and tokens as the trajectory states them (SWE-agent and mini-swe-agent's
    ``model_stats``, OpenHands' ``metrics``); unknown otherwise."""
    stats = meta.get("model_stats") if isinstance(meta.get("model_stats"), dict) else {}
    metrics = meta.get("metrics") if isinstance(meta.get("metrics"), dict) else {}
    usd = _number(stats.get("instance_cost"))
    if usd is None:
        usd = _number(metrics.get("accumulated_cost"))
    return v1.summary_cost(
        usd=usd,
        input_tokens=_count(stats.get("tokens_sent")),
        output_tokens=_count(stats.get("tokens_received")),
    )
